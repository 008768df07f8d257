#pragma once
// The seam between dgem's flags and core::Backend: every command that decides or generates gets
// its backend here. The flags become a core::BackendSpec (--local: the bundled engine; else a
// remote server from -u/--url, DGEM_URL, the config files) and core::build_backend builds it.

#include <memory>

#include "cli.h"
#include "core/decide/backend.h"
#include "core/endpoints/backend_factory.h"
#include "engine/engine.h"

namespace dgem {

// Options a command adds for the local engine (--device, --threads, --nvfp4-inputs), next to
// cli::backend_options().
std::vector<cli::OptionSpec> local_engine_options();

// The local engine's settings from those flags and --model (default: the demo model built
// with the project, or the tiny model where models/demo holds no weights). Errors name the flag and
// what is accepted.
engine::Result<core::LocalEngineSpec> local_engine_spec(const cli::Args& args);
// The same as the engine's options (dgem serve opens the engine itself).
engine::Result<engine::EngineOptions> local_engine_settings(const cli::Args& args);

// What every command that runs on a backend takes: cli::backend_options() (with -m/--model
// explained for --local as well) followed by local_engine_options().
std::vector<cli::OptionSpec> endpoint_options();

// Where the flags ask to decide: --local (the engine's flags), else the remote side
// (remote_factory.h).
engine::Result<core::BackendSpec> backend_spec(const cli::Args& args);

// The backend the flags ask for. --local: the local engine on --model DIR (default: the tiny
// model built with the project). Errors name the flag and what is accepted.
engine::Result<std::unique_ptr<core::Backend>> make_backend(const cli::Args& args);

}  // namespace dgem
