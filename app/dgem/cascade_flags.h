#pragma once
// The calibration flags every deciding command takes: --temperature (overrides the policy's
// "temperature" key) and the stage-2 cascade (--cascade-mode, --cascade-threshold,
// --cascade-url, --cascade-model, --cascade-token-env; they override the policy's cascade keys),
// and the stage-2 judge's backend they name.

#include <memory>
#include <vector>

#include "cli.h"
#include "core/decide/backend.h"
#include "core/evaluation/eval_runner.h"

namespace dgem {

std::vector<cli::OptionSpec> calibration_options();

// Writes the flags into the schema: --temperature T replaces the policy's temperature (one T
// for every question type), --cascade-mode and --cascade-threshold its cascade keys. Errors name
// the flag and what is accepted.
engine::Result<void> apply_calibration_flags(const cli::Args& args, core::Schema& schema);

// The stage-2 judge of a schema whose cascade is on (nullptr when it is off): an OpenAI-compatible
// chat endpoint at --cascade-url (else the policy's cascade_endpoint, which must then be a URL),
// --cascade-model, and a bearer token from the environment variable --cascade-token-env names
// (default DGEM_CASCADE_TOKEN; none when it is unset). The judge's token is its own: never the
// stage-1 endpoint's.
engine::Result<std::unique_ptr<core::Backend>> make_judge(const cli::Args& args,
                                                          const core::Schema& schema);

// For a run over many items (dgem bench, with or without -t): the cascade keys `policy` (the
// policy's) under the --cascade-* flags and, when that turns the cascade on, the judge they name,
// all written into `settings` (judge, cascade, and a record in settings.extra); --temperature
// replaces every item's temperature. Returns whether a cascade runs.
engine::Result<bool> apply_run_calibration(const cli::Args& args,
                                           const core::CascadeSettings& policy,
                                           core::eval::RunSettings& settings);

}  // namespace dgem
