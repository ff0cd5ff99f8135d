// SPDX-License-Identifier: MIT

#include "history/window_coverage.hpp"

#include <algorithm>

namespace ibpm::history {

namespace {

// "45 s", "14 min", "3 h 20 min", "2 d 4 h": whole units, as a person reads a window.
std::string span(std::time_t seconds) {
  if (seconds < 120) return std::to_string(seconds) + " s";
  const std::time_t minutes = seconds / 60;
  if (minutes < 120) return std::to_string(minutes) + " min";
  const std::time_t hours = minutes / 60;
  if (hours < 48)
    return std::to_string(hours) + " h" +
           (minutes % 60 ? " " + std::to_string(minutes % 60) + " min" : "");
  return std::to_string(hours / 24) + " d" +
         (hours % 24 ? " " + std::to_string(hours % 24) + " h" : "");
}

}  // namespace

void WindowCoverage::add(const PortHistory& port) {
  if (port.step == 0) return;
  ++ports_read;
  if (!port.found) {
    if (step == 0) step = port.step;
    return;
  }
  ++ports_with_history;
  if (port.covered > covered || ports_with_history == 1) {
    covered = port.covered;
    step = port.step;
  }
}

void WindowCoverage::add_unreadable(const std::string& reason) {
  if (ports_unreadable++ == 0) first_unreadable = reason;
}

namespace {

// "64 ports failed, the first: REASON" ("1 port failed: REASON").
std::string failed_ports(const WindowCoverage& coverage, const char* verb) {
  const std::size_t n = coverage.ports_unreadable;
  return std::to_string(n) + (n == 1 ? " port " : " ports ") + verb +
         (n == 1 ? ": " : ", the first: ") + coverage.first_unreadable;
}

std::string describe_read(const WindowCoverage& coverage) {
  const std::time_t length = coverage.window.seconds();
  const std::string step = coverage.step ? "RRD step " + span(coverage.step) : "";
  if (coverage.unreadable())
    return "no history in the last " + span(length) +
           " could be read: " + failed_ports(coverage, "failed");
  if (coverage.none()) {
    std::string text = "no history in the last " + span(length) +
                       " yet (a rate needs two samples one RRD step apart";
    return text + (step.empty() ? ")" : "; " + step + ")");
  }
  // Rows are whole steps: a window that is not a multiple of the step still counts as covered.
  if (coverage.covered + coverage.step >= length)
    return "history for all of the last " + span(length) + " (" + step + ")";
  return "history for " + span(std::min(coverage.covered, length)) + " of the last " +
         span(length) + " (" + step + ")";
}

}  // namespace

std::string describe_coverage(const WindowCoverage& coverage) {
  std::string text = describe_read(coverage);
  if (coverage.ports_unreadable > 0 && !coverage.unreadable())
    text += "; " + failed_ports(coverage, "could not be read");
  return text;
}

}  // namespace ibpm::history
