// dgem models list: the DiffusionGemma checkpoints on this machine (the Hugging Face cache and
// folders given with --folder), each with its format, size on disk, whether its files are
// complete, whether the engine's memory plan fits this machine, and which one dgem --local opens.

#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "core/models.h"
#include "data_paths.h"

namespace {

namespace models = core::models;

std::string shown_name(const models::ModelEntry& e) {
    return e.revision.empty() ? e.name : e.name + "@" + e.revision.substr(0, 12);
}

nlohmann::ordered_json to_json(const models::ModelEntry& e) {
    nlohmann::ordered_json j = {{"name", e.name},
                                {"revision", e.revision},
                                {"dir", e.dir.string()},
                                {"source", models::to_string(e.source)},
                                {"status", models::to_string(e.status)},
                                {"choosable", e.choosable()},
                                {"problems", e.problems},
                                {"format", e.format},
                                {"size_bytes", e.size_bytes},
                                {"fits", e.fits},
                                {"fit", e.fit},
                                {"active", e.active}};
    if (e.plan) {
        j["plan"] = {{"host_bytes", e.plan->host_bytes}, {"host", e.plan->host_plan}};
        if (e.plan->cuda_bytes) {
            j["plan"]["cuda_bytes"] = e.plan->cuda_bytes;
            j["plan"]["cuda"] = e.plan->cuda_plan;
        }
    }
    return j;
}

void print_text(const std::vector<models::ModelEntry>& found, const models::ScanOptions& options) {
    std::cout << "host memory available: " << engine::format_gigabytes(options.machine.host_bytes)
              << '\n';
    for (const auto& d : options.machine.devices)
        std::cout << d.name << ": " << engine::format_gigabytes(d.free_bytes) << " free of "
                  << engine::format_gigabytes(d.total_bytes) << '\n';
    if (found.empty()) {
        std::cout << "no models found (looked in";
        for (const auto& h : options.hub_dirs) std::cout << ' ' << h.string();
        for (const auto& f : options.folders) std::cout << ' ' << f.string();
        std::cout << ")\n";
        return;
    }
    for (const auto& e : found) {
        std::cout << '\n'
                  << (e.active ? "* " : "  ") << shown_name(e) << "  ["
                  << models::to_string(e.status) << "]" << (e.active ? "  (active)" : "") << '\n'
                  << "    " << e.dir.string() << '\n'
                  << "    " << (e.format.empty() ? "format unknown" : e.format) << ", "
                  << engine::format_gigabytes(e.size_bytes) << " on disk";
        if (!e.fit.empty()) std::cout << ", " << e.fit;
        std::cout << '\n';
        for (const auto& p : e.problems) std::cout << "    - " << p << '\n';
    }
}

}  // namespace

DGEM_COMMAND(models) {
    return cli::CommandSpec{
        "models",
        "list the DiffusionGemma checkpoints on this machine and whether they fit",
        "dgem models list [--hub DIR ...] [--folder DIR ...] [--json]",
        "Lists every model folder found in the Hugging Face cache ($HF_HUB_CACHE, $HF_HOME/hub\n"
        "or ~/.cache/huggingface/hub; --hub replaces it) and in each --folder (a model folder or\n"
        "a folder of them): its name and revision, weight format (bf16, fp8, nvfp4), size on\n"
        "disk, whether its files are complete (every shard of the index present, none shorter\n"
        "than its header says, no broken link), the engine's memory plan against this machine,\n"
        "and which one `dgem --local` opens (marked *). Incomplete and foreign folders are listed\n"
        "with the reason and cannot be opened.",
        {{"hub", 0, "DIR", "a Hugging Face hub cache (default: the standard one)", true},
         {"folder", 0, "DIR", "a model folder, or a folder of model folders", true},
         {"json", 0, "", "print a JSON array instead of text"}},
        [](const cli::Args& args) -> int {
            if (args.positional.size() != 1 || args.positional[0] != "list")
                return cli::fail_bad_input("expected `dgem models list` (the one action)");
            models::ScanOptions options;
            for (const auto& h : args.all("hub")) options.hub_dirs.emplace_back(h);
            if (options.hub_dirs.empty()) options.hub_dirs.push_back(models::default_hub_dir());
            for (const auto& f : args.all("folder")) {
                std::error_code ec;
                if (!std::filesystem::is_directory(f, ec))
                    return cli::fail_bad_input("--folder " + f + ": not a folder");
                options.folders.emplace_back(f);
            }
            options.active = app_paths::default_model_dir();
            options.machine = models::MachineMemory::current();
            const auto found = models::scan_models(options);
            if (args.has("json")) {
                nlohmann::ordered_json out = nlohmann::ordered_json::array();
                for (const auto& e : found) out.push_back(to_json(e));
                std::cout << out.dump(2) << '\n';
            } else {
                print_text(found, options);
            }
            return cli::kExitOk;
        }};
}
