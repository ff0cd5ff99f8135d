// SPDX-License-Identifier: MIT
// Small allocation-free helpers for scanning text lines held in string_views.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ibpm::dump::scan {

constexpr bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

constexpr std::string_view trim_left(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  return s;
}
constexpr std::string_view trim_right(std::string_view s) {
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}
constexpr std::string_view trim(std::string_view s) { return trim_right(trim_left(s)); }

// Removes and returns the next whitespace-separated token; empty at the end of s.
constexpr std::string_view next_token(std::string_view& s) {
  s = trim_left(s);
  std::size_t n = 0;
  while (n < s.size() && !is_space(s[n])) ++n;
  std::string_view token = s.substr(0, n);
  s.remove_prefix(n);
  return token;
}

// Decimal digits only (no sign, no spaces); nullopt if empty, malformed or out of range.
template <typename T>
std::optional<T> parse_dec(std::string_view s) {
  T value{};
  if (s.empty() || !is_digit(s.front())) return std::nullopt;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, 10);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return value;
}

// Hex digits with an optional 0x prefix; leading zeros are allowed (ibdiagnet pads vendid).
template <typename T>
std::optional<T> parse_hex(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  T value{};
  if (s.empty() || s.front() == '-' || s.front() == '+') return std::nullopt;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, 16);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return value;
}

// Like parse_dec/parse_hex but "0x" selects hex (LIDs are sometimes written in hex).
template <typename T>
std::optional<T> parse_number(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return parse_hex<T>(s);
  return parse_dec<T>(s);
}

}  // namespace ibpm::dump::scan
