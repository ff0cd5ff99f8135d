// SPDX-License-Identifier: MIT

#include "products/event_log.hpp"

#include <syslog.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <ctime>
#include <stdexcept>
#include <utility>

#include "base/locked_append.hpp"

namespace ibpm::products {

namespace {

struct Facility {
  const char* name;
  int value;
};

constexpr std::array<Facility, 10> kFacilities{{
    {"daemon", LOG_DAEMON},
    {"user", LOG_USER},
    {"local0", LOG_LOCAL0},
    {"local1", LOG_LOCAL1},
    {"local2", LOG_LOCAL2},
    {"local3", LOG_LOCAL3},
    {"local4", LOG_LOCAL4},
    {"local5", LOG_LOCAL5},
    {"local6", LOG_LOCAL6},
    {"local7", LOG_LOCAL7},
}};

std::string iso8601_utc(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace

int parse_syslog_facility(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const Facility& f : kFacilities)
    if (lower == f.name) return f.value;
  throw std::invalid_argument("unknown syslog facility '" + name +
                              "' (daemon, user or local0..local7)");
}

int syslog_level(const PortEvent& event) {
  switch (event.status.state) {
    case plugin::State::critical:
      return LOG_CRIT;
    case plugin::State::warning:
      return LOG_WARNING;
    case plugin::State::unknown:
      return LOG_ERR;
    case plugin::State::ok:
      break;
  }
  return LOG_NOTICE;
}

std::string event_line(const PortEvent& event, std::chrono::system_clock::time_point time) {
  return iso8601_utc(time) + " " + std::string(plugin::to_string(event.status.state)) + " " +
         event_message(event) + "\n";
}

EventLog::EventLog(EventLogOptions options) : options_(std::move(options)) {
  if (options_.syslog_facility)
    ::openlog(options_.syslog_ident.c_str(), LOG_PID, *options_.syslog_facility);
}

EventLog::~EventLog() {
  if (options_.syslog_facility) ::closelog();
}

void EventLog::write(const std::vector<PortEvent>& events,
                     std::chrono::system_clock::time_point time) const {
  if (events.empty()) return;
  if (options_.syslog_facility)
    for (const PortEvent& event : events)
      ::syslog(*options_.syslog_facility | syslog_level(event), "%s", event_message(event).c_str());
  if (options_.file.empty()) return;
  std::string lines;
  for (const PortEvent& event : events) lines += event_line(event, time);
  base::LockedAppend(options_.file).append(lines);
}

}  // namespace ibpm::products

namespace ibpm::products {

void EventLog::write_message(plugin::State state, const std::string& message,
                             std::chrono::system_clock::time_point time) const {
  PortEvent event;
  event.status.state = state;
  const std::string text = log_safe(message);
  if (options_.syslog_facility)
    ::syslog(*options_.syslog_facility | syslog_level(event), "%s", text.c_str());
  if (options_.file.empty()) return;
  base::LockedAppend(options_.file)
      .append(iso8601_utc(time) + " " + std::string(plugin::to_string(state)) + " " + text + "\n");
}

}  // namespace ibpm::products
