#pragma once
// dgem bench -t POLICY -d DATA.csv|.jsonl: a dataset through a policy (core/dataset).

#include "cli.h"

namespace dgem::bench {

// The dataset options bench adds (-t/--template, --map).
std::vector<cli::OptionSpec> dataset_options();
// Runs `dgem bench` in dataset mode (the caller saw -t).
int run_dataset_bench(const cli::Args& args);

}  // namespace dgem::bench
