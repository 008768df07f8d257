#pragma once
// The one place settings become a Backend. A BackendSpec says, as typed values, where decisions
// run: the local engine (a model folder and how to run it) or a remote server (protocol, URL,
// model, transport with its auth, and the tokenizer vLLM structured reads plan with). dgem turns
// its flags into one (app/dgem/backend_factory.cpp), the Studio an endpoint profile
// (core/endpoints/endpoint_profiles.h: backend_spec); build_backend makes the Backend from either.

#include <filesystem>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/decide/backend.h"
#include "core/net/remote_backends.h"

// Declared, not included: callers of the factory need not see the engine's whole interface.
namespace engine {
struct EngineOptions;
}  // namespace engine

namespace core {

enum class EngineDevice { Auto, Cpu, Cuda };  // Auto: CUDA when a GPU is present

// The bundled engine on a model folder.
struct LocalEngineSpec {
    std::filesystem::path model_dir;
    EngineDevice device = EngineDevice::Auto;
    int threads = 0;                // 0: all hardware threads
    bool nvfp4_fp4_inputs = false;  // engine::EngineOptions::nvfp4_fp4_inputs
    // engine::EngineOptions::cpu_precision by name: "auto", "f32" (exact) or "bf16" (the
    // weights as published, read in place); anything else keeps auto.
    std::string cpu_precision = "auto";
    int64_t prefix_cache_bytes = -1;  // -1: the device's default; 0: off
    bool warm_up = false;             // one pass before the backend is handed out
};

// The engine's options for a spec (without cancel and progress, which belong to one build).
engine::EngineOptions engine_options(const LocalEngineSpec& spec);

// The tokenizer a remote backend plans vLLM canvases with.
struct TokenizerSpec {
    enum class Load {
        Never,
        Always,          // before the backend is made
        IfDetectedVllm,  // only when the protocol is Auto and /health says vLLM
    };
    Load load = Load::Never;
    std::filesystem::path path;  // tokenizer.json
    bool optional = false;       // a file that does not load counts as no tokenizer
    // The error when the vLLM protocol is left without a tokenizer (empty: the backend's own).
    std::string missing_error;
};

struct RemoteSpec {
    RemoteProtocol protocol = RemoteProtocol::Auto;  // Auto: asks /health
    RemoteOptions options;
    TokenizerSpec tokenizer;
    // More servers of the same kind besides options.url: the backend is then a FailoverBackend
    // (core/endpoints/failover_backend.h) over all of them, options.url first. With Auto the
    // protocol is asked of the first server that answers /health.
    std::vector<std::string> more_urls;
};

// "http://a:8080/v1, http://b:8080/v1" -> both (commas or white space between URLs).
std::vector<std::string> split_url_list(const std::string& text);

struct BackendSpec {
    std::variant<LocalEngineSpec, RemoteSpec> where;
};

// Builds the backend (blocking: a local engine loads its model, an Auto remote asks /health;
// run it off a UI thread). A local load reports its stages through `progress` (stage "reading",
// "binding" or "warming", fraction 0..1) and stops with a "cancelled" error when `cancel` fires.
Result<std::unique_ptr<Backend>> build_backend(const BackendSpec& spec,
                                               const CancelToken& cancel = {},
                                               const ProgressFn& progress = {});

}  // namespace core
