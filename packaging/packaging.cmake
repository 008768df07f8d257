# Installation layout and a Debian package (cpack -G DEB from the build folder).
include(GNUInstallDirs)
install(TARGETS dgem RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET decision-studio)
  install(TARGETS decision-studio RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/decision-studio.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/io.decisionstudio.DecisionStudio.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/resources/templates/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/decision-studio/templates OPTIONAL)

set(CPACK_PACKAGE_NAME decision-studio)
set(CPACK_PACKAGE_VENDOR "Decision Studio")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "Decision Studio maintainers <maintainers@decision-studio.invalid>")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_GENERATOR DEB)
include(CPack)
