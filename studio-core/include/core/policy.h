#pragma once
// The policy domain of studio-core in one include (its headers are in core/policy/).

#include "core/policy/json_input.h"
#include "core/policy/policy.h"
#include "core/policy/policy_catalog.h"
#include "core/policy/policy_source_edit.h"
#include "core/policy/schema.h"
