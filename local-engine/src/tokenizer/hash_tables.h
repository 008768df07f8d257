#pragma once
// Open-addressing hash tables for the tokenizer's hot lookups: vocabulary strings and BPE merge
// pairs. Built once at load time and read-only afterwards, so concurrent reads need no locks.

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace engine::tokenizer_detail {

inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

inline uint64_t hash_bytes(std::string_view s) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (s.size() * 0x100000001b3ULL);
    const char* p = s.data();
    size_t n = s.size();
    while (n >= 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        h = (h ^ mix64(w)) * 0x9fb21c651e98df25ULL;
        p += 8;
        n -= 8;
    }
    uint64_t tail = 0;
    std::memcpy(&tail, p, n);
    return mix64(h ^ tail);
}

// String -> id. Keys live in one arena; slots hold (offset, length, id).
class StringIdMap {
  public:
    void reserve(size_t n) {
        size_t cap = 16;
        while (cap * 3 < n * 4) cap <<= 1;  // load factor at most 3/4
        slots_.assign(cap, Slot{});
        mask_ = cap - 1;
        arena_.reserve(n * 8);
    }
    // Inserts or overwrites; returns true when the key was new.
    bool put(std::string_view key, int32_t id) {
        if ((size_ + 1) * 4 > slots_.size() * 3) grow();
        size_t i = hash_bytes(key) & mask_;
        while (slots_[i].id >= 0) {
            if (key_of(slots_[i]) == key) {
                slots_[i].id = id;
                return false;
            }
            i = (i + 1) & mask_;
        }
        slots_[i] =
            Slot{static_cast<uint32_t>(arena_.size()), static_cast<uint32_t>(key.size()), id};
        arena_.append(key);
        ++size_;
        return true;
    }
    int32_t get(std::string_view key) const {
        if (slots_.empty()) return -1;
        size_t i = hash_bytes(key) & mask_;
        while (slots_[i].id >= 0) {
            if (slots_[i].length == key.size() && key_of(slots_[i]) == key) return slots_[i].id;
            i = (i + 1) & mask_;
        }
        return -1;
    }
    size_t size() const { return size_; }

  private:
    struct Slot {
        uint32_t offset = 0;
        uint32_t length = 0;
        int32_t id = -1;
    };
    std::string_view key_of(const Slot& s) const { return {arena_.data() + s.offset, s.length}; }
    void grow() {
        std::vector<Slot> old = std::move(slots_);
        size_t cap = old.empty() ? 16 : old.size() * 2;
        slots_.assign(cap, Slot{});
        mask_ = cap - 1;
        for (const Slot& s : old) {
            if (s.id < 0) continue;
            size_t i = hash_bytes(key_of(s)) & mask_;
            while (slots_[i].id >= 0) i = (i + 1) & mask_;
            slots_[i] = s;
        }
    }
    std::vector<Slot> slots_;
    std::string arena_;
    size_t mask_ = 0;
    size_t size_ = 0;
};

// uint64 key -> small value, for merge pairs and trie edges. Keys must not be ~0.
template <class V>
class U64Map {
  public:
    void reserve(size_t n) {
        size_t cap = 16;
        while (cap * 3 < n * 4) cap <<= 1;  // load factor at most 3/4
        slots_.assign(cap, Slot{});
        mask_ = cap - 1;
    }
    // Keeps the first value stored for a key (merges: the lowest rank wins).
    void put_if_absent(uint64_t key, V value) {
        if ((size_ + 1) * 4 > slots_.size() * 3) grow();
        size_t i = mix64(key) & mask_;
        while (slots_[i].key != kEmpty) {
            if (slots_[i].key == key) return;
            i = (i + 1) & mask_;
        }
        slots_[i] = Slot{key, value};
        ++size_;
    }
    const V* get(uint64_t key) const {
        if (slots_.empty()) return nullptr;
        size_t i = mix64(key) & mask_;
        while (slots_[i].key != kEmpty) {
            if (slots_[i].key == key) return &slots_[i].value;
            i = (i + 1) & mask_;
        }
        return nullptr;
    }

  private:
    static constexpr uint64_t kEmpty = ~uint64_t{0};
    struct Slot {
        uint64_t key = kEmpty;
        V value{};
    };
    void grow() {
        std::vector<Slot> old = std::move(slots_);
        reserve(old.empty() ? 16 : old.size());
        for (const Slot& s : old) {
            if (s.key == kEmpty) continue;
            size_t i = mix64(s.key) & mask_;
            while (slots_[i].key != kEmpty) i = (i + 1) & mask_;
            slots_[i] = s;
        }
    }
    std::vector<Slot> slots_;
    size_t mask_ = 0;
    size_t size_ = 0;
};

inline uint64_t pair_key(int32_t left, int32_t right) {
    return (uint64_t{static_cast<uint32_t>(left)} << 32) | static_cast<uint32_t>(right);
}

}  // namespace engine::tokenizer_detail
