// bench-cuda_decide: the CUDA backend at a config's real shapes with random weights made on the
// device, in bf16 or packed FP8 / NVFP4 (--format; the floor is then that format's weight bytes).
// Prints decision latency (512-token prompt, 3 questions, 4 draws, one sweep) and generation speed,
// each against the floor "weight bytes / measured device copy bandwidth" measured in the same run.
// Without a GPU (or without the CUDA backend) it says so and exits 0.
//
//   bench-cuda_decide [--config FILE] [--format bf16|fp8|nvfp4] [--prompt N] [--draws N]
//                     [--questions N] [--json FILE]
//   bench-cuda_decide --dump-slots MODEL_DIR --json FILE   (slot read for cross-checks)

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include "engine/engine.h"
#include "engine/gpu_bench.h"

namespace {

int usage() {
    std::fprintf(
        stderr,
        "usage: bench-cuda_decide [--config FILE] [--format bf16|fp8|nvfp4] [--nvfp4-inputs "
        "bf16|fp4] [--prompt N] [--draws N] [--questions N] [--json FILE] | --dump-slots "
        "MODEL_DIR --json FILE\n");
    return 2;
}

bool write_file(const std::string& path, const std::string& text) {
    std::ofstream f(path);
    f << text << "\n";
    return static_cast<bool>(f);
}

// A fixed slot read on a model folder: the MODEL-SPEC prompt, two rows of 32 seeded ids.
int dump(const std::string& model_dir, const std::string& json_path) {
    engine::gpu_bench::SlotDumpRequest req;
    req.model_dir = model_dir;
    req.prompt = {2,   105, 2364, 107,  11355, 563, 506,   7217, 3730, 236881,
                  106, 107, 105,  4368, 107,   100, 45518, 107,  101};
    req.width = 32;
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> any(0, 262143);
    for (int r = 0; r < 2; ++r) {
        std::vector<engine::TokenId> row(32);
        for (auto& id : row) id = any(rng);
        req.rows.push_back(row);
    }
    req.slot_positions = {4, 12, 25};
    for (size_t s = 0; s < req.slot_positions.size(); ++s)
        req.labels.push_back({any(rng), any(rng), any(rng)});
    auto out = engine::gpu_bench::dump_slots(req);
    if (!out) {
        std::fprintf(stderr, "bench-cuda_decide: %s\n", out.error().message.c_str());
        return 4;
    }
    // The request travels with the answer so the other side reads the same thing.
    std::string text = "{\"request\":{\"prompt\":[";
    for (size_t i = 0; i < req.prompt.size(); ++i)
        text += (i ? "," : "") + std::to_string(req.prompt[i]);
    text += "],\"rows\":[";
    for (size_t r = 0; r < req.rows.size(); ++r) {
        text += r ? ",[" : "[";
        for (size_t i = 0; i < req.rows[r].size(); ++i)
            text += (i ? "," : "") + std::to_string(req.rows[r][i]);
        text += "]";
    }
    text += "],\"slots\":[4,12,25],\"labels\":[";
    for (size_t s = 0; s < req.labels.size(); ++s) {
        text += s ? ",[" : "[";
        for (size_t i = 0; i < req.labels[s].size(); ++i)
            text += (i ? "," : "") + std::to_string(req.labels[s][i]);
        text += "]";
    }
    text += "]},\"result\":" + out.value() + "}";
    if (!write_file(json_path, text)) {
        std::fprintf(stderr, "bench-cuda_decide: cannot write %s\n", json_path.c_str());
        return 2;
    }
    std::printf("slot dump written to %s\n", json_path.c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    engine::gpu_bench::Options o;
    o.config_json = std::string(DS_SOURCE_DIR) + "/scripts/gpu/diffusiongemma-26b-a4b.config.json";
    std::string json_path, dump_dir;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--config" && has_value)
            o.config_json = argv[++i];
        else if (a == "--prompt" && has_value)
            o.prompt_tokens = std::atoi(argv[++i]);
        else if (a == "--draws" && has_value)
            o.draws = std::atoi(argv[++i]);
        else if (a == "--questions" && has_value)
            o.questions = std::atoi(argv[++i]);
        else if (a == "--format" && has_value) {
            o.format = argv[++i];
            if (o.format != "bf16" && o.format != "fp8" && o.format != "nvfp4") {
                std::fprintf(stderr,
                             "bench-cuda_decide: unknown --format %s (accepted: bf16, "
                             "fp8, nvfp4)\n",
                             o.format.c_str());
                return 2;
            }
        } else if (a == "--nvfp4-inputs" && has_value) {
            const std::string inputs = argv[++i];
            if (inputs != "bf16" && inputs != "fp4") {
                std::fprintf(stderr,
                             "bench-cuda_decide: unknown --nvfp4-inputs %s (accepted: bf16, fp4)\n",
                             inputs.c_str());
                return 2;
            }
            o.nvfp4_fp4_inputs = inputs == "fp4";
        } else if (a == "--json" && has_value)
            json_path = argv[++i];
        else if (a == "--dump-slots" && has_value)
            dump_dir = argv[++i];
        else
            return usage();
    }
    if (!engine::gpu_bench::compiled()) {
        std::printf("bench-cuda_decide: SKIPPED: this build has no CUDA backend\n");
        return 0;
    }
    if (!engine::cuda_available()) {
        std::printf("bench-cuda_decide: SKIPPED: no CUDA device on this machine\n");
        return 0;
    }
    if (!dump_dir.empty()) return json_path.empty() ? usage() : dump(dump_dir, json_path);

    auto r = engine::gpu_bench::run(o);
    if (!r) {
        std::fprintf(stderr, "bench-cuda_decide: %s\n", r.error().message.c_str());
        return 4;
    }
    const auto& v = r.value();
    std::printf("device            %s\n", v.device.c_str());
    std::printf("format            %s\n", v.format.c_str());
    std::printf("weights read      %.2f GiB per pass (all experts, %s)\n", v.weight_gib,
                v.format.c_str());
    std::printf("copy bandwidth    %.0f GB/s (cudaMemcpy D2D, read+write)\n", v.copy_gb_per_s);
    std::printf("floor             %.2f ms per weight sweep\n", v.floor_ms);
    std::printf(
        "decision          %.2f ms median, %.2f ms best (%d-token prompt, %d questions, "
        "%d draws) = %.2fx the floor\n",
        v.decision_ms, v.decision_min_ms, o.prompt_tokens, o.questions, o.draws,
        v.decision_ms / v.floor_ms);
    std::printf("prompt encode     %.2f ms\n", v.encode_ms);
    std::printf("generation step   %.2f ms median (decode + full logits) = %.2fx the floor\n",
                v.gen_step_ms, v.gen_step_ms / v.floor_ms);
    std::printf("generation        %.1f tokens/s (%d tokens, %d steps)\n", v.gen_tokens_per_s,
                o.gen_width, o.max_steps);
    if (!json_path.empty()) {
        char buf[512];
        std::snprintf(
            buf, sizeof buf,
            "{\"device\":\"%s\",\"format\":\"%s\",\"weight_gib\":%.3f,\"copy_gb_per_s\":%.1f,"
            "\"floor_ms\":%.3f,\"decision_ms\":%.3f,\"decision_min_ms\":%.3f,"
            "\"encode_ms\":%.3f,\"gen_step_ms\":%.3f,\"gen_tokens_per_s\":%.2f}",
            v.device.c_str(), v.format.c_str(), v.weight_gib, v.copy_gb_per_s, v.floor_ms,
            v.decision_ms, v.decision_min_ms, v.encode_ms, v.gen_step_ms, v.gen_tokens_per_s);
        if (!write_file(json_path, buf)) return 2;
    }
    return 0;
}
