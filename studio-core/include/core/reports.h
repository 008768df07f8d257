#pragma once
// The reports domain of studio-core in one include (its headers are in core/reports/).

#include "core/reports/report.h"
