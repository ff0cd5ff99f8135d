# SPDX-License-Identifier: MIT
# CPack pre-build script: the RPM's staging folder moved from Debian's layout to RHEL's before
# rpmbuild reads it. The checks go to /usr/lib64/nagios/plugins (RHEL's $USER1$ and Icinga 2's
# PluginDir there), and every installed text that names the plugin folder says the new one. The
# DEB is left as installed.
if(NOT CPACK_GENERATOR STREQUAL "RPM")
  return()
endif()
set(root "${CPACK_TEMPORARY_DIRECTORY}")
if(NOT IS_DIRECTORY "${root}/usr/lib/nagios/plugins")
  message(FATAL_ERROR "rhel-layout: no usr/lib/nagios/plugins in ${root}")
endif()

file(MAKE_DIRECTORY "${root}/usr/lib64")
file(RENAME "${root}/usr/lib/nagios" "${root}/usr/lib64/nagios")
file(GLOB_RECURSE texts "${root}/etc/*" "${root}/usr/lib/systemd/*" "${root}/usr/share/ibpm/*")
foreach(path IN LISTS texts)
  file(READ "${path}" text)
  string(REPLACE "/usr/lib/nagios/plugins" "/usr/lib64/nagios/plugins" moved "${text}")
  if(NOT moved STREQUAL text)
    file(WRITE "${path}" "${moved}")
  endif()
endforeach()
