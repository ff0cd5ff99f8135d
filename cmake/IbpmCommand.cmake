# ibpm_add_command(NAME source...): one thin executable on the shared core,
# built into bin/ and installed into bin/.
function(ibpm_add_command name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE ibpm::core CLI11::CLI11)
  install(TARGETS ${name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()
