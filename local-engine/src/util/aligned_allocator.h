#pragma once
// An allocator whose blocks start on a cache line (64 bytes), for the per-thread buffers that
// vector kernels read a whole 64-byte register at a time: from a block that malloc starts 16
// bytes into a line, every such load would straddle two lines.

#include <cstddef>
#include <new>

namespace engine::util {

inline constexpr std::size_t kCacheLine = 64;

template <class T>
struct CacheLineAllocator {
    using value_type = T;
    CacheLineAllocator() = default;
    template <class U>
    CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{kCacheLine}));
    }
    void deallocate(T* p, std::size_t) noexcept {
        ::operator delete (p, std::align_val_t{kCacheLine});
    }
    template <class U>
    bool operator==(const CacheLineAllocator<U>&) const noexcept {
        return true;
    }
};

}  // namespace engine::util
