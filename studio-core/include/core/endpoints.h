#pragma once
// The endpoints domain of studio-core in one include (its headers are in core/endpoints/).

#include "core/endpoints/backend_factory.h"
#include "core/endpoints/backend_runner.h"
#include "core/endpoints/endpoint_profiles.h"
#include "core/endpoints/endpoint_session.h"
#include "core/endpoints/worker_runner.h"
