// dgem tokenize: the local Gemma 4 tokenizer on the command line, for checking prompts and for
// scripts (`--jsonl` streams many texts through one loaded tokenizer).

#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "data_paths.h"
#include "engine/tokenizer.h"

namespace {

void print_ids(const std::vector<engine::TokenId>& ids) {
    std::string line;
    for (size_t i = 0; i < ids.size(); ++i) {
        if (i > 0) line.push_back(' ');
        line += std::to_string(ids[i]);
    }
    std::cout << line << '\n';
}

// Reads {"text": ...} per line from stdin and writes {"text": ..., "ids": [...]} per line.
int run_jsonl(const engine::Tokenizer& tok) {
    std::string line;
    for (size_t number = 1; std::getline(std::cin, line); ++number) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank line
        const auto in = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (in.is_discarded())
            return cli::fail_bad_input("stdin line " + std::to_string(number) + ": not valid JSON");
        if (!in.is_object() || !in.contains("text") || !in["text"].is_string())
            return cli::fail_bad_input("stdin line " + std::to_string(number) +
                                       ": expected an object with a string \"text\"");
        const auto& text = in["text"].get_ref<const std::string&>();
        const nlohmann::ordered_json out = {{"text", text}, {"ids", tok.encode(text)}};
        std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    }
    std::cout.flush();
    return cli::kExitOk;
}

}  // namespace

DGEM_COMMAND(tokenize) {
    return cli::CommandSpec{
        "tokenize",
        "print the token ids of a text (Gemma 4 tokenizer)",
        "dgem tokenize TEXT | dgem tokenize --jsonl < in.jsonl [--tokenizer FILE]",
        "Encodes TEXT with the local tokenizer and prints the ids on one line, separated by\n"
        "spaces. No <bos> is added; special tokens written in the text (<bos>, <|turn>, ...)\n"
        "become their ids. With --jsonl, reads lines {\"text\": ...} on stdin and writes\n"
        "{\"text\": ..., \"ids\": [...]} per line.",
        {{"jsonl", 0, "", "read {\"text\": ...} lines on stdin, write them back with \"ids\""},
         {"tokenizer", 0, "FILE", "tokenizer.json to use (default: the build's)"}},
        [](const cli::Args& args) -> int {
            const bool jsonl = args.has("jsonl");
            if (jsonl && !args.positional.empty())
                return cli::fail_bad_input("give either TEXT or --jsonl, not both");
            if (!jsonl && args.positional.size() != 1)
                return cli::fail_bad_input(
                    "expected one TEXT argument (quote it), or --jsonl to read stdin");
            auto tok = engine::Tokenizer::load(args.get("tokenizer", app_paths::tokenizer_json()));
            if (!tok) return cli::fail(tok.error());
            if (jsonl) return run_jsonl(*tok);
            print_ids(tok->encode(args.positional.front()));
            return cli::kExitOk;
        }};
}
