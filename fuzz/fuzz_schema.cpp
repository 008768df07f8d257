// The schema parser: any JSON document (bounded depth, as every door parses) as a schema.
#include <nlohmann/json.hpp>

#include "core/policy/json_input.h"
#include "core/policy/schema.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    nlohmann::ordered_json doc;
    core::JsonInputError error;
    if (!core::parse_json_input_raw(fuzz::text(data, size), doc, error)) return 0;
    auto schema = core::parse_schema(doc, "fuzz schema");
    if (schema) (void)schema->questions.size();
    return 0;
}
