#pragma once
// The models domain of studio-core in one include (its headers are in core/models/).

#include "core/models/model_catalog.h"
