// cuBLAS for the engine-only GPU bundle, loaded when first used instead of linked.
//
// Why: the bundle must run on a machine without our packages and be carried in 64 MiB, but
// CUDA 13 ships cuBLAS only as shared libraries (libcublas.so.13, 54 MB, which needs
// libcublasLt.so.13, 540 MB) and no static libcublas here. So the bundle defines the few cuBLAS
// entry points the engine calls, and each forwards to the real library found at run time:
//   1. $DS_CUBLAS_LIBRARY (a path to libcublas.so.13 or .12);
//   2. libcublas.so.13 beside the executable (bin/) or in ../lib;
//   3. libcublas.so.13 on the loader's path (LD_LIBRARY_PATH, ldconfig), then
//      /usr/local/cuda/lib64;
//   4. libcublas.so.12 the same ways (CUDA 12.5 or newer: the grouped GEMM exists from 12.5;
//      the entry points used here have the same signatures in 12 and 13).
// scripts/gpu-check.sh also adds a pip wheel's nvidia/cublas/lib (e.g. PyTorch's) to
// LD_LIBRARY_PATH. Without any, cublasCreate fails with CUBLAS_STATUS_NOT_INITIALIZED after
// saying on stderr what was searched, and the engine reports the CUDA backend as unusable.
//
// Each definition below must match <cublas_v2.h> exactly (the compiler checks: the header is
// included). A new cuBLAS call in the engine needs its forwarder here, or the bundle does not
// link (an undefined reference names it).

#include <cublas_v2.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Library {
    void* handle = nullptr;
    std::string path;      // what was loaded
    std::string searched;  // every place tried, for the message when nothing was found
};

std::vector<std::string> candidates() {
    std::vector<std::string> out;
    if (const char* env = std::getenv("DS_CUBLAS_LIBRARY"); env && *env) out.emplace_back(env);
    std::error_code ec;
    const auto bin = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
    for (const char* name : {"libcublas.so.13", "libcublas.so.12"}) {
        if (!ec) {
            out.push_back((bin / name).string());
            out.push_back((bin.parent_path() / "lib" / name).string());
        }
        out.emplace_back(name);  // the dynamic loader's own search
        out.push_back(std::string("/usr/local/cuda/lib64/") + name);
    }
    return out;
}

const Library& library() {
    static Library lib;
    static std::once_flag once;
    std::call_once(once, [] {
        for (const auto& c : candidates()) {
            lib.searched += (lib.searched.empty() ? "" : ", ") + c;
            if (c.find('/') != std::string::npos && !std::filesystem::exists(c)) continue;
            lib.handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!lib.handle) continue;
            // The file actually loaded (a bare soname resolves somewhere on the loader's path).
            Dl_info where{};
            void* probe = dlsym(lib.handle, "cublasCreate_v2");
            lib.path = probe && dladdr(probe, &where) && where.dli_fname ? where.dli_fname : c;
            break;
        }
        if (lib.handle && std::getenv("DS_CUBLAS_VERBOSE"))
            std::fprintf(stderr, "cuBLAS: loaded %s\n", lib.path.c_str());
        if (!lib.handle)
            std::fprintf(stderr,
                         "cuBLAS: no libcublas.so.13 or libcublas.so.12 found (searched: %s). Set "
                         "DS_CUBLAS_LIBRARY to one (the CUDA toolkit's lib64, or a pip wheel's "
                         "nvidia/cublas/lib).\n",
                         lib.searched.c_str());
    });
    return lib;
}

template <typename Fn>
Fn* symbol(const char* name) {
    const Library& lib = library();
    return lib.handle ? reinterpret_cast<Fn*>(dlsym(lib.handle, name)) : nullptr;
}

}  // namespace

// Where the bundle's cuBLAS came from and its version ("" when none was found): for
// `dgem-engine info`. Needs no GPU.
std::string ds_cublas_description() {
    const Library& lib = library();
    if (!lib.handle) return "";
    int major = 0, minor = 0, patch = 0;
    auto* get = symbol<decltype(cublasGetProperty)>("cublasGetProperty");
    if (!get || get(MAJOR_VERSION, &major) != CUBLAS_STATUS_SUCCESS ||
        get(MINOR_VERSION, &minor) != CUBLAS_STATUS_SUCCESS ||
        get(PATCH_LEVEL, &patch) != CUBLAS_STATUS_SUCCESS)
        return lib.path + " (version unknown)";
    return lib.path + " (version " + std::to_string(major) + "." + std::to_string(minor) + "." +
           std::to_string(patch) + ")";
}

extern "C" {

cublasStatus_t CUBLASWINAPI cublasCreate_v2(cublasHandle_t* handle) {
    static auto* fn = symbol<decltype(cublasCreate_v2)>("cublasCreate_v2");
    return fn ? fn(handle) : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t CUBLASWINAPI cublasDestroy_v2(cublasHandle_t handle) {
    static auto* fn = symbol<decltype(cublasDestroy_v2)>("cublasDestroy_v2");
    return fn ? fn(handle) : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t CUBLASWINAPI cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId) {
    static auto* fn = symbol<decltype(cublasSetStream_v2)>("cublasSetStream_v2");
    return fn ? fn(handle, streamId) : CUBLAS_STATUS_NOT_INITIALIZED;
}

const char* CUBLASWINAPI cublasGetStatusName(cublasStatus_t status) {
    static auto* fn = symbol<decltype(cublasGetStatusName)>("cublasGetStatusName");
    return fn ? fn(status) : "CUBLAS_LIBRARY_NOT_LOADED";
}

const char* CUBLASWINAPI cublasGetStatusString(cublasStatus_t status) {
    static auto* fn = symbol<decltype(cublasGetStatusString)>("cublasGetStatusString");
    return fn ? fn(status) : "the cuBLAS library could not be loaded (see the message above)";
}

cublasStatus_t CUBLASWINAPI cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                                           cublasOperation_t transb, int m, int n, int k,
                                           const float* alpha, const float* A, int lda,
                                           const float* B, int ldb, const float* beta, float* C,
                                           int ldc) {
    static auto* fn = symbol<decltype(cublasSgemm_v2)>("cublasSgemm_v2");
    return fn ? fn(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc)
              : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t CUBLASWINAPI cublasGemmStridedBatchedEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
    const void* alpha, const void* A, cudaDataType Atype, int lda, long long int strideA,
    const void* B, cudaDataType Btype, int ldb, long long int strideB, const void* beta, void* C,
    cudaDataType Ctype, int ldc, long long int strideC, int batchCount,
    cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
    // <cublas_api.h> overloads this name in C++ (a cudaDataType computeType): name the C one.
    using Fn =
        cublasStatus_t(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                       const void*, const void*, cudaDataType, int, long long int, const void*,
                       cudaDataType, int, long long int, const void*, void*, cudaDataType, int,
                       long long int, int, cublasComputeType_t, cublasGemmAlgo_t);
    static_assert(sizeof(static_cast<Fn*>(&cublasGemmStridedBatchedEx)) > 0);
    static auto* fn = symbol<Fn>("cublasGemmStridedBatchedEx");
    return fn ? fn(handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb,
                   strideB, beta, C, Ctype, ldc, strideC, batchCount, computeType, algo)
              : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t CUBLASWINAPI cublasGemmGroupedBatchedEx(
    cublasHandle_t handle, const cublasOperation_t transa_array[],
    const cublasOperation_t transb_array[], const int m_array[], const int n_array[],
    const int k_array[], const void* alpha_array, const void* const Aarray[], cudaDataType_t Atype,
    const int lda_array[], const void* const Barray[], cudaDataType_t Btype, const int ldb_array[],
    const void* beta_array, void* const Carray[], cudaDataType_t Ctype, const int ldc_array[],
    int group_count, const int group_size[], cublasComputeType_t computeType) {
    static auto* fn = symbol<decltype(cublasGemmGroupedBatchedEx)>("cublasGemmGroupedBatchedEx");
    return fn ? fn(handle, transa_array, transb_array, m_array, n_array, k_array, alpha_array,
                   Aarray, Atype, lda_array, Barray, Btype, ldb_array, beta_array, Carray, Ctype,
                   ldc_array, group_count, group_size, computeType)
              : CUBLAS_STATUS_NOT_INITIALIZED;
}

}  // extern "C"
