#pragma once
// Models found where people keep them: the Hugging Face cache (`$HF_HUB_CACHE`, `$HF_HOME/hub`
// or `~/.cache/huggingface/hub`, laid out as models--ORG--NAME/snapshots/REV/ with symlinks into
// blobs/) and folders a person added (a model folder, or a folder of model folders). For each
// candidate: its name and revision, the weight format, the size on disk, whether its files are
// complete (every shard the index lists present, no safetensors file shorter than its header
// says, no broken link), the engine's memory plan against this machine ("fits" / "does not fit:
// needs 53.90 GB, cuda:0 has 23.50 GB"), and whether it is the active one. Incomplete, broken and
// foreign folders carry the reason and are not choosable; nothing here opens a model or follows
// a broken link.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/model_plan.h"

namespace core::models {

enum class Source { HubCache, Folder };
std::string_view to_string(Source source);  // "hub", "folder"

enum class Status {
    Ready,       // complete DiffusionGemma checkpoint: choosable
    Incomplete,  // a shard missing or truncated, a broken link
    Foreign,     // config.json missing, unreadable or of another architecture
};
std::string_view to_string(Status status);  // "ready", "incomplete", "foreign"

struct ModelEntry {
    std::string name;      // "google/diffusiongemma-26B-A4B-it"; a folder's own name
    std::string revision;  // the snapshot's (hub); empty for folders
    std::filesystem::path dir;
    Source source = Source::Folder;
    Status status = Status::Ready;
    std::vector<std::string> problems;  // why it is not Ready, one line each
    std::string format;                 // "bf16", "fp8", "nvfp4"; empty when unknown
    uint64_t size_bytes = 0;            // the files' bytes (links followed; broken ones skipped)
    std::optional<engine::ModelMemoryPlan> plan;
    bool fits = false;
    std::string fit;  // "fits in host memory (needs 0.29 GB of 12.10 GB)", "does not fit: ..."
    bool active = false;

    bool choosable() const { return status == Status::Ready; }
};

// What this machine has for the plans to fit into.
struct MachineMemory {
    uint64_t host_bytes = 0;                    // available host memory
    std::vector<engine::DeviceMemory> devices;  // CUDA devices' free memory
    static MachineMemory current();             // /proc/meminfo and the CUDA devices
};

struct ScanOptions {
    std::vector<std::filesystem::path> hub_dirs;  // hub caches (default_hub_dir() when empty)
    std::vector<std::filesystem::path> folders;   // added: a model folder or a folder of them
    std::filesystem::path active;                 // the active model's folder (may be empty)
    MachineMemory machine;
};

// $HF_HUB_CACHE, else $HF_HOME/hub, else $HOME/.cache/huggingface/hub (whether or not it exists).
std::filesystem::path default_hub_dir();

// Every candidate: hub snapshots (newest modification first within a repository), the folders'
// models, then the active folder when it is none of those; each once (a folder reached twice is
// listed once).
std::vector<ModelEntry> scan_models(const ScanOptions& options);

// One folder's entry (name: the folder's name), checked as scan_models checks every candidate.
ModelEntry inspect_model(const std::filesystem::path& dir, const MachineMemory& machine);

// The files check alone: one line per problem (empty: complete).
std::vector<std::string> check_files(const std::filesystem::path& dir);

}  // namespace core::models
