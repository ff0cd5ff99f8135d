// Events for changes, not for conditions: a port that crosses a threshold is reported once when
// its state changes (OK -> CRITICAL, CRITICAL -> OK), not on every sweep while it stays so.
//
// The last state of each port is remembered in one small text file per node,
// STATE_DIR/0x<guid>/alerts, one "PORT STATE" line per port ("3 CRITICAL"). It is read and
// rewritten under the node's lock (the one the port state uses), and replaced atomically only
// when something in it changed. Collectors that own different ports of one node share the file:
// a rewrite keeps the lines of the ports this run did not look at.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fabric/types.hpp"
#include "plugin/state.hpp"

namespace ibpm::products {

// A port's state in this sweep, as the report gave it.
struct PortStatus {
  Guid node = 0;
  PortNumber port = 0;
  plugin::State state = plugin::State::ok;
  bool baseline = false;  // first sample: nothing to compare with yet
  std::string cable;      // "leaf01[3] <-> spine02[1]"
  std::string detail;     // "symbol_errors 12/s > 10/s"
};

struct PortEvent {
  PortStatus status;
  std::optional<plugin::State> before;  // nullopt: nothing remembered (first sweep)
};

struct RecordedStates {
  std::vector<PortEvent> events;      // in the order of the statuses
  std::vector<std::string> warnings;  // "PATH: reason": alerts files ignored or not written
};

// STATE_DIR/0x<16 hex digits>/alerts.
std::string alerts_path(const std::string& state_dir, Guid node);

// Compares each port's state with the remembered one and remembers the new one. An event for:
//   - a port whose state differs from the remembered one;
//   - a port with nothing remembered whose state is not OK (current problems are reported once
//     after installation; OK ports are just remembered).
// A port collecting its baseline in state OK gives no event: it is remembered as OK when nothing
// is remembered, and what is remembered stays otherwise (it says nothing new yet).
// Nodes are locked one at a time, waiting until `deadline`; a node whose lock is not had in time
// is skipped with a warning (its ports are compared next time). An unreadable or corrupt alerts
// file is treated as empty and rewritten, with a warning. A file that cannot be written gives a
// warning; its events are still returned. Must not be called while holding a node's lock.
// Throws std::invalid_argument for an empty state_dir.
RecordedStates record_states(const std::string& state_dir, const std::vector<PortStatus>& statuses,
                             std::chrono::steady_clock::time_point deadline);

// "leaf01[3] <-> spine02[1] (0x0002c90300001234 port 3): OK -> CRITICAL: symbol_errors 12/s > 10/s"
// ("...: CRITICAL: ..." when nothing was remembered). Fabric-derived text is made safe for logs.
std::string event_message(const PortEvent& event);

// The text with invalid UTF-8 replaced by U+FFFD and every control character (C0 including
// newline, CR, tab and ESC; DEL; C1) replaced by a space: a NodeDescription must not be able to
// start a fake log line or send terminal escapes.
std::string log_safe(std::string_view text);

}  // namespace ibpm::products
