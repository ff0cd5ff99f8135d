# SPDX-License-Identifier: MIT
# ibpm_add_command(NAME source...): one thin executable on the shared core, built into bin/.
# Installed where its kind belongs: check_ib_* plugins into IBPM_PLUGIN_DIR (where the monitoring
# server looks for plugins), the ibpm-* tools into bin/. The list of installed commands is kept
# (global property IBPM_INSTALLED_COMMANDS) for the man pages.
function(ibpm_install_command name)
  set_property(GLOBAL APPEND PROPERTY IBPM_INSTALLED_COMMANDS ${name})
  if(name MATCHES "^check_")
    install(TARGETS ${name} RUNTIME DESTINATION ${IBPM_PLUGIN_DIR})
  else()
    install(TARGETS ${name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endfunction()

function(ibpm_add_command name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE ibpm::core CLI11::CLI11)
  # Nagios starts a check every few seconds: resolving libstdc++'s thousands of symbols at each
  # start costs more than a check's own work, so the C++ runtime is linked in (not under the
  # sanitizers, whose runtimes expect the shared one).
  if(NOT IBPM_SANITIZE)
    target_link_options(${name} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
  ibpm_install_command(${name})
endfunction()

# ibpm_add_standalone_command(NAME source...): a command without the shared core (ibpm::core
# links librrd through its state layer): the caller links what it needs. ibpm-draw, which links
# Graphviz, is one (viz/CMakeLists.txt says why).
function(ibpm_add_standalone_command name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE CLI11::CLI11)
  if(NOT IBPM_SANITIZE)
    target_link_options(${name} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
  ibpm_install_command(${name})
endfunction()

# ibpm_add_graphing_command(NAME source...): a command that draws RRD graphs. The shared librrd
# goes first on the link line, so every librrd symbol (graphing and the rest) comes from it,
# never from the static copy the checks link for their start-up time.
function(ibpm_add_graphing_command name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE PkgConfig::RRD ibpm_graphs ibpm::core CLI11::CLI11)
  if(NOT IBPM_SANITIZE)
    target_link_options(${name} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
  ibpm_install_command(${name})
endfunction()
