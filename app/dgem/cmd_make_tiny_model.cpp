// dgem make-tiny-model: writes a small random DiffusionGemma model folder of the real
// architecture (the build's build/models/tiny, and the benchmarks' `small` preset).

#include <cstdlib>
#include <iostream>
#include <string>

#include "cli.h"
#include "data_paths.h"
#include "engine/tiny_model.h"

DGEM_COMMAND(make_tiny_model) {
    return cli::CommandSpec{
        "make-tiny-model",
        "write a small random DiffusionGemma model folder (tests, demos, benchmarks)",
        "dgem make-tiny-model --out DIR [--seed N] [--preset tiny|small] "
        "[--dtype f32|bf16|fp8|nvfp4] [--tokenizer FILE]",
        "Writes config.json, generation_config.json, model.safetensors and tokenizer.json of a\n"
        "DiffusionGemma with the real architecture at small sizes and deterministic random\n"
        "weights (same seed, same files). `tiny` has about 17M parameters, `small` about 114M.\n"
        "--dtype fp8 writes the compressed-tensors FP8 dynamic layout (F8_E4M3 weights, per-\n"
        "channel scales), nvfp4 the NVIDIA ModelOpt NVFP4 layout (packed E2M1, E4M3 block\n"
        "scales, global scale) of the published checkpoints; other tensors are bf16.",
        {{"out", 'o', "DIR", "the model folder to write (created if needed)"},
         {"seed", 0, "N", "random seed (default 0)"},
         {"preset", 0, "NAME", "tiny (default) or small"},
         {"dtype", 0, "TYPE", "f32 (default), bf16, fp8 or nvfp4"},
         {"tokenizer", 0, "FILE", "tokenizer.json to copy (default: the build's)"}},
        [](const cli::Args& args) -> int {
            engine::TinyModelOptions o;
            o.out_dir = args.get("out");
            if (o.out_dir.empty()) return cli::fail_bad_input("--out DIR is required");
            const std::string seed = args.get("seed", "0");
            char* end = nullptr;
            o.seed = std::strtoull(seed.c_str(), &end, 10);
            if (seed.empty() || *end != '\0' || seed[0] == '-')
                return cli::fail_bad_input("--seed " + seed + ": expected a non-negative integer");
            o.preset = args.get("preset", "tiny");
            o.dtype = args.get("dtype", "f32");
            o.tokenizer_json = args.get("tokenizer", app_paths::tokenizer_json());
            auto r = engine::write_tiny_model(o);
            if (!r) return cli::fail(r.error());
            std::cout << "wrote " << o.out_dir.string() << " (" << o.preset << ", " << r->parameters
                      << " parameters, " << r->bytes << " bytes)\n";
            return cli::kExitOk;
        }};
}
