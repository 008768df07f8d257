// The model folder's readers: config.json (text) and generation_config.json (a file).
#include <string>

#include "fuzz_common.h"
#include "model/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto config = engine::model::parse_config(std::string(fuzz::text(data, size)), "config.json");
    if (config) (void)config->vocab_size;
    fuzz::MemoryFile file(data, size);
    if (file.ok()) (void)engine::model::load_generation_config(file.path());
    return 0;
}
