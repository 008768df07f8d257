#pragma once
// The images domain of studio-core in one include (its headers are in core/images/).

#include "core/images/images.h"
