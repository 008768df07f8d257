#pragma once
// The template domain of studio-core in one include (its headers are in core/template/).

#include "core/template/template.h"
