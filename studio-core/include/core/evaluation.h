#pragma once
// The evaluation domain of studio-core in one include (its headers are in core/evaluation/).

#include "core/evaluation/bench_run.h"
#include "core/evaluation/calibration.h"
#include "core/evaluation/calibration_input.h"
#include "core/evaluation/calibration_run.h"
#include "core/evaluation/eval_report.h"
#include "core/evaluation/eval_runner.h"
#include "core/evaluation/eval_score.h"
#include "core/evaluation/eval_suite.h"
#include "core/evaluation/eval_table.h"
