#pragma once
// The config domain of studio-core in one include (its headers are in core/config/).

#include "core/config/config.h"
