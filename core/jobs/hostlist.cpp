// SPDX-License-Identifier: MIT

#include "jobs/hostlist.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

namespace ibpm::jobs {

namespace {

[[noreturn]] void fail(std::string_view expression, const std::string& why) {
  throw HostlistError("hostlist '" + std::string(expression) + "': " + why);
}

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

unsigned long long number(std::string_view whole, std::string_view digits) {
  unsigned long long value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc{} || end != digits.data() + digits.size())
    fail(whole, "number '" + std::string(digits) + "' too large");
  return value;
}

std::string padded(unsigned long long value, std::size_t width) {
  std::string text = std::to_string(value);
  if (text.size() < width) text.insert(0, width - text.size(), '0');
  return text;
}

// The values a bracket's content stands for: "0001-0004,0007".
std::vector<std::string> bracket_values(std::string_view whole, std::string_view content) {
  std::vector<std::string> values;
  std::size_t start = 0;
  while (start <= content.size()) {
    std::size_t comma = content.find(',', start);
    if (comma == std::string_view::npos) comma = content.size();
    const std::string_view part = content.substr(start, comma - start);
    const std::size_t dash = part.find('-');
    const std::string_view low = part.substr(0, dash);
    const std::string_view high = dash == std::string_view::npos ? low : part.substr(dash + 1);
    if (!all_digits(low) || !all_digits(high))
      fail(whole, "'" + std::string(part) + "' is not a number or a range N-M");
    const unsigned long long a = number(whole, low), b = number(whole, high);
    if (b < a) fail(whole, "range '" + std::string(part) + "' runs backwards");
    if (b - a >= kMaxHostlistHosts) fail(whole, "range '" + std::string(part) + "' is too large");
    for (unsigned long long v = a; v <= b; ++v) values.push_back(padded(v, low.size()));
    start = comma + 1;
  }
  return values;
}

// One name with brackets ("r[1-2]n[01-02]") into `out`.
void expand_name(std::string_view whole, std::string_view name, std::vector<std::string>& out) {
  std::vector<std::string> partial{""};
  std::size_t at = 0;
  while (at < name.size()) {
    const std::size_t open = name.find('[', at);
    const std::string_view literal =
        name.substr(at, open == std::string_view::npos ? name.npos : open - at);
    if (literal.find(']') != std::string_view::npos) fail(whole, "']' without '['");
    for (std::string& p : partial) p += literal;
    if (open == std::string_view::npos) break;
    const std::size_t close = name.find(']', open);
    if (close == std::string_view::npos) fail(whole, "'[' without ']'");
    const auto values = bracket_values(whole, name.substr(open + 1, close - open - 1));
    if (partial.size() * values.size() > kMaxHostlistHosts)
      fail(whole, "more than " + std::to_string(kMaxHostlistHosts) + " hosts");
    std::vector<std::string> next;
    next.reserve(partial.size() * values.size());
    for (const std::string& p : partial)
      for (const std::string& v : values) next.push_back(p + v);
    partial = std::move(next);
    at = close + 1;
  }
  if (out.size() + partial.size() > kMaxHostlistHosts)
    fail(whole, "more than " + std::to_string(kMaxHostlistHosts) + " hosts");
  out.insert(out.end(), partial.begin(), partial.end());
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view expression) {
  std::vector<std::string> hosts;
  if (expression.empty()) return hosts;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i <= expression.size(); ++i) {
    const char c = i < expression.size() ? expression[i] : ',';
    if (c == '[') {
      if (++depth > 1) fail(expression, "nested '['");
    } else if (c == ']') {
      if (--depth < 0) fail(expression, "']' without '['");
    } else if (c == ',' && depth == 0) {
      const std::string_view name = expression.substr(start, i - start);
      if (name.empty()) fail(expression, "an empty host name");
      expand_name(expression, name, hosts);
      start = i + 1;
    } else if (c == ' ' || c == '\t') {
      fail(expression, "a blank inside");
    }
  }
  if (depth != 0) fail(expression, "'[' without ']'");
  return hosts;
}

std::string compress_hostlist(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  // prefix and digit count -> numbers; names without digits at the end stand alone.
  std::map<std::pair<std::string, std::size_t>, std::vector<unsigned long>> groups;
  std::vector<std::string> plain;
  for (const auto& name : names) {
    std::size_t digits = name.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
    if (digits == name.size() || name.size() - digits > 9) {
      plain.push_back(name);
      continue;
    }
    groups[{name.substr(0, digits), name.size() - digits}].push_back(
        std::stoul(name.substr(digits)));
  }
  std::vector<std::string> parts = plain;
  for (auto& [key, numbers] : groups) {
    const auto& [prefix, width] = key;
    std::sort(numbers.begin(), numbers.end());
    if (numbers.size() == 1) {
      parts.push_back(prefix + padded(numbers[0], width));
      continue;
    }
    std::string ranges;
    for (std::size_t i = 0; i < numbers.size();) {
      std::size_t j = i;
      while (j + 1 < numbers.size() && numbers[j + 1] == numbers[j] + 1) ++j;
      ranges += (ranges.empty() ? "" : ",") + padded(numbers[i], width);
      if (j > i) ranges += "-" + padded(numbers[j], width);
      i = j + 1;
    }
    parts.push_back(prefix + "[" + ranges + "]");
  }
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ",") + p;
  return out;
}

std::string host_name(std::string_view description) {
  std::size_t begin = description.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return "";
  std::size_t end = description.find_first_of(" \t", begin);
  return std::string(description.substr(begin, end - begin));
}

}  // namespace ibpm::jobs
