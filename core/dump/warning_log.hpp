// SPDX-License-Identifier: MIT
// Collects parser warnings as "origin:LINE: message", keeping at most a fixed number per kind so a
// dump with thousands of identical problems (every LID 0) or a garbage file stays small; the rest
// are summarised by count at the end.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ibpm::dump {

enum class WarningKind {
  junk_line,
  long_line,
  bogus_lid,
  link_speed,
  link_conflict,
  unrecorded_node,
  record_mismatch,
  port_range,
  incomplete,  // nodes or cables may be lost: a GUID twice, GUID 0, a one-sided cable
  other,
  count_  // number of kinds
};

class WarningLog {
 public:
  static constexpr std::size_t kMaxPerKind = 25;

  // `incomplete`, when given, gets a copy of every listed warning of kinds incomplete and
  // unrecorded_node (a node known only as a peer: its record is missing).
  WarningLog(std::string origin, std::vector<std::string>& out,
             std::vector<std::string>* incomplete = nullptr)
      : origin_(std::move(origin)), out_(out), incomplete_(incomplete) {}

  void add(WarningKind kind, std::size_t line, std::string_view message);

  // Appends one summary line per kind that hit the limit.
  void finish();

  const std::string& origin() const { return origin_; }

 private:
  std::string origin_;
  std::vector<std::string>& out_;
  std::vector<std::string>* incomplete_;
  std::array<std::size_t, static_cast<std::size_t>(WarningKind::count_)> counts_{};
};

// At most max_chars of text, with control bytes shown as '?', for quoting input in messages.
std::string excerpt(std::string_view text, std::size_t max_chars = 60);

}  // namespace ibpm::dump
