#include "jobs/hostlist.hpp"

#include <charconv>

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
    const std::string_view literal = name.substr(at, open == std::string_view::npos ? name.npos : open - at);
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

}  // namespace ibpm::jobs
