// Where dgem and the Studio find their data. An installed program (the install rules in
// packaging/packaging.cmake) has it in <prefix>/share/decision-studio beside its <prefix>/bin,
// found from the running executable (/proc/self/exe), so an unpacked or relocated package reads
// its own copy. A program run from the build folder (build/bin: no build/share/decision-studio)
// reads the build tree's paths compiled in (DS_DEFAULT_MODEL_DIR, DS_TOKENIZER_JSON,
// DS_JEVBENCH_DIR, DS_SUITES_DIR).
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace app_paths {

// The folder of the running executable; empty when /proc/self/exe cannot be read.
inline std::filesystem::path executable_dir() {
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : exe.parent_path();
}

// <exe>/../share/decision-studio when that folder exists (an installed program), else empty.
inline std::filesystem::path installed_data_dir() {
    const std::filesystem::path bin = executable_dir();
    if (bin.empty()) return {};
    const std::filesystem::path share =
        (bin.parent_path() / "share" / "decision-studio").lexically_normal();
    std::error_code ec;
    return std::filesystem::is_directory(share, ec) ? share : std::filesystem::path();
}

// `relative` inside the installed data folder for an installed program, even where that file
// was not installed (so a message names the place to put it); `build_tree_path` otherwise.
inline std::string data_path(const std::string& relative, const std::string& build_tree_path) {
    const std::filesystem::path share = installed_data_dir();
    return share.empty() ? build_tree_path : (share / relative).string();
}

#ifdef DS_DEFAULT_MODEL_DIR
// The local engine's model folder when none is given: the demo model (trained on synthetic data
// for the shipped policies) once its weights are in models/demo, else the tiny model (installed
// only by packages built with DS_PACKAGE_TINY_MODEL=ON, with the tokenizer they need).
inline std::string default_model_dir() {
    return data_path(std::string("models/") + DS_DEFAULT_MODEL_NAME, DS_DEFAULT_MODEL_DIR);
}

// How help texts name that default: "the demo model" or "the tiny model".
inline std::string default_model_label() {
    return std::string("the ") + DS_DEFAULT_MODEL_NAME + " model";
}
#endif
#ifdef DS_TOKENIZER_JSON
// The Gemma tokenizer used when a model folder has none (installed with the tiny model).
inline std::string tokenizer_json() {
    return data_path("models/tokenizer/tokenizer.json", DS_TOKENIZER_JSON);
}
#endif
#ifdef DS_JEVBENCH_DIR
// JevBench's public items (jevbench_public.jsonl, manifest.lock.json, leaderboard_v14.json).
inline std::string jevbench_dir() {
    return data_path("jevbench", DS_JEVBENCH_DIR);
}
#endif
#ifdef DS_SUITES_DIR
// The shipped evaluation suites (resources/suites).
inline std::string suites_dir() {
    return data_path("suites", DS_SUITES_DIR);
}
#endif

}  // namespace app_paths
