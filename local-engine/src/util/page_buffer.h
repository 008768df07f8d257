#pragma once
// PageBuffer: floats in pages of their own (an anonymous mapping), given back to the system when
// the buffer is destroyed.
//
// Why not std::vector: the prompt-prefix cache creates and evicts KV caches all run long, from
// whichever thread holds the scheduler's turn. Through malloc those blocks land in the per-thread
// arenas of glibc, which keep freed memory for their own thread; a long dataset run on 8 threads
// then held several cache budgets' worth of holes (peak RSS 1.22x from 1,000 to 10,000 rows).
// A mapping belongs to no arena, and the kernel hands its pages out zeroed and only when first
// written. (A pool of recycled mappings, to save those page faults, made no measurable
// difference in rows/s on the tiny model and held up to its budget of spares: bench-dataset.)
//
// Mappings of 2 MiB and more ask for transparent huge pages (MADV_HUGEPAGE): the first write to
// a pass's workspace or a KV cache then faults once per 2 MiB instead of once per 4 KiB, which
// on a virtual machine, where a fault is dear, was most of what a model's first decision cost
// beyond a warm one (bench-cpu_weights' open cost). Where the kernel has no THP the advice is
// refused and the pages stay small.

#include <cstddef>
#include <memory>
#include <new>
#include <span>

namespace engine::util {

// Zeroed, page-aligned anonymous memory of at least `bytes` (huge pages advised from 2 MiB);
// throws std::bad_alloc when the system refuses. unmap_pages takes the same byte count back.
void* map_pages(size_t bytes);
void unmap_pages(void* data, size_t bytes);
// Allocations from this size on go to map_pages.
constexpr size_t kMappedFrom = size_t(2) << 20;

// An allocator for the buffers a pass writes from start to end (the CPU backend's workspace):
// large ones in pages of their own with huge pages advised, small ones from the heap.
template <class T>
struct PageAllocator {
    using value_type = T;
    PageAllocator() = default;
    template <class U>
    PageAllocator(const PageAllocator<U>&) noexcept {}
    T* allocate(size_t n) {
        const size_t bytes = n * sizeof(T);
        if (bytes >= kMappedFrom) return static_cast<T*>(map_pages(bytes));
        return std::allocator<T>().allocate(n);
    }
    void deallocate(T* p, size_t n) noexcept {
        const size_t bytes = n * sizeof(T);
        if (bytes >= kMappedFrom)
            unmap_pages(p, bytes);
        else
            std::allocator<T>().deallocate(p, n);
    }
    template <class U>
    bool operator==(const PageAllocator<U>&) const noexcept {
        return true;
    }
};

class PageBuffer {
  public:
    PageBuffer() = default;
    // At least `count` zeroed floats (the mapping is rounded up to whole pages); throws
    // std::bad_alloc when the system refuses the mapping, as std::vector would.
    explicit PageBuffer(size_t count);
    ~PageBuffer();
    PageBuffer(PageBuffer&& other) noexcept;
    PageBuffer& operator=(PageBuffer&& other) noexcept;
    PageBuffer(const PageBuffer&) = delete;
    PageBuffer& operator=(const PageBuffer&) = delete;

    float* data() { return data_; }
    const float* data() const { return data_; }
    size_t capacity() const { return capacity_; }  // floats mapped
    size_t bytes() const { return capacity_ * sizeof(float); }

  private:
    void release();
    float* data_ = nullptr;
    size_t capacity_ = 0;
};

}  // namespace engine::util
