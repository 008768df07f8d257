# The engine-only bundle's static runtime (included by the top CMakeLists when DS_ENGINE_ONLY):
# the bundle runs where neither our Debian packages nor a C++ runtime of the right version are
# installed, so libstdc++ and libgcc go into the executable (the engine needs no BLAS: its CPU
# products are its own kernels). glibc stays shared (any machine has one; static glibc breaks
# dlopen, which the CUDA runtime and the cuBLAS loader need). The CUDA runtime is linked statically too
# (CMAKE_CUDA_RUNTIME_LIBRARY, DS_CUDA_LINK_LIBRARIES); cuBLAS is loaded at run time.

add_link_options($<$<LINK_LANGUAGE:CXX>:-static-libstdc++> $<$<LINK_LANGUAGE:CXX>:-static-libgcc>)
set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
