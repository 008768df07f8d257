#include "model/safetensors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <mutex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "util/mapping_guard.h"

namespace engine::model {

const char* dtype_name(DType dtype) {
    switch (dtype) {
        case DType::F32:
            return "F32";
        case DType::BF16:
            return "BF16";
        case DType::F16:
            return "F16";
        case DType::F8_E4M3:
            return "F8_E4M3";
        case DType::U8:
            return "U8";
    }
    return "?";
}

size_t dtype_size(DType dtype) {
    switch (dtype) {
        case DType::F32:
            return 4;
        case DType::BF16:
        case DType::F16:
            return 2;
        case DType::F8_E4M3:
        case DType::U8:
            return 1;
    }
    return 1;
}

int64_t TensorView::numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

std::string TensorView::shape_string() const {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

namespace {
// The mappings alive in this process, for damage_report.
std::set<const MappedFile*>& live_files() {
    static std::set<const MappedFile*> files;
    return files;
}
std::mutex& live_files_mutex() {
    static std::mutex m;
    return m;
}
}  // namespace

Result<std::shared_ptr<MappedFile>> MappedFile::open(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return bad_input(path.string() + ": cannot open (" + std::strerror(errno) + ")");
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return bad_input(path.string() + ": not a regular file");
    }
    std::shared_ptr<MappedFile> file(new MappedFile());
    file->path_ = path;
    file->size_ = static_cast<size_t>(st.st_size);
    if (file->size_ > 0) {
        void* p = ::mmap(nullptr, file->size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            const int err = errno;
            ::close(fd);
            return engine_error(path.string() + ": cannot map (" + std::strerror(err) + ")");
        }
        file->data_ = static_cast<const std::byte*>(p);
        file->guard_ = util::guard_mapping(p, file->size_);
        const std::lock_guard lock(live_files_mutex());
        live_files().insert(file.get());
    }
    ::close(fd);  // the mapping keeps its own reference
    return file;
}

MappedFile::~MappedFile() {
    if (!data_) return;
    {
        const std::lock_guard lock(live_files_mutex());
        live_files().erase(this);
    }
    util::unguard_mapping(guard_);
    ::munmap(const_cast<std::byte*>(data_), size_);
}

bool MappedFile::damaged() const {
    return util::mapping_damaged(guard_);
}

std::optional<std::string> MappedFile::damage_report() {
    if (!util::any_mapping_damaged()) return std::nullopt;  // the common case: no lock, no walk
    const std::lock_guard lock(live_files_mutex());
    for (const MappedFile* f : live_files()) {
        if (!f->damaged()) continue;
        std::error_code ec;
        const auto now = std::filesystem::file_size(f->path_, ec);
        return f->path_.string() + ": the file changed while in use (" + std::to_string(f->size_) +
               " bytes when it was opened, " +
               (ec ? std::string("gone") : std::to_string(now) + " now") +
               "); nothing computed on it is returned: reopen the model";
    }
    return std::nullopt;
}

namespace {

bool parse_dtype(const std::string& s, DType& out) {
    if (s == "F32")
        out = DType::F32;
    else if (s == "BF16")
        out = DType::BF16;
    else if (s == "F16")
        out = DType::F16;
    else if (s == "F8_E4M3")
        out = DType::F8_E4M3;
    else if (s == "U8")
        out = DType::U8;
    else
        return false;
    return true;
}

}  // namespace

Result<SafetensorsFile> SafetensorsFile::open(const std::filesystem::path& path) {
    auto mapped = MappedFile::open(path);
    if (!mapped) return mapped.error();
    std::shared_ptr<MappedFile> file = std::move(mapped.value());
    const std::string name = path.string();
    const size_t size = file->size();
    if (size < 8)
        return bad_input(name + ": truncated safetensors file (" + std::to_string(size) +
                         " bytes; expected an 8-byte header length)");
    uint64_t header_len = 0;
    for (int i = 7; i >= 0; --i)
        header_len = (header_len << 8) | static_cast<uint8_t>(file->data()[i]);
    if (header_len < 2 || header_len > size - 8 || header_len > (100ull << 20))
        return bad_input(name + ": safetensors header length " + std::to_string(header_len) +
                         " does not fit the file (" + std::to_string(size) +
                         " bytes; expected at most " + std::to_string(size - 8) + ", <= 100 MiB)");
    const char* header = reinterpret_cast<const char*>(file->data() + 8);
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(header, header + header_len);
    } catch (const nlohmann::json::exception& e) {  // syntax, and numbers too large for a double
        return bad_input(name + ": safetensors header is not valid JSON (" + e.what() + ")");
    }
    if (!j.is_object()) return bad_input(name + ": safetensors header is not a JSON object");

    const size_t data_start = 8 + header_len;
    const size_t data_size = size - data_start;
    SafetensorsFile out;
    out.file_ = file;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == "__metadata__") continue;
        const auto& e = it.value();
        const std::string where = name + ": tensor " + it.key();
        if (!e.is_object() || !e.contains("dtype") || !e.contains("shape") ||
            !e.contains("data_offsets"))
            return bad_input(where + ": header entry needs dtype, shape and data_offsets");
        TensorView t;
        t.name = it.key();
        t.file = path;
        t.owner = file;
        if (!e["dtype"].is_string() || !parse_dtype(e["dtype"].get<std::string>(), t.dtype))
            return bad_input(where + ": dtype " + e["dtype"].dump() +
                             " is not supported (expected F32, BF16, F16, F8_E4M3 or U8)");
        if (!e["shape"].is_array()) return bad_input(where + ": shape is not a list");
        uint64_t numel = 1;
        for (const auto& d : e["shape"]) {
            if (!d.is_number_integer() || d.get<int64_t>() < 0 || d.get<int64_t>() > (1ll << 40))
                return bad_input(where + ": shape " + e["shape"].dump() +
                                 " is not a list of sizes");
            t.shape.push_back(d.get<int64_t>());
            numel *= static_cast<uint64_t>(d.get<int64_t>());
            if (numel > (1ull << 40)) return bad_input(where + ": shape is too large");
        }
        const auto& off = e["data_offsets"];
        if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() ||
            !off[1].is_number_unsigned())
            return bad_input(where + ": data_offsets must be [begin, end]");
        const uint64_t begin = off[0].get<uint64_t>(), end = off[1].get<uint64_t>();
        if (begin > end || end > data_size)
            return bad_input(where + ": data_offsets [" + std::to_string(begin) + ", " +
                             std::to_string(end) + "] exceed the data section (" +
                             std::to_string(data_size) + " bytes); file truncated?");
        const uint64_t expected = numel * dtype_size(t.dtype);
        if (end - begin != expected)
            return bad_input(where + ": holds " + std::to_string(end - begin) +
                             " bytes, expected " + std::to_string(expected) + " for " +
                             dtype_name(t.dtype) + " " + t.shape_string());
        t.data = file->data() + data_start + begin;
        t.nbytes = static_cast<size_t>(expected);
        out.tensors_.emplace(t.name, std::move(t));
    }
    return out;
}

Result<std::map<std::string, TensorView>> open_model_tensors(const std::filesystem::path& dir) {
    const auto single = dir / "model.safetensors";
    const auto index = dir / "model.safetensors.index.json";
    std::map<std::string, TensorView> all;
    std::error_code ec;
    if (std::filesystem::exists(index, ec)) {
        std::ifstream in(index);
        if (!in) return bad_input(index.string() + ": cannot read");
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception& e) {  // syntax, and too large numbers
            return bad_input(index.string() + ": not valid JSON (" + e.what() + ")");
        }
        if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
            return bad_input(index.string() + ": field weight_map is missing (expected an object)");
        std::map<std::string, std::string> wanted;  // tensor -> shard
        std::set<std::string> shards;
        for (auto it = j["weight_map"].begin(); it != j["weight_map"].end(); ++it) {
            if (!it.value().is_string())
                return bad_input(index.string() + ": weight_map." + it.key() +
                                 " is not a file name");
            const std::string shard = it.value().get<std::string>();
            if (shard.find('/') != std::string::npos || shard.find("..") != std::string::npos)
                return bad_input(index.string() + ": weight_map." + it.key() + " names \"" + shard +
                                 "\" (expected a file in the model folder)");
            wanted[it.key()] = shard;
            shards.insert(shard);
        }
        for (const auto& shard : shards) {
            auto f = SafetensorsFile::open(dir / shard);
            if (!f) return f.error();
            for (const auto& [name, t] : f->tensors()) {
                auto w = wanted.find(name);
                if (w != wanted.end() && w->second == shard) all.emplace(name, t);
            }
        }
        for (const auto& [name, shard] : wanted)
            if (!all.count(name))
                return bad_input((dir / shard).string() + ": tensor " + name +
                                 " is missing (named by model.safetensors.index.json)");
        return all;
    }
    if (!std::filesystem::exists(single, ec))
        return bad_input(single.string() +
                         ": missing (expected model.safetensors or model.safetensors.index.json)");
    auto f = SafetensorsFile::open(single);
    if (!f) return f.error();
    return f->tensors();
}

float bf16_to_float(uint16_t v) {
    uint32_t bits = static_cast<uint32_t>(v) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

uint16_t float_to_bf16(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu)) return 0x7fc0;  // NaN
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<uint16_t>(bits >> 16);
}

float f16_to_float(uint16_t h) {
    const uint32_t sign = (h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1f;
    uint32_t mant = h & 0x3ff;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else {  // subnormal: normalise
            exp = 127 - 15 + 1;
            while (!(mant & 0x400)) {
                mant <<= 1;
                --exp;
            }
            mant &= 0x3ff;
            bits = sign | (exp << 23) | (mant << 13);
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

float e4m3_to_float(uint8_t v) {
    const bool negative = (v & 0x80) != 0;
    const int exponent = (v >> 3) & 0x0f;
    const int mantissa = v & 0x07;
    float magnitude;
    if (exponent == 0x0f && mantissa == 0x07)
        magnitude = std::numeric_limits<float>::quiet_NaN();
    else if (exponent == 0)  // subnormal: m/8 * 2^-6
        magnitude = std::ldexp(static_cast<float>(mantissa) / 8.0f, -6);
    else  // bias 7
        magnitude = std::ldexp(1.0f + static_cast<float>(mantissa) / 8.0f, exponent - 7);
    return negative ? -magnitude : magnitude;
}

void to_float(DType dtype, const std::byte* src, size_t n, float* dst) {
    switch (dtype) {
        case DType::F32:
            std::memcpy(dst, src, n * 4);
            break;
        case DType::BF16:
            for (size_t i = 0; i < n; ++i) {
                uint16_t v;
                std::memcpy(&v, src + 2 * i, 2);
                dst[i] = bf16_to_float(v);
            }
            break;
        case DType::F16:
            for (size_t i = 0; i < n; ++i) {
                uint16_t v;
                std::memcpy(&v, src + 2 * i, 2);
                dst[i] = f16_to_float(v);
            }
            break;
        case DType::F8_E4M3:
            for (size_t i = 0; i < n; ++i) dst[i] = e4m3_to_float(static_cast<uint8_t>(src[i]));
            break;
        case DType::U8:
            for (size_t i = 0; i < n; ++i)
                dst[i] = static_cast<float>(static_cast<uint8_t>(src[i]));
            break;
    }
}

}  // namespace engine::model
