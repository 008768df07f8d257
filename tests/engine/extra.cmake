# Backend tests (tst_cuda_*, tst_backend_*) and the thread pool test drive the engine's internal
# interfaces (ComputeBackend, the CUDA backend's extensions, util::ThreadPool) directly, so they
# see the engine's private headers; tst_vision tests the image preprocessing module itself; tst_quantized the
# quantised-checkpoint decoders and the memory plan.
file(GLOB DS_CUDA_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/engine/tst_cuda_*.cpp
     ${CMAKE_CURRENT_SOURCE_DIR}/engine/tst_backend_*.cpp
     ${CMAKE_CURRENT_SOURCE_DIR}/engine/tst_thread_pool.cpp
     ${CMAKE_CURRENT_SOURCE_DIR}/engine/tst_vision.cpp
     ${CMAKE_CURRENT_SOURCE_DIR}/engine/tst_quantized.cpp
     ${CMAKE_CURRENT_SOURCE_DIR}/engine/tst_prefix_cache.cpp)
foreach(src ${DS_CUDA_TESTS})
  get_filename_component(base ${src} NAME_WE)
  target_include_directories(engine_${base} PRIVATE ${CMAKE_SOURCE_DIR}/local-engine/src)
endforeach()
