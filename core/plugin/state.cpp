// SPDX-License-Identifier: MIT

#include "plugin/state.hpp"

#include <CLI/CLI.hpp>
#include <vector>

namespace ibpm::plugin {

int severity(State state) {
  switch (state) {
    case State::ok:
      return 0;
    case State::unknown:
      return 1;
    case State::warning:
      return 2;
    case State::critical:
      return 3;
  }
  return 1;  // out-of-range value: treat like UNKNOWN
}

State worst(State a, State b) { return severity(b) > severity(a) ? b : a; }

std::string_view to_string(State state) {
  switch (state) {
    case State::ok:
      return "OK";
    case State::warning:
      return "WARNING";
    case State::critical:
      return "CRITICAL";
    case State::unknown:
      break;
  }
  return "UNKNOWN";
}

namespace {

std::string lower_name(State state) { return CLI::detail::to_lower(std::string(to_string(state))); }

}  // namespace

std::optional<State> parse_state(std::string_view text) {
  const std::string name = CLI::detail::to_lower(std::string(text));
  for (const State state : {State::ok, State::warning, State::critical, State::unknown})
    if (name == lower_name(state)) return state;
  return std::nullopt;
}

OptionRef add_state_option(CLI::App& app, const std::string& name, State& target,
                           std::initializer_list<State> accepted, const std::string& help) {
  std::vector<std::string> names;
  for (const State state : accepted) names.push_back(lower_name(state));
  return app
      .add_option_function<std::string>(
          name, [&target](const std::string& text) { target = *parse_state(text); }, help)
      ->check(CLI::IsMember(names, CLI::ignore_case))
      ->default_str(lower_name(target));
}

}  // namespace ibpm::plugin
