# SPDX-License-Identifier: MIT
# ibpm_embed_files(OUTPUT FILE.cpp HEADER x.hpp NAMESPACE a::b NAMES n1 n2 FILES f1 f2
#                  COMMENT text): generates FILE.cpp holding each file as a string_view constant
# of NAMESPACE (declared in HEADER), so static files ship inside the executable.
function(ibpm_embed_files)
  cmake_parse_arguments(E "" "OUTPUT;HEADER;NAMESPACE;COMMENT" "NAMES;FILES" ${ARGN})
  # Lists travel as "|"-separated text: a ";" would split the command line.
  string(REPLACE ";" "|" names "${E_NAMES}")
  string(REPLACE ";" "|" files "${E_FILES}")
  add_custom_command(
    OUTPUT ${E_OUTPUT}
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${E_OUTPUT}" "-DHEADER=${E_HEADER}"
            "-DNAMESPACE=${E_NAMESPACE}" "-DNAMES=${names}" "-DFILES=${files}"
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
    DEPENDS ${E_FILES} ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
    VERBATIM
    COMMENT "${E_COMMENT}")
endfunction()
