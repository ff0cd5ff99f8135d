#include "plugin/state.hpp"

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

}  // namespace ibpm::plugin
