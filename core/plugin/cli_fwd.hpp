// SPDX-License-Identifier: MIT
// The CLI11 types the option-adding functions take, declared without CLI11 itself: its header
// costs about 5 s of compile time in every file that includes it (CLI11 2.1 compiles its whole
// implementation inline), so the commands and the other layers add their options through
// plugin/add_option.hpp and only core/plugin includes <CLI/CLI.hpp>.
#pragma once

namespace CLI {
class App;
class Option;
}  // namespace CLI
