#pragma once
// Memory-mapped safetensors files. The layout is: 8 bytes little-endian header length N, N bytes
// of JSON ({"name": {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}),
// then the data; offsets count from the end of the header. Every offset and size is checked
// against the file size before a pointer is handed out.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/result.h"

namespace engine::model {

// F8_E4M3 and U8 hold quantised checkpoints' weights and block scales (model/quantized.h).
enum class DType { F32, BF16, F16, F8_E4M3, U8 };
const char* dtype_name(DType dtype);  // "F32", "BF16", "F16", "F8_E4M3", "U8" (safetensors)
size_t dtype_size(DType dtype);

// A read-only mapping of a whole file; unmapped when the last owner goes away. The mapping is
// guarded (util/mapping_guard.h): if the file shrinks while mapped, a read past its new end gives
// zeros instead of SIGBUS, and damage_report names the file.
class MappedFile {
  public:
    static Result<std::shared_ptr<MappedFile>> open(const std::filesystem::path& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const std::byte* data() const { return data_; }
    size_t size() const { return size_; }
    const std::filesystem::path& path() const { return path_; }
    // Whether a read found a page the file no longer has.
    bool damaged() const;

    // The first mapping of this process that a read found damaged: "PATH: the file changed while
    // in use (N bytes when it was opened, M now); reopen the model". Engines check it after each
    // call, so that numbers computed on zeros are never returned.
    static std::optional<std::string> damage_report();

  private:
    MappedFile() = default;
    const std::byte* data_ = nullptr;
    size_t size_ = 0;
    std::filesystem::path path_;
    int guard_ = -1;
};

struct QuantizedSource;  // model/quantized.h

// One tensor inside a mapped file (or an owned buffer). `data` stays valid while `owner` lives.
// A weight a quantised checkpoint stores in packed form has no `data`: `quantized` holds the
// packed parts, `dtype` is F32 (what dequantisation gives) and `shape` the logical shape; read
// its values with model::tensor_to_float (model/quantized.h).
struct TensorView {
    std::string name;
    DType dtype = DType::F32;
    std::vector<int64_t> shape;
    const std::byte* data = nullptr;
    size_t nbytes = 0;
    std::shared_ptr<const void> owner;  // the MappedFile (or buffer) that holds the bytes
    std::filesystem::path file;         // for messages
    std::shared_ptr<const QuantizedSource> quantized;

    bool empty() const { return data == nullptr && !quantized; }
    int64_t numel() const;
    std::string shape_string() const;  // "[262144, 2816]"
};

// Parses one safetensors file's header; tensors are views into its mapping.
class SafetensorsFile {
  public:
    static Result<SafetensorsFile> open(const std::filesystem::path& path);
    const std::map<std::string, TensorView>& tensors() const { return tensors_; }

  private:
    std::shared_ptr<MappedFile> file_;
    std::map<std::string, TensorView> tensors_;
};

// All tensors of a model folder: model.safetensors, or the shards named by
// model.safetensors.index.json ("weight_map": {tensor: shard file}).
Result<std::map<std::string, TensorView>> open_model_tensors(const std::filesystem::path& dir);

// bf16 / f16 / f32 element -> float.
float bf16_to_float(uint16_t v);
uint16_t float_to_bf16(float f);  // round to nearest even
float f16_to_float(uint16_t v);
// FP8 E4M3 (OCP "fn": no infinities, 0x7f/0xff NaN, max 448) -> float.
float e4m3_to_float(uint8_t v);
// Converts n elements of `src` (dtype) to float (U8: the byte's value).
void to_float(DType dtype, const std::byte* src, size_t n, float* dst);

}  // namespace engine::model
