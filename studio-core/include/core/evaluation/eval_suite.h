#pragma once
// Evaluation suites: a list of items, each a schema + state (already rendered from a policy
// template or built from a JevBench item), with the expected answer per question and metadata.
// Loaders for JevBench JSONL (one-question schemas, labels in the item's presentation order) and
// for dgem's suite format ({"id","domain","template","variables","expected","tier"} per line).
// Every error is engine::ErrorKind::BadInput and names the file, the line and the field.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/images/images.h"
#include "core/policy/schema.h"
#include "engine/result.h"

namespace core::eval {

using engine::Error;
using engine::Result;

enum class SuiteKind { JevBench, Dgem };

// One question of an item as the scorer sees it: `names[i]` is what the question's i-th label
// (Question::labels()[i]) means in the suite's own vocabulary (JevBench: the item's label, e.g.
// "track_order", "yes", "0"; dgem: the option, level or yes/no name), `expected` one of them.
struct ItemQuestion {
    std::string id;
    std::vector<std::string> names;
    std::string expected;
};

struct SuiteItem {
    std::string id;
    std::string tier, family, topic, group, domain;
    std::string source;  // "file:line", for messages
    int line = 0;
    Schema schema;
    nlohmann::ordered_json state;
    std::vector<ImageInput> images;       // policy suites: "images"/"image", read when loaded
    std::vector<ItemQuestion> questions;  // the ones with an expected answer
    bool score_type = false;              // JevBench score item (expected is an integer)
    std::optional<std::map<std::string, double>> gold_probs;  // JevBench probability items
};

struct Suite {
    SuiteKind kind = SuiteKind::JevBench;
    std::string name;               // file name
    std::filesystem::path path;     // as given
    std::string sha256;             // of the file's bytes (hex)
    std::vector<SuiteItem> items;   // in file order
    std::size_t total_in_file = 0;  // before filters
};

// The slot id JevBench items are read under (dgem's --slot-id default).
inline constexpr const char* kJevSlotId = "decision";

// SHA-256 (hex, lower case) of a file's bytes; BadInput naming the file when unreadable.
Result<std::string> file_sha256(const std::filesystem::path& path);
std::string sha256_hex(std::string_view bytes);

// JevBench JSONL. Blank lines are skipped. Errors: "FILE:LINE: field ...: ...".
Result<Suite> load_jevbench(const std::filesystem::path& path);
// The same from text (split files concatenated by --sync --from); `name` is used in messages.
Result<Suite> load_jevbench_text(const std::string& text, const std::string& name);

// dgem's suite format. Templates resolve as dgem resolves them: relative to `working_dir`
// (the current directory when empty), then to the suite file's folder and its parent; Qt
// resource paths (":/templates/...") as they are. Expected answers name an option, level or
// yes/no (case-insensitive) or a label; a question the template lacks is an error.
Result<Suite> load_dgem_suite(const std::filesystem::path& path,
                              const std::filesystem::path& working_dir = {});

// Filters (dgem's -T/--tier, --family, --topic, --offset, -n/--limit). Empty: no filter.
struct SuiteFilter {
    std::string tier, family, topic;
    std::size_t offset = 0;
    std::size_t limit = 0;  // 0: all
};
void apply_filter(Suite& suite, const SuiteFilter& filter);

// dgem's zero-leakage check: no state key (at any depth) named expected, label, ground_truth or
// answer_key; every expected one of the labels. Returns one message per problem.
std::vector<std::string> leakage_problems(const std::filesystem::path& path);

}  // namespace core::eval
