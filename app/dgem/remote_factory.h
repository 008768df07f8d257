#pragma once
// dgem's remote side: client settings from flags, environment and config files
// (core/config/config.h), the bearer token (--token, DGEM_TOKEN, the keychain, or gcloud with
// --gcp-auth), and the remote Backend for --protocol chat|systemone|vllm|openai|auto.

#include <memory>

#include "cli.h"
#include "core/config/config.h"
#include "core/endpoints/backend_factory.h"
#include "core/net/remote_backends.h"

namespace dgem {

// The flags of cli::backend_options() as config overrides; resolves everything else.
engine::Result<core::ClientConfig> client_config(const cli::Args& args);

// URL, model, timeout, auth and server key for a remote call. Fills the keychain token into
// `config` when neither --token nor DGEM_TOKEN gave one.
engine::Result<core::RemoteOptions> remote_options(const cli::Args& args,
                                                   core::ClientConfig& config);

// Where the flags ask to decide remotely: protocol (--protocol, default auto), URL, model,
// transport and auth, the vLLM tokenizer (--tokenizer) and --canvas-length.
engine::Result<core::BackendSpec> remote_spec(const cli::Args& args);

// The remote Backend the flags ask for (--protocol, default auto).
engine::Result<std::unique_ptr<core::Backend>> make_remote_backend(const cli::Args& args);

}  // namespace dgem
