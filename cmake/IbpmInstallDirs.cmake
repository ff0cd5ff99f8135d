# SPDX-License-Identifier: MIT
# Where an install puts each kind of file: the layout of a monitoring plugin package.
#   IBPM_PLUGIN_DIR    the check_ib_* plugins: where Nagios 4's $USER1$ and Icinga 2's PluginDir
#                      point on Debian (the RPM moves them to lib64/, see packaging/rhel-layout.cmake)
#   IBPM_ICINGA_CONTRIB_DIR  CheckCommands found by Icinga 2's `include <plugins-contrib>`
#   IBPM_SYSTEMD_DIR   unit files;  IBPM_SHARE_DIR  Nagios files, the udev rule, examples
# Relative paths are under CMAKE_INSTALL_PREFIX (/usr for the packages: the units go to
# /usr/lib/systemd/system, where lintian and RHEL want them); /etc/ibpm follows the prefix /usr
# as GNUInstallDirs has it (SYSCONFDIR is /etc for that prefix).
set(IBPM_PLUGIN_DIR "lib/nagios/plugins" CACHE STRING "Where the check_ib_* plugins are installed")
set(IBPM_ICINGA_CONTRIB_DIR "${CMAKE_INSTALL_DATADIR}/icinga2/include/plugins-contrib.d"
    CACHE STRING "Where the Icinga 2 CheckCommands are installed")
set(IBPM_SYSTEMD_DIR "lib/systemd/system" CACHE STRING "Where the systemd units are installed")
set(IBPM_SHARE_DIR "${CMAKE_INSTALL_DATADIR}/ibpm")
set(IBPM_CONFIG_DIR "${CMAKE_INSTALL_FULL_SYSCONFDIR}/ibpm")
set(IBPM_STATE_DIR "/var/lib/ibpm")

# The plugin folder as the installed system sees it (for configuration files that name it).
if(IS_ABSOLUTE "${IBPM_PLUGIN_DIR}")
  set(IBPM_FULL_PLUGIN_DIR "${IBPM_PLUGIN_DIR}")
else()
  set(IBPM_FULL_PLUGIN_DIR "${CMAKE_INSTALL_PREFIX}/${IBPM_PLUGIN_DIR}")
endif()
