# The screenshot test needs a real X server (Xvfb): it runs a second time under xvfb-run.
if(TARGET ui_tst_screenshots)
  find_program(DS_XVFB_RUN xvfb-run)
  if(DS_XVFB_RUN)
    add_test(NAME ui_screenshots_xvfb
             COMMAND ${DS_XVFB_RUN} -a -s "-screen 0 1920x1200x24"
                     $<TARGET_FILE:ui_tst_screenshots>)
    set_tests_properties(ui_screenshots_xvfb PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=xcb;DS_SCREENSHOT_DIR=${CMAKE_BINARY_DIR}/screenshots"
                         SKIP_RETURN_CODE 77 TIMEOUT 600)
  endif()
endif()
# The Bench view's pictures on a real X server too (its charts, light and dark).
if(TARGET ui_tst_bench_view AND DS_XVFB_RUN)
  add_test(NAME ui_bench_view_xvfb
           COMMAND ${DS_XVFB_RUN} -a -s "-screen 0 1920x1800x24"
                   $<TARGET_FILE:ui_tst_bench_view> runShowsItsNumbers)
  set_tests_properties(ui_bench_view_xvfb PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=xcb;DS_SCREENSHOT_DIR=${CMAKE_BINARY_DIR}/screenshots"
                       SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
# The Compare view runs 16-token generations on the tiny model (48 passes: about a minute each
# on a loaded 2-core machine): 20 minutes per test function.
if(TARGET ui_tst_compare_view)
  set_tests_properties(ui_tst_compare_view PROPERTIES TIMEOUT 1800
                       ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QTEST_FUNCTION_TIMEOUT=1200000")
endif()
# The Compare view's pictures on a real X server: one decision, both sides, and a suite run's
# comparison charts (build/screenshots/compare-view.png, compare-suite.png).
if(TARGET ui_tst_compare_view AND DS_XVFB_RUN)
  add_test(NAME ui_compare_view_xvfb
           COMMAND ${DS_XVFB_RUN} -a -s "-screen 0 1920x1400x24"
                   $<TARGET_FILE:ui_tst_compare_view> bothSidesShowTheBackendsNumbers
                   suiteComparison)
  set_tests_properties(ui_compare_view_xvfb PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=xcb;DS_SCREENSHOT_DIR=${CMAKE_BINARY_DIR}/screenshots;QTEST_FUNCTION_TIMEOUT=1200000"
                       SKIP_RETURN_CODE 77 TIMEOUT 1800)
endif()
