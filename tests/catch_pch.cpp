// SPDX-License-Identifier: MIT
// Empty: its target, ibpm_catch_pch, carries the precompiled Catch2 header every test reuses
// (cmake/IbpmBuildSpeed.cmake). catch_main.cpp cannot carry it: it defines CATCH_CONFIG_MAIN first.
