# tests/core extras (included by tests/CMakeLists.txt after the Qt Test targets exist).

# The remote tests run a cpp-httplib server of their own (a misbehaving one): same compile
# definitions as the library build.
if(TARGET core_tst_remote)
  target_link_libraries(core_tst_remote PRIVATE PkgConfig::HTTPLIB)
  add_dependencies(core_tst_remote dgem)
  # Generation on the tiny model is slow on a loaded CPU (about 90 s for each of the five
  # 4-token generations of generationAndStream on an idle 2-core machine, twice that beside the
  # other tests): allow each test function 40 minutes.
  set_tests_properties(core_tst_remote PROPERTIES TIMEOUT 3600
                       ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QTEST_FUNCTION_TIMEOUT=2400000")
endif()

# The official openai npm client against the real `dgem serve` (npm ci from tests/node's lock file
# into the build folder, once).
add_test(NAME core_node_openai
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/node/run_openai_test.sh $<TARGET_FILE:dgem>
                 ${CMAKE_BINARY_DIR} ${DS_TINY_MODEL_DIR})
# Two 4-token generations on the tiny model: minutes each on a loaded 2-core machine.
set_tests_properties(core_node_openai PROPERTIES TIMEOUT 1800)

# The official MCP SDK's client (@modelcontextprotocol/sdk, from the same lock file) driving the
# real `dgem mcp --local` over stdio: tools listed and called, an unknown tool, bad arguments and
# malformed lines. Decisions on the tiny model: seconds each, minutes on a loaded machine.
add_test(NAME core_node_mcp
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/node/run_mcp_test.sh $<TARGET_FILE:dgem>
                 ${CMAKE_BINARY_DIR} ${DS_TINY_MODEL_DIR})
set_tests_properties(core_node_mcp PROPERTIES TIMEOUT 1800)

# dgem mcp's protocol unit on the tiny model.
if(TARGET core_tst_mcp)
  set_tests_properties(core_tst_mcp PROPERTIES TIMEOUT 1800
                       ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QTEST_FUNCTION_TIMEOUT=1200000")
endif()

# The fuzz test talks to its in-process server with cpp-httplib's client.
if(TARGET core_tst_server_fuzz)
  target_link_libraries(core_tst_server_fuzz PRIVATE PkgConfig::HTTPLIB)
  set_tests_properties(core_tst_server_fuzz PROPERTIES TIMEOUT 900)
endif()

# Slot vs generative: `dgem compare` locally and through `dgem serve`, `dgem bench -M both`
# (16-token generations on the tiny model).
if(TARGET core_tst_compare)
  add_dependencies(core_tst_compare dgem)
  set_tests_properties(core_tst_compare PROPERTIES TIMEOUT 1800
                       ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QTEST_FUNCTION_TIMEOUT=1200000")
endif()

# Reports from runs on the tiny model in every format, read back with poppler's tools; the CLI's
# -o against `dgem serve` (8-token generations on the tiny model).
if(TARGET core_tst_reports)
  add_dependencies(core_tst_reports dgem)
  set_tests_properties(core_tst_reports PROPERTIES TIMEOUT 1800
                       ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QTEST_FUNCTION_TIMEOUT=1200000")
endif()

# dgem's command line run as the real binary (template, version, decide's table, -f json,
# --schema/--state, --temperature, the global flags); a loopback cpp-httplib server records
# what dgem sends, a fake gcloud on PATH what it is asked.
if(TARGET core_tst_cli)
  target_link_libraries(core_tst_cli PRIVATE PkgConfig::HTTPLIB)
  add_dependencies(core_tst_cli dgem)
  set_tests_properties(core_tst_cli PROPERTIES TIMEOUT 1800
                       ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QTEST_FUNCTION_TIMEOUT=1200000")
endif()

# The HTTP client's tests run a loopback cpp-httplib server of their own.
if(TARGET core_tst_http_client)
  target_link_libraries(core_tst_http_client PRIVATE PkgConfig::HTTPLIB)
endif()

# dgem serve as dgem's gateway (tst_gateway): the real server with a --templates folder, spoken
# to with cpp-httplib's client; /metrics checked by promtool (Debian's prometheus package).
if(TARGET core_tst_gateway)
  target_link_libraries(core_tst_gateway PRIVATE PkgConfig::HTTPLIB)
  add_dependencies(core_tst_gateway dgem)
  set_tests_properties(core_tst_gateway PROPERTIES TIMEOUT 1800
                       ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QTEST_FUNCTION_TIMEOUT=1200000")
endif()

# The official MCP SDK over Streamable HTTP against dgem serve's POST /mcp, and through
# `dgem mcp --remote` (the same lock file as core_node_mcp).
add_test(NAME core_node_mcp_http
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/node/run_mcp_http_test.sh $<TARGET_FILE:dgem>
                 ${CMAKE_BINARY_DIR} ${DS_TINY_MODEL_DIR})
set_tests_properties(core_node_mcp_http PROPERTIES TIMEOUT 1800)

# dgem bench -t -d: datasets through a policy as the real binary on the tiny model (labelled,
# unlabelled, killed and resumed, bad input).
if(TARGET core_tst_dataset_e2e)
  add_dependencies(core_tst_dataset_e2e dgem)
  set_tests_properties(core_tst_dataset_e2e PROPERTIES TIMEOUT 1800
                       ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QTEST_FUNCTION_TIMEOUT=1200000")
endif()

# Trust, proxies and mutual TLS: HTTPS servers of the test's own (cpp-httplib), tinyproxy, and
# the real `dgem serve --tls-*` reached by `dgem health`.
if(TARGET core_tst_network)
  target_link_libraries(core_tst_network PRIVATE PkgConfig::HTTPLIB)
  add_dependencies(core_tst_network dgem)
  set_tests_properties(core_tst_network PROPERTIES TIMEOUT 900)
endif()

# dgem models list reads the fake hub cache the test makes.
if(TARGET core_tst_models)
  add_dependencies(core_tst_models dgem)
endif()

# Issue 39: the temperature key vs --temperature through a real dgem serve, dgem calibrate, and
# the stage-2 cascade with a real dgem serve as the judge.
if(TARGET core_tst_calibration)
  add_dependencies(core_tst_calibration dgem)
  set_tests_properties(core_tst_calibration PROPERTIES TIMEOUT 1800
                       ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QTEST_FUNCTION_TIMEOUT=1200000")
endif()
