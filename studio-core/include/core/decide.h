#pragma once
// The decide domain of studio-core in one include (its headers are in core/decide/).

#include "core/decide/backend.h"
#include "core/decide/canvas_plan.h"
#include "core/decide/cascade.h"
#include "core/decide/chat_template.h"
#include "core/decide/decision.h"
#include "core/decide/local_backend.h"
#include "core/decide/plan_executor.h"
#include "core/decide/read_stats.h"
#include "core/decide/row_reader.h"
#include "core/decide/stages.h"
