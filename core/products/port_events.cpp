// SPDX-License-Identifier: MIT

#include "products/port_events.hpp"

#include "base/text.hpp"

namespace ibpm::products {

using plugin::State;

std::optional<PortEvent> state_change(const PortStatus& status, std::optional<State>& remembered) {
  const std::optional<State> before = remembered;
  if (status.baseline && status.state == State::ok) {
    if (!before) remembered = State::ok;
    return std::nullopt;
  }
  if (before == status.state) return std::nullopt;
  remembered = status.state;
  if (!before && status.state == State::ok) return std::nullopt;
  return PortEvent{status, before};
}

std::string log_safe(std::string_view text) {
  std::string safe = base::valid_utf8(text);
  std::string out;
  out.reserve(safe.size());
  for (std::size_t i = 0; i < safe.size(); ++i) {
    const auto byte = static_cast<unsigned char>(safe[i]);
    // C1 controls U+0080..U+009F are 0xC2 0x80..0x9F in UTF-8.
    const bool c1 = byte == 0xC2 && i + 1 < safe.size() &&
                    static_cast<unsigned char>(safe[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(safe[i + 1]) <= 0x9F;
    if (byte < 0x20 || byte == 0x7F || c1) {
      out += ' ';
      if (c1) ++i;
    } else {
      out += safe[i];
    }
  }
  return out;
}

std::string event_message(const PortEvent& event) {
  const PortStatus& s = event.status;
  std::string where = format_guid(s.node) + " port " + std::to_string(s.port);
  std::string message = s.cable.empty() ? where : log_safe(s.cable) + " (" + where + ")";
  message += ": ";
  if (event.before) message += std::string(plugin::to_string(*event.before)) + " -> ";
  message += plugin::to_string(s.state);
  if (!s.detail.empty()) message += ": " + log_safe(s.detail);
  return message;
}

}  // namespace ibpm::products
