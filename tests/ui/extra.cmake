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
