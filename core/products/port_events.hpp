// SPDX-License-Identifier: MIT
// Events for changes, not for conditions: a port that crosses a threshold is reported once when
// its state changes (OK -> CRITICAL, CRITICAL -> OK), not on every sweep while it stays so.
//
// The last state reported for each port is remembered by the caller (the sweep keeps it in its
// sample record, state/sample_record.hpp, beside the port's last sample).
#pragma once

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

// The event a port's state in this sweep gives against the state remembered for it (nullopt:
// nothing remembered), and `remembered` updated to what is remembered from now on. An event for:
//   - a port whose state differs from the remembered one;
//   - a port with nothing remembered whose state is not OK (current problems are reported once
//     after installation; OK ports are just remembered).
// A port collecting its baseline in state OK gives no event: it is remembered as OK when nothing
// is remembered, and what is remembered stays otherwise (it says nothing new yet).
std::optional<PortEvent> state_change(const PortStatus& status,
                                      std::optional<plugin::State>& remembered);

// "leaf01[3] <-> spine02[1] (0x0002c90300001234 port 3): OK -> CRITICAL: symbol_errors 12/s > 10/s"
// ("...: CRITICAL: ..." when nothing was remembered). Fabric-derived text is made safe for logs.
std::string event_message(const PortEvent& event);

// The text with invalid UTF-8 replaced by U+FFFD and every control character (C0 including
// newline, CR, tab and ESC; DEL; C1) replaced by a space: a NodeDescription must not be able to
// start a fake log line or send terminal escapes.
std::string log_safe(std::string_view text);

}  // namespace ibpm::products
