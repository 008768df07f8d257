#pragma once
// Small host-side helpers of the CUDA backend: error mapping to engine::Error and an owning
// device allocation.

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

#include "engine/result.h"

namespace engine::cuda {

inline Error cuda_error(cudaError_t e, const char* what) {
    return engine_error(std::string("CUDA backend: ") + what + " failed: " + cudaGetErrorName(e) +
                        " (" + cudaGetErrorString(e) + ")");
}

inline Error cublas_error(cublasStatus_t s, const char* what) {
    return engine_error(std::string("CUDA backend: ") + what + " failed: " +
                        cublasGetStatusName(s) + " (" + cublasGetStatusString(s) + ")");
}

// Early-return helpers for functions returning Result<...>.
#define DS_CUDA_TRY(call)                                                              \
    do {                                                                               \
        const cudaError_t ds_err_ = (call);                                            \
        if (ds_err_ != cudaSuccess) return ::engine::cuda::cuda_error(ds_err_, #call); \
    } while (0)

#define DS_CUBLAS_TRY(call)                                                                      \
    do {                                                                                         \
        const cublasStatus_t ds_st_ = (call);                                                    \
        if (ds_st_ != CUBLAS_STATUS_SUCCESS) return ::engine::cuda::cublas_error(ds_st_, #call); \
    } while (0)

#define DS_TRY(expr)                      \
    do {                                  \
        auto ds_r_ = (expr);              \
        if (!ds_r_) return ds_r_.error(); \
    } while (0)

// One cudaMalloc, freed on destruction. Moves, never copies.
class DeviceBuffer {
  public:
    DeviceBuffer() = default;
    ~DeviceBuffer() { reset(); }
    DeviceBuffer(DeviceBuffer&& o) noexcept
        : ptr_(std::exchange(o.ptr_, nullptr)), size_(o.size_) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            reset();
            ptr_ = std::exchange(o.ptr_, nullptr);
            size_ = o.size_;
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    Result<void> allocate(size_t bytes, const char* what) {
        reset();
        if (bytes == 0) return {};
        const cudaError_t e = cudaMalloc(&ptr_, bytes);
        if (e != cudaSuccess) {
            ptr_ = nullptr;
            return engine_error(std::string("CUDA backend: cannot allocate ") +
                                std::to_string(bytes) + " bytes for " + what + ": " +
                                cudaGetErrorString(e));
        }
        size_ = bytes;
        return {};
    }
    void reset() {
        if (ptr_) cudaFree(ptr_);
        ptr_ = nullptr;
        size_ = 0;
    }
    template <class T>
    T* as() const {
        return static_cast<T*>(ptr_);
    }
    void* get() const { return ptr_; }
    size_t size() const { return size_; }

  private:
    void* ptr_ = nullptr;
    size_t size_ = 0;
};

}  // namespace engine::cuda
