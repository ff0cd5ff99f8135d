# SPDX-License-Identifier: MIT
# What keeps a build short on a small machine (see README "Development" for the figures, and
# scripts/build-times.sh to measure them):
# - ccache, when installed and no other launcher is set: a second build folder or a branch switch
#   recompiles only what changed. (Debug info names no build folder, so folders share the cache when
#   ccache's hash_dir is off.)
# - line tables only (-g1) in RelWithDebInfo and Debug: backtraces and sanitizer reports keep their
#   file:line, and the compiler spends about a third less on CLI11's and Boost's templates.
#   -DIBPM_FULL_DEBUG_INFO=ON for full debug info (variables in gdb).
# - Catch2's header precompiled once and reused by every test (ibpm_use_catch_pch).
# - unity builds: the sources of each library, command and test group are compiled
#   IBPM_UNITY_BATCH_SIZE at a time as one translation unit, so the headers they share (CLI11,
#   Boost, the standard library) are parsed, and their inline functions generated, once per batch
#   instead of once per file.
#   -DIBPM_UNITY_BUILD=OFF compiles file by file (each edit then recompiles one file, not its
#   batch). A file that cannot join its neighbours says so with SKIP_UNITY_BUILD_INCLUSION.
# - the test cases in three executables (tests/CMakeLists.txt): one link each instead of one per
#   test group.
option(IBPM_FULL_DEBUG_INFO "Full debug info (-g) instead of line tables (-g1)" OFF)
option(IBPM_UNITY_BUILD "Compile each library, command and test group as unity sources" ON)
set(IBPM_UNITY_BATCH_SIZE 16 CACHE STRING "Sources per unity translation unit (0: a whole target)")
if(IBPM_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE ${IBPM_UNITY_BATCH_SIZE})
endif()

find_program(IBPM_CCACHE ccache)
if(IBPM_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER AND NOT IBPM_FUZZ)
  # Precompiled headers are cached only with this sloppiness (ccache's manual, "Precompiled headers").
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env
      CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime ${IBPM_CCACHE})
  message(STATUS "ccache: ${IBPM_CCACHE}")
endif()

if(NOT IBPM_FULL_DEBUG_INFO)
  # After CMAKE_CXX_FLAGS_<CONFIG> on the command line, so it wins over their -g.
  add_compile_options($<$<CONFIG:RelWithDebInfo,Debug>:-g1>)
endif()

# The test executables take Catch2's header from ibpm_catch_pch's precompiled header (tests/).
function(ibpm_use_catch_pch target)
  if(TARGET ibpm_catch_pch AND NOT IBPM_FUZZ)
    target_precompile_headers(${target} REUSE_FROM ibpm_catch_pch)
  endif()
endfunction()
