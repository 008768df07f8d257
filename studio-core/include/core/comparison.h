#pragma once
// The comparison domain of studio-core in one include (its headers are in core/comparison/).

#include "core/comparison/compare.h"
