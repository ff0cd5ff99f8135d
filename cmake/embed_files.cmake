# SPDX-License-Identifier: MIT
# cmake -DOUTPUT=FILE.cpp -DHEADER=x.hpp -DNAMESPACE=a::b -DNAMES="a|b" -DFILES="path_a|path_b"
#       -P embed_files.cmake
# Writes the files as string_view constants of namespace NAMESPACE, declared in HEADER, so static
# files (configuration templates, a web site's style and script) ship inside the executable.
string(REPLACE "|" ";" NAMES "${NAMES}")
string(REPLACE "|" ";" FILES "${FILES}")
set(text "// Generated from static files by embed_files.cmake.\n")
string(APPEND text "#include \"${HEADER}\"\n\nnamespace ${NAMESPACE} {\n\n")
list(LENGTH NAMES count)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  list(GET NAMES ${i} name)
  list(GET FILES ${i} file)
  file(READ ${file} content)
  string(APPEND text "const std::string_view ${name} = R\"ibpm_embedded(${content})ibpm_embedded\";\n\n")
endforeach()
string(APPEND text "}  // namespace ${NAMESPACE}\n")
file(WRITE ${OUTPUT}.tmp "${text}")
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
