// SPDX-License-Identifier: MIT
// Plugin states and how they combine.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "plugin/add_option.hpp"

namespace ibpm::plugin {

// The numeric values are the Monitoring Plugins exit codes.
enum class State : int { ok = 0, warning = 1, critical = 2, unknown = 3 };

// Severity order used when states are combined:
//
//   CRITICAL > WARNING > UNKNOWN > OK
//
// This is monitoring-plugins' max_state_alt() (the ordering its newer output API uses
// to derive a check's state from its subchecks), not the classic max_state(), which
// ranks OK above UNKNOWN. A definite problem outranks "could not tell", and "could not
// tell" outranks "fine", so one unreadable port never hides a broken link and never
// lets the whole check report OK.
int severity(State state);  // OK 0, UNKNOWN 1, WARNING 2, CRITICAL 3

// The more severe of the two by the ordering above.
State worst(State a, State b);

// "OK", "WARNING", "CRITICAL", "UNKNOWN".
std::string_view to_string(State state);

constexpr int exit_code(State state) { return static_cast<int>(state); }

// A state by its name in any case ("ok", "Warning", "CRITICAL", "unknown"); nullopt for
// anything else.
std::optional<State> parse_state(std::string_view text);

// An option NAME taking one of the `accepted` states by name, in any case, into `target`; its
// default shown is `target`'s value now. The caller adds the group.
OptionRef add_state_option(CLI::App& app, const std::string& name, State& target,
                           std::initializer_list<State> accepted, const std::string& help);

}  // namespace ibpm::plugin
