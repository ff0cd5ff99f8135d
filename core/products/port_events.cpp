#include "products/port_events.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>
#include <stdexcept>

#include "plugin/text.hpp"
#include "state/directories.hpp"
#include "state/node_locks.hpp"
#include "state/state_error.hpp"
#include "topology/atomic_file.hpp"

namespace ibpm::products {

namespace {

using plugin::State;
using PortStates = std::map<PortNumber, State>;

std::string node_dir(const std::string& state_dir, Guid node) {
  std::string dir = state_dir;
  if (dir.empty() || dir.back() != '/') dir += '/';
  return dir + format_guid(node);
}

// The whole file; nullopt when there is none. Throws std::runtime_error("PATH: reason").
std::optional<std::string> read_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  }
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      throw std::runtime_error(path + ": cannot read: " + std::strerror(error));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

std::optional<State> parse_state(std::string_view text) {
  for (const State s : {State::ok, State::warning, State::critical, State::unknown})
    if (plugin::to_string(s) == text) return s;
  return std::nullopt;
}

struct AlertLine {
  PortNumber port;
  State state;
};

std::optional<AlertLine> parse_line(std::string_view line) {
  const std::size_t space = line.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const char* number_end = line.data() + space;
  unsigned port = 0;
  const auto [rest, ec] = std::from_chars(line.data(), number_end, port);
  if (ec != std::errc{} || rest != number_end || port > 255) return std::nullopt;
  const auto state = parse_state(line.substr(space + 1));
  if (!state) return std::nullopt;
  return AlertLine{static_cast<PortNumber>(port), *state};
}

// "PORT STATE" lines; throws std::invalid_argument naming the first bad line.
PortStates parse_alerts(std::string_view text) {
  PortStates states;
  std::size_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    const std::size_t end = std::min(text.find('\n'), text.size());
    const std::optional<AlertLine> line = parse_line(text.substr(0, end));
    text.remove_prefix(std::min(end + 1, text.size()));
    const std::string where = "line " + std::to_string(line_number);
    if (!line) throw std::invalid_argument(where + " is not \"PORT STATE\"");
    if (!states.emplace(line->port, line->state).second)
      throw std::invalid_argument(where + " repeats port " + std::to_string(line->port));
  }
  return states;
}

std::string format_alerts(const PortStates& states) {
  std::string text;
  for (const auto& [port, state] : states)
    text += std::to_string(port) + " " + std::string(plugin::to_string(state)) + "\n";
  return text;
}

// What is remembered for the node; empty (with a warning) when the file cannot be used.
// `rewrite` is set when the file must be replaced even if no state changes.
PortStates read_alerts(const std::string& path, std::vector<std::string>& warnings, bool& rewrite) {
  try {
    const std::optional<std::string> text = read_file(path);
    return text ? parse_alerts(*text) : PortStates{};
  } catch (const std::invalid_argument& e) {
    warnings.push_back(path + ": corrupt (" + e.what() + "), starting afresh");
  } catch (const std::runtime_error& e) {
    warnings.push_back(std::string(e.what()) + ", starting afresh");
  }
  rewrite = true;
  return {};
}

// The event a port's new status gives against what is remembered, if any; updates `remembered`.
std::optional<PortEvent> compare(const PortStatus& status, PortStates& remembered, bool& changed) {
  const auto found = remembered.find(status.port);
  const std::optional<State> before =
      found == remembered.end() ? std::nullopt : std::optional<State>(found->second);
  if (status.baseline && status.state == State::ok) {
    if (!before) {
      remembered[status.port] = State::ok;
      changed = true;
    }
    return std::nullopt;
  }
  if (before == status.state) return std::nullopt;
  remembered[status.port] = status.state;
  changed = true;
  if (!before && status.state == State::ok) return std::nullopt;
  return PortEvent{status, before};
}

}  // namespace

std::string alerts_path(const std::string& state_dir, Guid node) {
  return node_dir(state_dir, node) + "/alerts";
}

RecordedStates record_states(const std::string& state_dir, const std::vector<PortStatus>& statuses,
                             std::chrono::steady_clock::time_point deadline) {
  if (state_dir.empty()) throw std::invalid_argument("empty state directory");
  // Each node's statuses, by index so the events come out in the input's order.
  std::map<Guid, std::vector<std::size_t>> by_node;
  for (std::size_t i = 0; i < statuses.size(); ++i) by_node[statuses[i].node].push_back(i);

  RecordedStates recorded;
  std::vector<std::optional<PortEvent>> events(statuses.size());
  for (const auto& [node, indexes] : by_node) {
    state::NodeLocks lock;
    try {
      lock = state::NodeLocks::acquire(state_dir, {node}, deadline);
      state::make_directories(node_dir(state_dir, node));
    } catch (const state::StateError& e) {
      recorded.warnings.push_back(std::string(e.what()) + ": port states not compared");
      continue;
    }
    const std::string path = alerts_path(state_dir, node);
    bool changed = false;
    PortStates remembered = read_alerts(path, recorded.warnings, changed);
    for (const std::size_t i : indexes) events[i] = compare(statuses[i], remembered, changed);
    if (!changed) continue;
    try {
      replace_file_with(path, [&](std::ostream& out) { out << format_alerts(remembered); });
    } catch (const std::runtime_error& e) {
      recorded.warnings.push_back(std::string(e.what()) + " (port states not remembered)");
    }
  }
  for (auto& event : events)
    if (event) recorded.events.push_back(std::move(*event));
  return recorded;
}

std::string log_safe(std::string_view text) {
  std::string safe = plugin::valid_utf8(text);
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
