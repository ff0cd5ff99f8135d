// SPDX-License-Identifier: MIT

#include "delegation/shard_spec.hpp"

#include <charconv>
#include <optional>
#include <stdexcept>

namespace ibpm::delegation {
namespace {

// Plain decimal digits only: no sign, no spaces, no trailing text.
std::optional<unsigned> parse_number(std::string_view text) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || end != text.data() + text.size()) return std::nullopt;
  if (error == std::errc::result_out_of_range) return max_shard_count + 1;  // "too large" below
  if (error != std::errc()) return std::nullopt;
  return value;
}

}  // namespace

ShardSpec parse_shard(std::string_view text) {
  const std::string where = "--shard " + std::string(text) + ": ";
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos)
    throw std::invalid_argument(where + "expected K/N, e.g. 2/4");
  const auto index = parse_number(text.substr(0, slash));
  const auto count = parse_number(text.substr(slash + 1));
  if (!index) throw std::invalid_argument(where + "K is not a number (expected K/N, e.g. 2/4)");
  if (!count) throw std::invalid_argument(where + "N is not a number (expected K/N, e.g. 2/4)");
  if (*count < 1 || *count > max_shard_count)
    throw std::invalid_argument(where + "N must be between 1 and " +
                                std::to_string(max_shard_count));
  if (*index < 1 || *index > *count)
    throw std::invalid_argument(where + "K must be between 1 and N");
  return ShardSpec{*index, *count};
}

std::string to_string(ShardSpec spec) {
  return std::to_string(spec.index) + "/" + std::to_string(spec.count);
}

}  // namespace ibpm::delegation
