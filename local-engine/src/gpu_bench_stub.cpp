#include "engine/gpu_bench.h"

namespace engine::gpu_bench {

#ifndef DS_HAVE_CUDA
// CPU-only build: the CUDA backend (src/cuda/gpu_bench.cpp) is not compiled in.
bool compiled() {
    return false;
}
Result<Report> run(const Options&) {
    return engine_error("this build has no CUDA backend (nvcc was not found at configure time)");
}
Result<std::string> dump_slots(const SlotDumpRequest&) {
    return engine_error("this build has no CUDA backend (nvcc was not found at configure time)");
}
#endif

}  // namespace engine::gpu_bench
