#pragma once
// The tiny model a suite reads through the real loader: the real writer's default (f32)
// checkpoint with the build's tokenizer (DS_TOKENIZER_JSON), so prompts and labels are real ids.

#include <filesystem>
#include <string>

#include "engine/tiny_model.h"

// Writes the tiny model of `seed` into `dir`; returns what went wrong, or "" when it is there.
inline std::string write_suite_tiny_model(const std::filesystem::path& dir, uint64_t seed) {
    if (!std::filesystem::exists(DS_TOKENIZER_JSON))
        return "the build's tokenizer.json is missing (scripts/prepare-tokenizer.sh)";
    engine::TinyModelOptions o;
    o.out_dir = dir;
    o.seed = seed;
    o.tokenizer_json = DS_TOKENIZER_JSON;
    auto written = engine::write_tiny_model(o);
    return written ? std::string() : written.error().message;
}
