# Installation layout and a Debian package: `cpack -G DEB` from the build folder (or
# `cmake --build build --target package`) writes decision-studio_<version>_<arch>.deb.
#
#   bin/dgem, bin/decision-studio                 stripped by CPack
#   share/decision-studio/templates, suites       the shipped policies and suites
#   share/decision-studio/jevbench                JevBench's public items (MIT), when present
#   share/decision-studio/models                  only with DS_PACKAGE_TINY_MODEL=ON (below)
#   share/decision-studio/translations            the .qm files (translations/CMakeLists.txt)
#   share/applications, share/metainfo,
#   share/icons/hicolor/scalable/apps             desktop entry, AppStream data, the icon
#   share/man/man1, share/doc/decision-studio     manual pages, copyright, changelog.gz
#
# The installed programs find this data from their own location (app/data_paths.h), so the
# container recipe (Containerfile.serve: cmake --install into /usr/local) and an unpacked .deb
# read their own copy.
include(GNUInstallDirs)

set(DS_HOMEPAGE_URL "https://decisionstudio.io/" CACHE STRING "The project's home page")
# The tiny model is a random-weight test fixture (69 MB, no use for real decisions) and the
# Gemma tokenizer (33 MB) is under the Gemma Terms of Use: neither is in the package unless
# asked for (a demonstration package that decides out of the box).
option(DS_PACKAGE_TINY_MODEL "Install the tiny and demo models and the Gemma tokenizer" OFF)

set(DS_DATA_DEST ${CMAKE_INSTALL_DATADIR}/decision-studio)
set(DS_DOC_DEST ${CMAKE_INSTALL_DATADIR}/doc/decision-studio)
set(DS_APP_ID io.decisionstudio.DecisionStudio)
# Debian's permissions whatever the umask of whoever builds.
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
    GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

install(TARGETS dgem RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET decision-studio)
  install(TARGETS decision-studio RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/${DS_APP_ID}.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/${DS_APP_ID}.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES ${CMAKE_SOURCE_DIR}/resources/icons/${DS_APP_ID}.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()
# A stripped install (CPack's CPACK_STRIP_FILES, cmake --install --strip) also drops the
# compiler's .comment and .note sections, as Debian's dh_strip does.
if(CMAKE_OBJCOPY)
  install(CODE "
    if(CMAKE_INSTALL_DO_STRIP)
      foreach(_exe dgem decision-studio)
        set(_file \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/\${_exe}\")
        if(EXISTS \"\${_file}\")
          execute_process(COMMAND \"${CMAKE_OBJCOPY}\" --remove-section=.comment
                                  --remove-section=.note \"\${_file}\" COMMAND_ERROR_IS_FATAL ANY)
        endif()
      endforeach()
    endif()")
endif()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/resources/templates/ DESTINATION ${DS_DATA_DEST}/templates)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/resources/suites/ DESTINATION ${DS_DATA_DEST}/suites)

set(DS_JEVBENCH_SOURCE ${DS_SHARED_DIR}/data/jevbench)
set(DS_COPYRIGHT_EXTRA "")
if(EXISTS ${DS_JEVBENCH_SOURCE}/jevbench_public.jsonl)
  install(FILES ${DS_JEVBENCH_SOURCE}/jevbench_public.jsonl
                ${DS_JEVBENCH_SOURCE}/manifest.lock.json ${DS_JEVBENCH_SOURCE}/leaderboard_v14.json
          DESTINATION ${DS_DATA_DEST}/jevbench)
  # Where the items come from and their licence, with the rest of the documentation.
  install(FILES ${DS_JEVBENCH_SOURCE}/SOURCE.md DESTINATION ${DS_DOC_DEST}
          RENAME JEVBENCH-SOURCE.md)
  file(READ ${CMAKE_CURRENT_SOURCE_DIR}/debian/copyright-jevbench.in _extra)
  string(APPEND DS_COPYRIGHT_EXTRA "${_extra}")
endif()
if(DS_PACKAGE_TINY_MODEL)
  install(DIRECTORY ${DS_TINY_MODEL_DIR}/ DESTINATION ${DS_DATA_DEST}/models/tiny)
  if(TARGET demo_model)
    install(DIRECTORY ${DS_DEMO_MODEL_DIR}/ DESTINATION ${DS_DATA_DEST}/models/demo)
  endif()
  get_filename_component(_tokenizer_dir ${DS_TOKENIZER_JSON} DIRECTORY)
  install(DIRECTORY ${_tokenizer_dir}/ DESTINATION ${DS_DATA_DEST}/models/tokenizer)
  file(READ ${CMAKE_CURRENT_SOURCE_DIR}/debian/copyright-tiny-model.in _extra)
  string(APPEND DS_COPYRIGHT_EXTRA "${_extra}")
endif()

set(CPACK_PACKAGE_CONTACT "Decision Studio maintainers <maintainers@decisionstudio.io>")

# Debian's documentation files: the copyright (with the sections of what is installed), the
# changelog and the manual pages, compressed as Debian wants (gzip -9n: no name, no time).
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/debian/copyright.in
               ${CMAKE_CURRENT_BINARY_DIR}/copyright @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/copyright DESTINATION ${DS_DOC_DEST})
set(_gz_files)
foreach(_doc debian/changelog debian/dgem.1 debian/decision-studio.1)
  get_filename_component(_name ${_doc} NAME)
  set(_gz ${CMAKE_CURRENT_BINARY_DIR}/${_name}.gz)
  add_custom_command(OUTPUT ${_gz}
                     COMMAND gzip -9nc ${CMAKE_CURRENT_SOURCE_DIR}/${_doc} > ${_gz}
                     DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${_doc} VERBATIM)
  list(APPEND _gz_files ${_gz})
endforeach()
add_custom_target(packaging_docs ALL DEPENDS ${_gz_files})
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/changelog.gz DESTINATION ${DS_DOC_DEST})
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/dgem.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
if(TARGET decision-studio)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/decision-studio.1.gz
          DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

set(CPACK_PACKAGE_NAME decision-studio)
set(CPACK_PACKAGE_VENDOR "Decision Studio")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${DS_HOMEPAGE_URL}")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Beyond the libraries dpkg-shlibdeps finds: the reports' typeface, Wayland, a keychain.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core, qt6-wayland")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "gnome-keyring")
if(DS_PACKAGE_TINY_MODEL)
  set(_weights " It holds a
tiny random-weight model to try the Studio with, and the Gemma tokenizer.")
else()
  set(_weights " It ships no
model weights: point the local engine at a DiffusionGemma model folder.")
endif()
# The synopsis is CPACK_PACKAGE_DESCRIPTION_SUMMARY; this is the extended description.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Decision Studio is a Qt desktop workbench for structured decisions on the
DiffusionGemma language model: author a policy (questions with their allowed
answers), see the seeded canvas the model reads, and get a calibrated
probability distribution with error bars for every question from one
denoising pass. It compares the slot read with generative JSON, runs JevBench
and policy suites, and exports reports as HTML, PDF, CSV or JSON.
.
The package also holds dgem, the command line (decide, compare, bench,
serve, mcp), on the bundled local engine or remote endpoints.${_weights}")
include(CPack)
