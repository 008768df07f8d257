// From dgem's flags to a core::BackendSpec: --local here, the remote side in remote_factory.cpp;
// core::build_backend makes the Backend.
#include "backend_factory.h"

#include "data_paths.h"
#include "engine/engine.h"
#include "remote_factory.h"

namespace dgem {

std::vector<cli::OptionSpec> local_engine_options() {
    return {
        {"device", 0, "DEVICE", "local engine device: auto (CUDA when present), cpu or cuda"},
        {"threads", 0, "N", "local engine CPU threads (default: all)"},
        {"nvfp4-inputs", 0, "MODE",
         "NVFP4 checkpoints on a GPU with FP4 tensor cores (RTX 50xx, RTX PRO Blackwell): bf16 "
         "(default: the weights' inputs stay bf16) or fp4 (quantised to NVFP4 per token, on the "
         "FP4 tensor cores: faster, less exact)"},
        {"cpu-precision", 0, "MODE",
         "how the CPU holds the weights: f32 (every weight converted to f32: the exact path, 4 "
         "bytes a parameter), bf16 (as published, bf16/FP8/NVFP4 read in place from the file, "
         "bf16 products: probabilities within 2e-2) or auto (default: f32 when it fits the "
         "memory, else bf16)"},
        {"prefix-cache-mb", 0, "MB",
         "memory for encoded prompts that later reads beginning with them reuse (default: 256 on "
         "the CPU, 0 on CUDA; 0: off)"},
    };
}

std::vector<cli::OptionSpec> endpoint_options() {
    std::vector<cli::OptionSpec> options;
    for (auto o : cli::backend_options()) {
        if (o.long_name == "model")
            o.help =
                "with --local: the model folder (default: " + app_paths::default_model_label() +
                "); else the model name sent to the server";
        options.push_back(o);
    }
    for (auto& o : local_engine_options()) options.push_back(o);
    return options;
}

engine::Result<core::LocalEngineSpec> local_engine_spec(const cli::Args& args) {
    core::LocalEngineSpec spec;
    spec.model_dir = args.get("model", app_paths::default_model_dir());
    const std::string device = args.get("device", "auto");
    if (device == "auto")
        spec.device = core::EngineDevice::Auto;
    else if (device == "cpu")
        spec.device = core::EngineDevice::Cpu;
    else if (device == "cuda")
        spec.device = core::EngineDevice::Cuda;
    else
        return engine::bad_input("--device " + device + ": accepted: auto, cpu or cuda");
    if (auto threads = args.find("threads")) {
        try {
            size_t used = 0;
            spec.threads = std::stoi(*threads, &used);
            if (used != threads->size() || spec.threads < 0) throw std::invalid_argument("");
        } catch (const std::exception&) {
            return engine::bad_input("--threads " + *threads + ": accepted: a count, 0 for all");
        }
    }
    const std::string inputs = args.get("nvfp4-inputs", "bf16");
    if (inputs != "bf16" && inputs != "fp4")
        return engine::bad_input("--nvfp4-inputs " + inputs + ": accepted: bf16 or fp4");
    spec.nvfp4_fp4_inputs = inputs == "fp4";
    spec.cpu_precision = args.get("cpu-precision", "auto");
    if (!engine::parse_cpu_precision(spec.cpu_precision))
        return engine::bad_input("--cpu-precision " + spec.cpu_precision +
                                 ": accepted: auto, f32 or bf16");
    if (auto mb = args.find("prefix-cache-mb")) {
        try {
            size_t used = 0;
            const long long value = std::stoll(*mb, &used);
            if (used != mb->size() || value < 0 || value > (1ll << 30))
                throw std::invalid_argument("");
            spec.prefix_cache_bytes = static_cast<int64_t>(value) << 20;
        } catch (const std::exception&) {
            return engine::bad_input("--prefix-cache-mb " + *mb +
                                     ": accepted: megabytes, 0 to turn the cache off");
        }
    }
    return spec;
}

engine::Result<engine::EngineOptions> local_engine_settings(const cli::Args& args) {
    auto spec = local_engine_spec(args);
    if (!spec) return spec.error();
    return core::engine_options(*spec);
}

engine::Result<core::BackendSpec> backend_spec(const cli::Args& args) {
    if (args.has("local")) {
        // The server settings do not apply, but a --config that names no file is still wrong.
        if (auto file = args.find("config"))
            if (auto single = core::ConfigPaths::single(*file); !single) return single.error();
        auto spec = local_engine_spec(args);
        if (!spec) return spec.error();
        return core::BackendSpec{*spec};
    }
    return remote_spec(args);  // remote_factory.h: -u/--url, DGEM_URL, config files
}

engine::Result<std::unique_ptr<core::Backend>> make_backend(const cli::Args& args) {
    auto spec = backend_spec(args);
    if (!spec) return spec.error();
    return core::build_backend(*spec);
}

}  // namespace dgem
