// SPDX-License-Identifier: MIT

#include "dump/warning_log.hpp"

namespace ibpm::dump {
namespace {

std::string_view kind_name(WarningKind kind) {
  switch (kind) {
    case WarningKind::junk_line:
      return "skipped line";
    case WarningKind::long_line:
      return "over-long line";
    case WarningKind::bogus_lid:
      return "bogus LID";
    case WarningKind::link_speed:
      return "unreadable width/speed";
    case WarningKind::link_conflict:
      return "conflicting cable";
    case WarningKind::unrecorded_node:
      return "node without a record";
    case WarningKind::record_mismatch:
      return "inconsistent record";
    case WarningKind::port_range:
      return "port beyond the port count";
    case WarningKind::incomplete:
      return "incomplete input";
    case WarningKind::other:
    case WarningKind::count_:
      break;
  }
  return "other";
}

}  // namespace

void WarningLog::add(WarningKind kind, std::size_t line, std::string_view message) {
  std::size_t& n = counts_[static_cast<std::size_t>(kind)];
  if (++n > kMaxPerKind) return;
  std::string text = origin_;
  text += ':';
  text += std::to_string(line);
  text += ": ";
  text += message;
  if ((kind == WarningKind::incomplete || kind == WarningKind::unrecorded_node) && incomplete_)
    incomplete_->push_back(text);
  out_.push_back(std::move(text));
}

void WarningLog::finish() {
  for (std::size_t k = 0; k < counts_.size(); ++k) {
    std::size_t n = counts_[k];
    if (n <= kMaxPerKind) continue;
    out_.push_back(origin_ + ": " + std::to_string(n - kMaxPerKind) + " more \"" +
                   std::string(kind_name(static_cast<WarningKind>(k))) +
                   "\" warnings not listed (" + std::to_string(n) + " in all)");
  }
}

std::string excerpt(std::string_view text, std::size_t max_chars) {
  std::string out;
  for (char c : text.substr(0, max_chars)) {
    unsigned char u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  if (text.size() > max_chars) out += "...";
  return out;
}

}  // namespace ibpm::dump
