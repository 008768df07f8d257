# The engine-only bundle's static runtime (included by the top CMakeLists when DS_ENGINE_ONLY):
# the bundle runs where neither our Debian packages nor a C++ runtime of the right version are
# installed, so OpenBLAS (with the gfortran runtime its LAPACK part needs), libstdc++ and libgcc
# go into the executable. glibc stays shared (any machine has one; static glibc breaks dlopen,
# which the CUDA runtime and the cuBLAS loader need). The CUDA runtime is linked statically too
# (CMAKE_CUDA_RUNTIME_LIBRARY, DS_CUDA_LINK_LIBRARIES); cuBLAS is loaded at run time.

pkg_check_modules(OPENBLAS_PC REQUIRED openblas)
find_library(DS_OPENBLAS_STATIC NAMES libopenblas.a HINTS ${OPENBLAS_PC_LIBRARY_DIRS}
             NO_DEFAULT_PATH)
if(NOT DS_OPENBLAS_STATIC)
  message(FATAL_ERROR "DS_ENGINE_ONLY links OpenBLAS statically: no libopenblas.a in "
                      "${OPENBLAS_PC_LIBRARY_DIRS} (Debian: libopenblas-pthread-dev)")
endif()
# The compiler knows where its own static gfortran and quadmath runtimes are.
foreach(lib gfortran quadmath)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=lib${lib}.a
                  OUTPUT_VARIABLE path OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${path}" OR NOT EXISTS "${path}")
    message(FATAL_ERROR "DS_ENGINE_ONLY: no static lib${lib}.a next to ${CMAKE_CXX_COMPILER} "
                        "(Debian: libgfortran-12-dev)")
  endif()
  set(DS_${lib}_STATIC ${path})
endforeach()
# The same name the normal build's pkg-config target has, so local-engine/ needs no change.
add_library(PkgConfig::OPENBLAS INTERFACE IMPORTED)
target_include_directories(PkgConfig::OPENBLAS INTERFACE ${OPENBLAS_PC_INCLUDE_DIRS})
target_link_libraries(PkgConfig::OPENBLAS INTERFACE ${DS_OPENBLAS_STATIC} ${DS_gfortran_STATIC}
                      ${DS_quadmath_STATIC} Threads::Threads m)

add_link_options($<$<LINK_LANGUAGE:CXX>:-static-libstdc++> $<$<LINK_LANGUAGE:CXX>:-static-libgcc>)
set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
