# SPDX-License-Identifier: MIT
# cmake -DHELP2MAN=... -DPROGRAM=... -DNAME=... -DDESCRIPTION=... -DVERSION=... -DOUTPUT=FILE.1.gz
#       -P help2man_page.cmake
# One man page from a command's own --help and --version, gzipped as Debian's policy wants.
# The checks answer --help with exit code 3 (UNKNOWN, as the plugin guidelines say), which
# help2man takes for a failure: it runs them through a wrapper that turns 3 into 0.
get_filename_component(work "${OUTPUT}" DIRECTORY)
set(wrapper_dir "${work}/help2man-${NAME}")
file(MAKE_DIRECTORY "${wrapper_dir}")
file(WRITE "${wrapper_dir}/${NAME}"
     "#!/bin/sh\n\"${PROGRAM}\" \"$@\"\nrc=$?\n[ $rc -eq 3 ] && exit 0\nexit $rc\n")
file(CHMOD "${wrapper_dir}/${NAME}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
     GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
string(REGEX REPLACE "\\.gz$" "" page "${OUTPUT}")
execute_process(
  COMMAND "${HELP2MAN}" --no-info --section 1 --name "${DESCRIPTION}"
          --source "ibpm ${VERSION}" --manual "ibpm commands" --output "${page}" "${wrapper_dir}/${NAME}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed for ${NAME}")
endif()
execute_process(COMMAND gzip -9nf "${page}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip failed for ${page}")
endif()
file(REMOVE_RECURSE "${wrapper_dir}")
