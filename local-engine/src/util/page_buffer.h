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

#include <cstddef>
#include <span>

namespace engine::util {

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
