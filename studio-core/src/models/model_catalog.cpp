// Models found on this machine (core/models/model_catalog.h).
#include "core/models/model_catalog.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <variant>

#include <nlohmann/json.hpp>

namespace core::models {

namespace fs = std::filesystem;

namespace {

constexpr const char* kIndex = "model.safetensors.index.json";
constexpr const char* kSingle = "model.safetensors";
// A safetensors header larger than this is not a header (the largest real ones are a few MB).
constexpr uint64_t kMaxHeader = 100ull << 20;

std::string relative_name(const fs::path& file, const fs::path& dir) {
    std::error_code ec;
    const fs::path rel = fs::relative(file, dir, ec);
    return ec ? file.filename().string() : rel.generic_string();
}

// "<file>: truncated: 1048576 of 69481856 bytes" when the file is shorter than its header says.
std::optional<std::string> check_safetensors(const fs::path& file, const fs::path& dir) {
    const std::string name = relative_name(file, dir);
    std::error_code ec;
    const uint64_t size = fs::file_size(file, ec);
    if (ec) return name + ": cannot be read (" + ec.message() + ")";
    std::ifstream in(file, std::ios::binary);
    unsigned char len[8] = {};
    if (size < 8 || !in.read(reinterpret_cast<char*>(len), 8))
        return name + ": truncated: " + std::to_string(size) + " bytes, not even a header";
    uint64_t header = 0;
    for (int i = 7; i >= 0; --i) header = header << 8 | len[i];
    if (header > kMaxHeader)
        return name + ": not a safetensors file (header length " + std::to_string(header) + ")";
    if (8 + header > size)
        return name + ": truncated: " + std::to_string(size) + " bytes, shorter than its header";
    std::string text(header, '\0');
    if (!in.read(text.data(), static_cast<std::streamsize>(header)))
        return name + ": cannot be read";
    const auto json = nlohmann::json::parse(text, nullptr, false);
    if (!json.is_object()) return name + ": not a safetensors file (its header is not JSON)";
    uint64_t end = 0;
    for (const auto& [key, tensor] : json.items()) {
        if (key == "__metadata__" || !tensor.is_object()) continue;
        const auto& offsets = tensor.value("data_offsets", nlohmann::json::array());
        if (offsets.is_array() && offsets.size() == 2 && offsets[1].is_number_unsigned())
            end = std::max(end, offsets[1].get<uint64_t>());
    }
    const uint64_t expected = 8 + header + end;
    if (size < expected)
        return name + ": truncated: " + std::to_string(size) + " of " + std::to_string(expected) +
               " bytes";
    if (size > expected)
        return name + ": " + std::to_string(size) + " bytes, but its header describes " +
               std::to_string(expected);
    return std::nullopt;
}

// Shards the index lists (its weight_map's files), or an error line.
std::variant<std::set<std::string>, std::string> index_shards(const fs::path& index) {
    std::ifstream in(index, std::ios::binary);
    const auto json = nlohmann::json::parse(in, nullptr, false);
    if (!json.is_object() || !json.contains("weight_map") || !json["weight_map"].is_object())
        return std::string(kIndex) + ": no weight_map (not a safetensors index)";
    std::set<std::string> shards;
    for (const auto& [tensor, file] : json["weight_map"].items())
        if (file.is_string()) shards.insert(file.get<std::string>());
    return shards;
}

uint64_t size_on_disk(const fs::path& dir) {
    uint64_t total = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
        std::error_code e;
        if (fs::is_regular_file(it->path(), e)) total += fs::file_size(it->path(), e);
    }
    return total;
}

bool is_model_dir(const fs::path& dir) {
    std::error_code ec;
    return fs::exists(fs::symlink_status(dir / "config.json", ec)) ||
           fs::exists(fs::symlink_status(dir / kSingle, ec)) ||
           fs::exists(fs::symlink_status(dir / kIndex, ec));
}

std::string gb(uint64_t bytes) {
    return engine::format_gigabytes(bytes);
}

// Where the plan fits: a CUDA device first (Engine::open's Auto prefers one), then host memory.
void judge_fit(ModelEntry& e, const MachineMemory& m) {
    if (!e.plan) return;
    const auto& p = *e.plan;
    if (p.cuda_bytes > 0)
        for (const auto& d : m.devices)
            if (p.cuda_bytes <= d.free_bytes) {
                e.fits = true;
                e.fit = "fits on " + d.name + " (needs " + gb(p.cuda_bytes) + ", " +
                        gb(d.free_bytes) + " free)";
                return;
            }
    if (m.host_bytes > 0 && p.host_bytes <= m.host_bytes) {
        e.fits = true;
        e.fit = "fits in host memory (needs " + gb(p.host_bytes) + ", " + gb(m.host_bytes) +
                " available)";
        return;
    }
    e.fits = false;
    e.fit = "does not fit: needs " + gb(p.host_bytes) + ", host memory has " +
            (m.host_bytes ? gb(m.host_bytes) : std::string("an unknown amount"));
    if (p.cuda_bytes > 0)
        for (const auto& d : m.devices)
            e.fit += "; needs " + gb(p.cuda_bytes) + ", " + d.name + " has " + gb(d.free_bytes);
}

void add_hub(const fs::path& hub, std::vector<ModelEntry>& out, const MachineMemory& m) {
    std::error_code ec;
    std::vector<fs::path> repos;
    for (const auto& entry : fs::directory_iterator(hub, ec))
        if (entry.path().filename().string().rfind("models--", 0) == 0)
            repos.push_back(entry.path());
    std::sort(repos.begin(), repos.end());
    for (const auto& repo : repos) {
        std::string name = repo.filename().string().substr(8);
        for (size_t at; (at = name.find("--")) != std::string::npos;) name.replace(at, 2, "/");
        std::vector<fs::path> snapshots;
        for (const auto& s : fs::directory_iterator(repo / "snapshots", ec))
            if (s.is_directory()) snapshots.push_back(s.path());
        // Newest first.
        std::sort(snapshots.begin(), snapshots.end(), [](const fs::path& a, const fs::path& b) {
            std::error_code e1, e2;
            const auto ta = fs::last_write_time(a, e1), tb = fs::last_write_time(b, e2);
            return ta != tb ? ta > tb : a < b;
        });
        for (const auto& snap : snapshots) {
            ModelEntry e = inspect_model(snap, m);
            e.name = name;
            e.revision = snap.filename().string();
            e.source = Source::HubCache;
            out.push_back(std::move(e));
        }
    }
}

}  // namespace

std::string_view to_string(Source source) {
    return source == Source::HubCache ? "hub" : "folder";
}

std::string_view to_string(Status status) {
    switch (status) {
        case Status::Ready:
            return "ready";
        case Status::Incomplete:
            return "incomplete";
        case Status::Foreign:
            return "foreign";
    }
    return "foreign";
}

MachineMemory MachineMemory::current() {
    return {engine::host_available_memory(), engine::cuda_device_memory()};
}

fs::path default_hub_dir() {
    if (const char* v = std::getenv("HF_HUB_CACHE"); v && *v) return v;
    if (const char* v = std::getenv("HF_HOME"); v && *v) return fs::path(v) / "hub";
    const char* home = std::getenv("HOME");
    return fs::path(home ? home : "") / ".cache" / "huggingface" / "hub";
}

std::vector<std::string> check_files(const fs::path& dir) {
    std::vector<std::string> problems;
    std::error_code ec;
    // Broken links first: reported, never followed.
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
        std::error_code e;
        if (!it->is_symlink(e) || fs::exists(it->path(), e)) continue;
        problems.push_back(relative_name(it->path(), dir) + ": broken link (to " +
                           fs::read_symlink(it->path(), e).generic_string() + ")");
    }
    const auto present = [](const fs::path& p) {
        std::error_code e;
        return fs::exists(p, e);
    };
    const auto dangling = [](const fs::path& p) {
        std::error_code e;
        return fs::is_symlink(p, e) && !fs::exists(p, e);
    };
    if (present(dir / kIndex)) {
        const auto shards = index_shards(dir / kIndex);
        if (const auto* error = std::get_if<std::string>(&shards)) {
            problems.push_back(*error);
            return problems;
        }
        for (const auto& shard : std::get<std::set<std::string>>(shards)) {
            if (dangling(dir / shard)) continue;  // said above
            if (!present(dir / shard))
                problems.push_back(shard + ": missing (listed in " + kIndex + ")");
            else if (auto bad = check_safetensors(dir / shard, dir))
                problems.push_back(*bad);
        }
    } else if (present(dir / kSingle)) {
        if (auto bad = check_safetensors(dir / kSingle, dir)) problems.push_back(*bad);
    } else if (!dangling(dir / kSingle) && !dangling(dir / kIndex)) {
        problems.push_back(std::string("no weights: neither ") + kSingle + " nor " + kIndex);
    }
    return problems;
}

ModelEntry inspect_model(const fs::path& dir, const MachineMemory& machine) {
    ModelEntry e;
    e.dir = dir;
    e.name = dir.filename().string();
    e.problems = check_files(dir);
    e.size_bytes = size_on_disk(dir);
    std::error_code ec;
    const bool config_link_broken =
        fs::is_symlink(dir / "config.json", ec) && !fs::exists(dir / "config.json", ec);
    if (auto plan = engine::plan_model_memory(dir); plan) {
        e.plan = plan.value();
        e.format = e.plan->format;
    } else if (!config_link_broken) {
        // Missing, unreadable or another architecture: the engine's own words.
        e.problems.insert(e.problems.begin(), plan.error().message);
        e.status = Status::Foreign;
    }
    if (e.status != Status::Foreign && !e.problems.empty()) e.status = Status::Incomplete;
    judge_fit(e, machine);
    return e;
}

std::vector<ModelEntry> scan_models(const ScanOptions& options) {
    std::vector<ModelEntry> out;
    const std::vector<fs::path> hubs =
        options.hub_dirs.empty() ? std::vector<fs::path>{default_hub_dir()} : options.hub_dirs;
    for (const auto& hub : hubs) add_hub(hub, out, options.machine);
    for (const auto& folder : options.folders) {
        std::error_code ec;
        if (is_model_dir(folder)) {
            out.push_back(inspect_model(folder, options.machine));
            continue;
        }
        add_hub(folder, out, options.machine);  // a hub cache added as a folder
        std::vector<fs::path> inside;
        for (const auto& entry : fs::directory_iterator(folder, ec))
            if (entry.is_directory() && is_model_dir(entry.path())) inside.push_back(entry.path());
        std::sort(inside.begin(), inside.end());
        for (const auto& dir : inside) out.push_back(inspect_model(dir, options.machine));
    }
    // The active model is listed wherever it lives (the build's own tiny model, say).
    std::error_code active_ec;
    if (!options.active.empty() && fs::is_directory(options.active, active_ec))
        out.push_back(inspect_model(options.active, options.machine));
    // Each folder once; the active one marked.
    std::set<fs::path> seen;
    std::vector<ModelEntry> unique;
    for (auto& e : out) {
        std::error_code ec;
        const fs::path key = fs::weakly_canonical(e.dir, ec);
        if (!seen.insert(ec ? e.dir : key).second) continue;
        std::error_code same;
        e.active = !options.active.empty() && fs::equivalent(e.dir, options.active, same) && !same;
        unique.push_back(std::move(e));
    }
    return unique;
}

}  // namespace core::models
