// Policy templates: the Go text/template subset parser and renderer, over a fixed data set.
#include <nlohmann/json.hpp>

#include "core/template/template.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const nlohmann::json vars = {{"ticket", "I was charged twice"},
                                        {"samples", 2},
                                        {"items", {"a", "b", "c"}},
                                        {"nested", {{"k", true}, {"list", {1, 2.5, nullptr}}}}};
    auto rendered = core::render_template(fuzz::text(data, size), vars, "fuzz.json.tmpl");
    if (rendered) (void)rendered->size();
    return 0;
}
