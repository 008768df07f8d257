#include "engine/engine.h"

namespace engine {

#ifndef DS_HAVE_CUDA
// CPU-only build: the CUDA backend is not compiled in.
bool cuda_available() { return false; }
#endif

}  // namespace engine
