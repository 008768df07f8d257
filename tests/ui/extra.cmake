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
# The Studio in German and Japanese (tst_translations). Its own entry runs under the C locale
# (the .ts checks, --lang de/ja/en, and the system locale giving English); systemLocale runs
# again with LANG=de_DE.UTF-8 and LANG=ja_JP.UTF-8, on Xvfb when it is there, and saves
# build/screenshots/main-window-de.png and main-window-ja.png.
if(TARGET ui_tst_translations)
  target_compile_definitions(ui_tst_translations PRIVATE
                             DS_LUPDATE="$<TARGET_FILE:Qt6::lupdate>")
  set(ds_locale_unset "LC_ALL=unset:;LC_MESSAGES=unset:;LANGUAGE=unset:")
  set_tests_properties(ui_tst_translations PROPERTIES
                       ENVIRONMENT "QT_QPA_PLATFORM=offscreen;LANG=C.UTF-8;DS_EXPECT_LANG=en"
                       ENVIRONMENT_MODIFICATION "${ds_locale_unset}")
  foreach(lang de ja)
    if(lang STREQUAL "de")
      set(locale de_DE.UTF-8)
    else()
      set(locale ja_JP.UTF-8)
    endif()
    if(DS_XVFB_RUN)
      add_test(NAME ui_translations_${lang}
               COMMAND ${DS_XVFB_RUN} -a -s "-screen 0 1920x1200x24"
                       $<TARGET_FILE:ui_tst_translations> systemLocale)
      set(platform xcb)
    else()
      add_test(NAME ui_translations_${lang} COMMAND ui_tst_translations systemLocale)
      set(platform offscreen)
    endif()
    set_tests_properties(ui_translations_${lang} PROPERTIES
                         ENVIRONMENT "QT_QPA_PLATFORM=${platform};LANG=${locale};DS_EXPECT_LANG=${lang};DS_SCREENSHOT_DIR=${CMAKE_BINARY_DIR}/screenshots"
                         ENVIRONMENT_MODIFICATION "${ds_locale_unset}"
                         SKIP_RETURN_CODE 77 TIMEOUT 600)
  endforeach()
endif()

# The layout test again at scale factor 2 (a 2560x1440 screen, 1280x720 logical pixels).
if(TARGET ui_tst_layout)
  add_test(NAME ui_layout_scale2 COMMAND ui_tst_layout)
  set_tests_properties(ui_layout_scale2 PROPERTIES ENVIRONMENT
                       "QT_QPA_PLATFORM=offscreen;QT_SCALE_FACTOR=2;DS_SCREENSHOT_DIR=${CMAKE_BINARY_DIR}/screenshots"
                       SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()

# Issue 39: the Studio's cascade against a real decision server as the judge profile, with a
# picture of the escalated cards (build/screenshots/cascade-window.png, cascade-card.png).
if(TARGET ui_tst_cascade_results)
  set_tests_properties(ui_tst_cascade_results PROPERTIES
                       ENVIRONMENT "QT_QPA_PLATFORM=offscreen;DS_SCREENSHOT_DIR=${CMAKE_BINARY_DIR}/screenshots")
endif()
