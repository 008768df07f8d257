#pragma once
// The dataset domain of studio-core in one include (its headers are in core/dataset/): CSV and
// JSONL rows through a policy, streamed, journaled, summarized and reported.

#include "core/dataset/csv_reader.h"
#include "core/dataset/data_rows.h"
#include "core/dataset/dataset_plan.h"
#include "core/dataset/dataset_report.h"
#include "core/dataset/dataset_results.h"
#include "core/dataset/dataset_run.h"
