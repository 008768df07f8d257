// A safetensors file's header (length prefix, JSON header, offsets against the file size).
#include "fuzz_common.h"
#include "model/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::MemoryFile file(data, size);
    if (!file.ok()) return 0;
    auto st = engine::model::SafetensorsFile::open(file.path());
    if (st) (void)st->tensors().size();
    return 0;
}
