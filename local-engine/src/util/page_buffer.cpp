#include "util/page_buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <new>
#include <utility>

namespace engine::util {

namespace {
size_t whole_pages(size_t bytes) {
    static const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    return (bytes + page - 1) / page * page;
}
}  // namespace

void* map_pages(size_t bytes) {
    bytes = whole_pages(bytes);
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    if (bytes >= kMappedFrom) ::madvise(p, bytes, MADV_HUGEPAGE);  // advice: refusal is harmless
#endif
    return p;
}

void unmap_pages(void* data, size_t bytes) {
    if (data) ::munmap(data, whole_pages(bytes));
}

PageBuffer::PageBuffer(size_t count) {
    if (count == 0) return;
    const size_t bytes = whole_pages(count * sizeof(float));
    data_ = static_cast<float*>(map_pages(bytes));
    capacity_ = bytes / sizeof(float);
}

PageBuffer::~PageBuffer() {
    release();
}

PageBuffer::PageBuffer(PageBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), capacity_(std::exchange(other.capacity_, 0)) {}

PageBuffer& PageBuffer::operator=(PageBuffer&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
}

void PageBuffer::release() {
    unmap_pages(data_, bytes());
    data_ = nullptr;
    capacity_ = 0;
}

}  // namespace engine::util
