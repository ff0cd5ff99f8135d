// SPDX-License-Identifier: MIT
// Where port events go: syslog (one message each, its priority by the new state) and/or a file
// other collectors may append to as well (one line each: UTC time, state, message).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "products/port_events.hpp"

namespace ibpm::products {

// LOG_DAEMON, LOG_USER, LOG_LOCAL0..LOG_LOCAL7 from "daemon", "user", "local0".."local7"
// (case-insensitive). Throws std::invalid_argument for any other name.
int parse_syslog_facility(const std::string& name);

// LOG_CRIT for CRITICAL, LOG_WARNING for WARNING, LOG_ERR for UNKNOWN, LOG_NOTICE for OK (a
// recovery).
int syslog_level(const PortEvent& event);

// "2024-05-01T12:00:00Z CRITICAL MESSAGE\n".
std::string event_line(const PortEvent& event, std::chrono::system_clock::time_point time);

struct EventLogOptions {
  std::optional<int> syslog_facility;  // nullopt: no syslog
  std::string syslog_ident = "check_ib_fabric";
  std::string file;  // empty: no file
};

class EventLog {
 public:
  // Opens the syslog connection (openlog with LOG_PID) when a facility is given.
  explicit EventLog(EventLogOptions options);
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;
  ~EventLog();  // closelog

  // Sends every event to the sinks; the file gets all lines in one locked append. Throws
  // std::runtime_error naming the file when it cannot be written (syslog itself cannot fail).
  void write(const std::vector<PortEvent>& events,
             std::chrono::system_clock::time_point time = std::chrono::system_clock::now()) const;

  // One event that is not a port's (a subnet manager's failover): `message` made log-safe, at
  // the priority of `state`, in the same file format.
  void write_message(
      plugin::State state, const std::string& message,
      std::chrono::system_clock::time_point time = std::chrono::system_clock::now()) const;

 private:
  EventLogOptions options_;  // openlog keeps a pointer to the ident: it lives here
};

}  // namespace ibpm::products
