// The Gemma tokenizer: encode any bytes, decode the ids back, and decode arbitrary ids.
#include <cstdlib>
#include <memory>

#include "engine/tokenizer.h"
#include "fuzz_common.h"

namespace {
const engine::Tokenizer* tokenizer() {
    static std::unique_ptr<engine::Tokenizer> t = [] {
        const char* path = std::getenv("DS_TOKENIZER_JSON");
        auto loaded = engine::Tokenizer::load(path ? path : DS_TOKENIZER_JSON);
        if (!loaded) std::abort();
        return std::make_unique<engine::Tokenizer>(std::move(*loaded));
    }();
    return t.get();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto* t = tokenizer();
    auto ids = t->encode(fuzz::text(data, size));
    (void)t->decode(ids);
    std::vector<engine::TokenId> raw;
    for (size_t i = 0; i + 4 <= size && raw.size() < 64; i += 4) {
        uint32_t v = 0;
        for (int k = 0; k < 4; ++k) v = v << 8 | data[i + static_cast<size_t>(k)];
        raw.push_back(static_cast<engine::TokenId>(v % 262144));
    }
    (void)t->decode(raw, true);
    return 0;
}
