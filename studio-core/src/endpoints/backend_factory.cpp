// From a BackendSpec to a Backend (see core/endpoints/backend_factory.h).
#include "core/endpoints/backend_factory.h"

#include <optional>

#include "core/decide/local_backend.h"
#include "core/endpoints/failover_backend.h"
#include "engine/engine.h"

namespace core {

engine::EngineOptions engine_options(const LocalEngineSpec& spec) {
    engine::EngineOptions options;
    options.model_dir = spec.model_dir;
    switch (spec.device) {
        case EngineDevice::Auto:
            options.device = engine::Device::Auto;
            break;
        case EngineDevice::Cpu:
            options.device = engine::Device::Cpu;
            break;
        case EngineDevice::Cuda:
            options.device = engine::Device::Cuda;
            break;
    }
    options.threads = spec.threads;
    options.nvfp4_fp4_inputs = spec.nvfp4_fp4_inputs;
    options.cpu_precision =
        engine::parse_cpu_precision(spec.cpu_precision).value_or(engine::CpuPrecision::Auto);
    options.prefix_cache_bytes = spec.prefix_cache_bytes;
    options.warm_up = spec.warm_up;
    return options;
}

namespace {

Result<std::unique_ptr<Backend>> build_local(const LocalEngineSpec& spec, const CancelToken& cancel,
                                             const ProgressFn& progress) {
    engine::EngineOptions options = engine_options(spec);
    options.cancel = cancel;
    if (progress)
        options.load_progress = [progress](engine::LoadStage stage, double fraction) {
            progress(Progress{std::string(engine::to_string(stage)), fraction, {}});
        };
    auto backend = LocalBackend::open(options);
    if (!backend) return backend.error();
    return std::unique_ptr<Backend>(std::move(backend.value()));
}

// The tokenizer as the spec asks for it: nullopt when none is wanted or an optional one does
// not load.
Result<std::optional<engine::Tokenizer>> load_tokenizer(const TokenizerSpec& spec) {
    auto loaded = engine::Tokenizer::load(spec.path);
    if (loaded) return std::optional<engine::Tokenizer>(std::move(loaded.value()));
    if (spec.optional) return std::optional<engine::Tokenizer>();
    return loaded.error();
}

Result<std::unique_ptr<Backend>> build_one_remote(const RemoteSpec& spec,
                                                  const CancelToken& cancel) {
    RemoteProtocol protocol = spec.protocol;
    std::optional<engine::Tokenizer> tokenizer;
    if (spec.tokenizer.load == TokenizerSpec::Load::Always) {
        auto loaded = load_tokenizer(spec.tokenizer);
        if (!loaded) return loaded.error();
        tokenizer = std::move(loaded.value());
    } else if (spec.tokenizer.load == TokenizerSpec::Load::IfDetectedVllm &&
               protocol == RemoteProtocol::Auto) {
        // Asked here, not in make_remote_backend: the tokenizer is loaded only for vLLM.
        auto detected = detect_protocol(spec.options, cancel);
        if (!detected) return detected.error();
        if (*detected == RemoteProtocol::Vllm) {
            auto loaded = load_tokenizer(spec.tokenizer);
            if (!loaded) return loaded.error();
            tokenizer = std::move(loaded.value());
        }
        protocol = *detected;
    }
    if (protocol == RemoteProtocol::Vllm && !tokenizer && !spec.tokenizer.missing_error.empty())
        return engine::bad_input(spec.tokenizer.missing_error);
    return make_remote_backend(protocol, spec.options, tokenizer ? &*tokenizer : nullptr, cancel);
}

// One backend per URL behind a FailoverBackend. The protocol is detected once, on the first
// server that answers, so a server that is down when the backend is made does not stop it.
Result<std::unique_ptr<Backend>> build_remote(const RemoteSpec& spec, const CancelToken& cancel) {
    if (spec.more_urls.empty()) return build_one_remote(spec, cancel);
    std::vector<std::string> urls{spec.options.url};
    urls.insert(urls.end(), spec.more_urls.begin(), spec.more_urls.end());
    RemoteSpec each = spec;
    each.more_urls.clear();
    if (each.protocol == RemoteProtocol::Auto) {
        std::optional<engine::Error> failed;
        for (const auto& url : urls) {
            each.options.url = url;
            auto detected = detect_protocol(each.options, cancel);
            if (detected) {
                each.protocol = *detected;
                failed.reset();
                break;
            }
            failed = detected.error();
        }
        if (failed) return *failed;
        if (each.protocol == RemoteProtocol::Vllm &&
            each.tokenizer.load == TokenizerSpec::Load::IfDetectedVllm)
            each.tokenizer.load = TokenizerSpec::Load::Always;
    }
    std::vector<FailoverBackend::Server> servers;
    for (const auto& url : urls) {
        each.options.url = url;
        auto backend = build_one_remote(each, cancel);
        if (!backend) return backend.error();
        servers.push_back({url, std::shared_ptr<Backend>(std::move(backend.value()))});
    }
    return std::unique_ptr<Backend>(std::make_unique<FailoverBackend>(std::move(servers)));
}

}  // namespace

std::vector<std::string> split_url_list(const std::string& text) {
    std::vector<std::string> urls;
    std::string current;
    for (char c : text + ",") {
        if (c == ',' || c == ' ' || c == '\t' || c == '\n') {
            if (!current.empty()) urls.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    return urls;
}

Result<std::unique_ptr<Backend>> build_backend(const BackendSpec& spec, const CancelToken& cancel,
                                               const ProgressFn& progress) {
    if (const auto* local = std::get_if<LocalEngineSpec>(&spec.where))
        return build_local(*local, cancel, progress);
    return build_remote(std::get<RemoteSpec>(spec.where), cancel);
}

}  // namespace core
