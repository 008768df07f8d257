#pragma once
// A Hugging Face hub cache made from the tiny model, laid out as the hub lays it out
// (models--ORG--NAME/{blobs,refs,snapshots/REV}, the snapshot's files symlinks into blobs/):
//   models--google--diffusiongemma-tiny  snapshot "complete0001": every file present;
//                                        snapshot "missing00002": sharded, its index lists
//                                        model-00002-of-00002.safetensors, which is absent;
//                                        snapshot "brokenlink03": model.safetensors links to a
//                                        blob that is not there;
//   models--meta--llama-foreign          snapshot "foreign00004": a config of another
//                                        architecture;
// and, outside the hub, a folder of model folders with "truncated" (a model.safetensors cut
// short). The Models tests (core and ui) read it.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace fake_hf {

namespace fs = std::filesystem;

inline const fs::path kTiny = DS_TINY_MODEL_DIR;

struct Cache {
    fs::path hub, folders;
    fs::path repo() const { return hub / "models--google--diffusiongemma-tiny"; }
    fs::path complete() const { return repo() / "snapshots" / "complete0001"; }
    fs::path missing_shard() const { return repo() / "snapshots" / "missing00002"; }
    fs::path broken_link() const { return repo() / "snapshots" / "brokenlink03"; }
    fs::path foreign() const {
        return hub / "models--meta--llama-foreign" / "snapshots" / "foreign00004";
    }
    fs::path truncated() const { return folders / "truncated"; }
};

// A blob named after the file (the hub names blobs by hash; any name will do for the layout).
inline fs::path blob(const fs::path& repo, const std::string& name, const QByteArray& bytes) {
    fs::create_directories(repo / "blobs");
    const fs::path at = repo / "blobs" / ("sha-" + name);
    QFile f(QString::fromStdString(at.string()));
    f.open(QIODevice::WriteOnly);
    f.write(bytes);
    return at;
}

inline QByteArray read(const fs::path& p) {
    QFile f(QString::fromStdString(p.string()));
    f.open(QIODevice::ReadOnly);
    return f.readAll();
}

inline void link(const fs::path& snapshot, const std::string& name, const fs::path& target) {
    fs::create_directories(snapshot);
    fs::create_symlink(fs::relative(target, snapshot), snapshot / name);
}

// The tensor names of the tiny model's header.
inline std::vector<std::string> tensors() {
    const QByteArray bytes = read(kTiny / "model.safetensors");
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = n << 8 | static_cast<unsigned char>(bytes[i]);
    const auto header = nlohmann::json::parse(bytes.mid(8, static_cast<int>(n)).toStdString());
    std::vector<std::string> out;
    for (const auto& [k, v] : header.items())
        if (k != "__metadata__") out.push_back(k);
    return out;
}

inline Cache make(const fs::path& root) {
    Cache c{root / "hub", root / "models"};
    const fs::path repo = c.repo();
    const fs::path config = blob(repo, "config", read(kTiny / "config.json"));
    const fs::path generation = blob(repo, "generation", read(kTiny / "generation_config.json"));
    const fs::path weights = blob(repo, "weights", read(kTiny / "model.safetensors"));
    const fs::path tokenizer = blob(repo, "tokenizer", read(kTiny / "tokenizer.json"));
    fs::create_directories(repo / "refs");
    QFile ref(QString::fromStdString((repo / "refs" / "main").string()));
    ref.open(QIODevice::WriteOnly);
    ref.write("complete0001");
    ref.close();
    for (const auto& snap : {c.complete(), c.missing_shard(), c.broken_link()}) {
        link(snap, "config.json", config);
        link(snap, "generation_config.json", generation);
        link(snap, "tokenizer.json", tokenizer);
    }
    link(c.complete(), "model.safetensors", weights);
    // Sharded: the first shard is the real file, the index puts one tensor in a second shard.
    nlohmann::json index = {{"metadata", {{"total_size", 0}}},
                            {"weight_map", nlohmann::json::object()}};
    const auto names = tensors();
    for (size_t i = 0; i < names.size(); ++i)
        index["weight_map"][names[i]] = i + 1 == names.size() ? "model-00002-of-00002.safetensors"
                                                              : "model-00001-of-00002.safetensors";
    link(c.missing_shard(), "model-00001-of-00002.safetensors", weights);
    link(c.missing_shard(), "model.safetensors.index.json",
         blob(repo, "index", QByteArray::fromStdString(index.dump(2))));
    link(c.broken_link(), "model.safetensors", repo / "blobs" / "sha-not-downloaded");
    // Another architecture.
    const fs::path foreign_repo = c.hub / "models--meta--llama-foreign";
    link(c.foreign(), "config.json",
         blob(foreign_repo, "config",
              R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama"})"));
    link(c.foreign(), "model.safetensors",
         blob(foreign_repo, "weights", read(kTiny / "model.safetensors")));
    // A folder of folders: one whose weights were cut short.
    fs::create_directories(c.truncated());
    for (const char* name : {"config.json", "generation_config.json"})
        fs::copy_file(kTiny / name, c.truncated() / name);
    QFile cut(QString::fromStdString((c.truncated() / "model.safetensors").string()));
    cut.open(QIODevice::WriteOnly);
    cut.write(read(kTiny / "model.safetensors").left(1 << 20));
    return c;
}

}  // namespace fake_hf
