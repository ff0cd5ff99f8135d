# SPDX-License-Identifier: MIT
# ibpm_add_man_page(NAME DESCRIPTION): NAME.1.gz made by help2man from the built command's own
# --help and --version (so the page never drifts from the options), installed into man1/.
# Without help2man the build goes on without man pages and says so once. Sanitizer and fuzzing
# builds make none (their commands may exit with a leak report, and they are never installed).
if(IBPM_SANITIZE OR IBPM_FUZZ)
  set(ibpm_man_default OFF)
else()
  set(ibpm_man_default ON)
endif()
option(IBPM_MAN_PAGES "Generate man pages with help2man" ${ibpm_man_default})
if(IBPM_MAN_PAGES)
  find_program(HELP2MAN_EXECUTABLE help2man)
  if(NOT HELP2MAN_EXECUTABLE)
    message(STATUS "help2man not found: no man pages (scripts/install-deps.sh installs it)")
  endif()
endif()

function(ibpm_add_man_page name description)
  if(NOT IBPM_MAN_PAGES OR NOT HELP2MAN_EXECUTABLE)
    return()
  endif()
  set(page ${PROJECT_BINARY_DIR}/man/${name}.1.gz)
  add_custom_command(
    OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} -DHELP2MAN=${HELP2MAN_EXECUTABLE} -DPROGRAM=$<TARGET_FILE:${name}>
            -DNAME=${name} -DDESCRIPTION=${description} -DOUTPUT=${page}
            -DVERSION=${PROJECT_VERSION}
            -P ${PROJECT_SOURCE_DIR}/cmake/help2man_page.cmake
    DEPENDS ${name} ${PROJECT_SOURCE_DIR}/cmake/help2man_page.cmake
    COMMENT "Man page of ${name}"
    VERBATIM)
  add_custom_target(man-${name} ALL DEPENDS ${page})
  install(FILES ${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endfunction()
