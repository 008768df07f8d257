# Packaging tests (label "packaging"; ctest -L packaging runs just these).
#   packaging_metadata  the desktop entry and the AppStream metadata in packaging/ validate
#                       (desktop-file-validate, appstreamcli --no-net --strict) and name this
#                       version
#   packaging_deb       cpack -G DEB into a temporary folder, lintian without errors, the
#                       contents and the computed Depends, and the unpacked dgem and Studio run
#                       (check-deb.sh). It packages what is built: build the installed targets
#                       first (every target, as scripts/test.sh does).
find_program(DS_DESKTOP_FILE_VALIDATE desktop-file-validate)
find_program(DS_APPSTREAMCLI appstreamcli)
find_program(DS_LINTIAN lintian)
find_program(DS_DPKG_DEB dpkg-deb)
find_program(DS_DPKG_SHLIBDEPS dpkg-shlibdeps)

if(DS_DESKTOP_FILE_VALIDATE AND DS_APPSTREAMCLI)
  add_test(NAME packaging_metadata
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/check-metadata.sh
                   ${CMAKE_CURRENT_SOURCE_DIR}/${DS_APP_ID}.desktop
                   ${CMAKE_CURRENT_SOURCE_DIR}/${DS_APP_ID}.metainfo.xml ${PROJECT_VERSION})
  set_tests_properties(packaging_metadata PROPERTIES LABELS packaging TIMEOUT 60)
else()
  message(STATUS "packaging_metadata: needs desktop-file-validate and appstreamcli (setup-debian.sh)")
endif()

if(TARGET decision-studio AND DS_DESKTOP_FILE_VALIDATE AND DS_APPSTREAMCLI AND DS_LINTIAN
   AND DS_DPKG_DEB AND DS_DPKG_SHLIBDEPS)
  set(_jevbench "")
  if(EXISTS ${DS_JEVBENCH_SOURCE}/jevbench_public.jsonl)
    set(_jevbench ${DS_JEVBENCH_SOURCE})
  endif()
  add_test(NAME packaging_deb
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/check-deb.sh ${CMAKE_BINARY_DIR}
                   ${CMAKE_SOURCE_DIR} ${PROJECT_VERSION} ${_jevbench})
  # About 20 s on an idle machine (strip, shlibdeps, lintian); CI's 2 loaded cores get 10 min.
  # The default model the unpacked dgem names (demo where models/demo holds weights, else tiny).
  set_tests_properties(packaging_deb PROPERTIES LABELS packaging TIMEOUT 600
                       ENVIRONMENT "DS_DEFAULT_MODEL_NAME=${DS_DEFAULT_MODEL_NAME}")
else()
  message(STATUS "packaging_deb: needs the Studio, lintian, dpkg-deb, dpkg-shlibdeps, "
                 "desktop-file-validate and appstreamcli (setup-debian.sh)")
endif()
