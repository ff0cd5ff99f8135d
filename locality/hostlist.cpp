#include "locality/hostlist.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>

namespace ibpm::locality {

namespace {

// Top-level commas only: commas inside brackets belong to the range.
std::vector<std::string_view> split_names(std::string_view text) {
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      if (i > begin) parts.push_back(text.substr(begin, i - begin));
      begin = i + 1;
    } else if (text[i] == '[') {
      ++depth;
    } else if (text[i] == ']') {
      --depth;
    }
  }
  if (depth != 0) throw std::invalid_argument("unbalanced brackets in '" + std::string(text) + "'");
  return parts;
}

unsigned long number(std::string_view digits, std::string_view whole) {
  unsigned long value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc{} || end != digits.data() + digits.size())
    throw std::invalid_argument("bad range '" + std::string(whole) + "'");
  return value;
}

std::string padded(unsigned long value, std::size_t width) {
  std::string text = std::to_string(value);
  if (text.size() < width) text.insert(0, width - text.size(), '0');
  return text;
}

constexpr unsigned long kMaxExpansion = 1'000'000;

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view text) {
  std::vector<std::string> names;
  for (std::string_view part : split_names(text)) {
    std::size_t open = part.find('[');
    if (open == std::string_view::npos) {
      if (part.find(']') != std::string_view::npos)
        throw std::invalid_argument("bad hostlist '" + std::string(part) + "'");
      names.emplace_back(part);
      continue;
    }
    std::size_t close = part.find(']', open);
    if (close == std::string_view::npos || part.find('[', open + 1) < close ||
        part.find('[', close) != std::string_view::npos)
      throw std::invalid_argument("only one bracket range per name: '" + std::string(part) + "'");
    std::string_view prefix = part.substr(0, open), suffix = part.substr(close + 1);
    std::string_view ranges = part.substr(open + 1, close - open - 1);
    std::size_t begin = 0;
    while (begin <= ranges.size()) {
      std::size_t comma = std::min(ranges.find(',', begin), ranges.size());
      std::string_view range = ranges.substr(begin, comma - begin);
      std::size_t dash = range.find('-');
      std::string_view low = range.substr(0, dash);
      std::string_view high = dash == std::string_view::npos ? low : range.substr(dash + 1);
      unsigned long from = number(low, part), to = number(high, part);
      if (to < from || to - from > kMaxExpansion)
        throw std::invalid_argument("bad range '" + std::string(range) + "'");
      for (unsigned long n = from; n <= to; ++n)
        names.push_back(std::string(prefix) + padded(n, low.size()) + std::string(suffix));
      begin = comma + 1;
    }
  }
  return names;
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

}  // namespace ibpm::locality
