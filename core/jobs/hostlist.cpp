// SPDX-License-Identifier: MIT

#include "jobs/hostlist.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <map>

namespace ibpm::jobs {

namespace {

// Bad input is echoed in messages that end up in a plugin's one line: never all of it.
constexpr std::size_t kMaxEchoed = 200;

std::string shown(std::string_view text) {
  if (text.size() <= kMaxEchoed) return std::string(text);
  // Appended in place: GCC 12 warns (-Warray-bounds, a false positive) on the temporary string
  // operator+ makes, when libstdc++ comes from a precompiled header.
  std::string shown_text(text.substr(0, kMaxEchoed));
  shown_text += "... (";
  shown_text += std::to_string(text.size());
  shown_text += " bytes)";
  return shown_text;
}

[[noreturn]] void fail(std::string_view expression, const std::string& why) {
  throw HostlistError("hostlist '" + shown(expression) + "': " + why);
}

[[noreturn]] void too_many(std::string_view expression, std::size_t max_hosts) {
  throw TooManyHosts("hostlist '" + shown(expression) + "': more than " +
                     std::to_string(max_hosts) + " hosts");
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
    fail(whole, "number '" + shown(digits) + "' too large");
  return value;
}

std::string padded(unsigned long long value, std::size_t width) {
  std::string text = std::to_string(value);
  if (text.size() < width) text.insert(0, width - text.size(), '0');
  return text;
}

struct Range {
  unsigned long long low = 0, high = 0;
  std::size_t width = 0;  // of the first number: "[08-10]" is 08 09 10
};

// A name with brackets, "r[1-2]n[01-02]": literals[0] bracket[0] literals[1] ... literals[n].
// The ranges are kept as ranges: how many hosts it stands for is known before any is made.
struct Pattern {
  std::vector<std::string_view> literals;
  std::vector<std::vector<Range>> brackets;
};

// The ranges a bracket's content stands for: "0001-0004,0007"; `count` grows by their hosts.
std::vector<Range> bracket_ranges(std::string_view whole, std::string_view content,
                                  unsigned long long& count) {
  std::vector<Range> ranges;
  count = 0;
  std::size_t start = 0;
  while (start <= content.size()) {
    std::size_t comma = content.find(',', start);
    if (comma == std::string_view::npos) comma = content.size();
    const std::string_view part = content.substr(start, comma - start);
    const std::size_t dash = part.find('-');
    const std::string_view low = part.substr(0, dash);
    const std::string_view high = dash == std::string_view::npos ? low : part.substr(dash + 1);
    if (!all_digits(low) || !all_digits(high))
      fail(whole, "'" + shown(part) + "' is not a number or a range N-M");
    const unsigned long long a = number(whole, low), b = number(whole, high);
    if (b < a) fail(whole, "range '" + shown(part) + "' runs backwards");
    if (b - a >= kMaxHostlistHosts) fail(whole, "range '" + shown(part) + "' is too large");
    count += b - a + 1;
    if (count > kMaxHostlistHosts) too_many(whole, kMaxHostlistHosts);
    ranges.push_back({a, b, low.size()});
    start = comma + 1;
  }
  return ranges;
}

// The pattern of one name, and in `count` how many hosts it stands for.
Pattern parse_name(std::string_view whole, std::string_view name, unsigned long long& count) {
  Pattern pattern;
  count = 1;
  std::size_t at = 0;
  for (;;) {
    const std::size_t open = name.find('[', at);
    const std::string_view literal =
        name.substr(at, open == std::string_view::npos ? name.npos : open - at);
    if (literal.find(']') != std::string_view::npos) fail(whole, "']' without '['");
    pattern.literals.push_back(literal);
    if (open == std::string_view::npos) break;
    const std::size_t close = name.find(']', open);
    if (close == std::string_view::npos) fail(whole, "'[' without ']'");
    unsigned long long values = 0;
    pattern.brackets.push_back(
        bracket_ranges(whole, name.substr(open + 1, close - open - 1), values));
    if (count > kMaxHostlistHosts / values) too_many(whole, kMaxHostlistHosts);
    count *= values;
    at = close + 1;
  }
  return pattern;
}

// Every host of the pattern, in order, into `each`; `name` is the part made so far.
void emit(const Pattern& pattern, std::size_t k, std::string& name,
          const std::function<void(const std::string&)>& each) {
  const std::size_t base = name.size();
  name += pattern.literals[k];
  if (k == pattern.brackets.size()) {
    each(name);
  } else {
    const std::size_t mark = name.size();
    for (const Range& range : pattern.brackets[k])
      for (unsigned long long v = range.low; v <= range.high; ++v) {
        name += padded(v, range.width);
        emit(pattern, k + 1, name, each);
        name.resize(mark);
      }
  }
  name.resize(base);
}

}  // namespace

void for_each_host(std::string_view expression, std::size_t max_hosts,
                   const std::function<void(const std::string&)>& each) {
  if (expression.empty()) return;
  // The names, checked and counted before any host is made.
  std::vector<Pattern> patterns;
  unsigned long long total = 0;
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
      unsigned long long count = 0;
      patterns.push_back(parse_name(expression, name, count));
      total += count;
      if (total > max_hosts) too_many(expression, max_hosts);
      start = i + 1;
    } else if (c == ' ' || c == '\t') {
      fail(expression, "a blank inside");
    }
  }
  if (depth != 0) fail(expression, "'[' without ']'");
  std::string name;
  for (const Pattern& pattern : patterns) emit(pattern, 0, name, each);
}

std::vector<std::string> expand_hostlist(std::string_view expression) {
  std::vector<std::string> hosts;
  for_each_host(expression, kMaxHostlistHosts,
                [&](const std::string& host) { hosts.push_back(host); });
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
