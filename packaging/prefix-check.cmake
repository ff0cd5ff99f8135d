# SPDX-License-Identifier: MIT
# CPack pre-build script: the packages are laid out for the prefix /usr (the units, the
# configuration and the conffiles name /usr/lib/nagios/plugins, /usr/bin and /etc/ibpm, written
# when the build was configured). A build configured for another prefix would make a package
# that installs into it (/usr/local by default): refused, with the way to make a good one.
if(NOT CPACK_IBPM_BUILD_PREFIX STREQUAL "/usr")
  message(FATAL_ERROR "ibpm packages: this build is configured for the prefix "
                      "${CPACK_IBPM_BUILD_PREFIX}, the packages install into /usr: configure "
                      "with -DCMAKE_INSTALL_PREFIX=/usr (a build folder of its own) and run cpack "
                      "there")
endif()
