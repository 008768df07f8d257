#pragma once
// The server domain of studio-core in one include (its headers are in core/server/).

#include "core/server/admission.h"
#include "core/server/decision_server.h"
