// SPDX-License-Identifier: MIT

#include "state/port_record.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <system_error>

namespace ibpm::state {

namespace {

// Milliseconds, '.' whatever the locale: librrd parses timestamps and values in the C locale.
std::string format_seconds(double seconds) {
  char text[64];
  auto [end, ec] = std::to_chars(text, text + sizeof text, seconds, std::chars_format::fixed, 3);
  if (ec != std::errc{}) throw std::invalid_argument("time out of range");
  return std::string(text, end);
}

template <typename T>
std::string format_optional(const std::optional<T>& value) {
  return value ? std::to_string(*value) : "U";
}

bool unknown(std::string_view text) { return text.empty() || text == "U"; }

[[noreturn]] void bad_value(std::size_t index, std::string_view text) {
  throw std::invalid_argument("unexpected last value '" + std::string(text) + "' of data source " +
                              std::string(source_name(index)));
}

// The whole text as a T, exactly; nullopt for U.
template <typename T>
std::optional<T> parse(std::size_t index, std::string_view text) {
  if (unknown(text)) return std::nullopt;
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) bad_value(index, text);
  if constexpr (std::is_floating_point_v<T>)
    if (!std::isfinite(value)) bad_value(index, text);
  return value;
}

}  // namespace

unsigned sample_width(counters::Counter counter, bool extended, bool all_extended) {
  if (all_extended) return 64;
  switch (counter) {
    case counters::Counter::xmit_data:
    case counters::Counter::rcv_data:
    case counters::Counter::xmit_pkts:
    case counters::Counter::rcv_pkts:
      if (extended) return 64;
      break;
    default:
      break;
  }
  return spec(counter).bits;
}

counters::CounterMask source_changed(const PortRecord& previous, const PortRecord& current) {
  counters::CounterMask changed = 0;
  if (previous.extended != current.extended) changed |= counters::kDataCounterMask;
  if (previous.all_extended != current.all_extended) {
    for (const counters::CounterSpec& s : counters::counter_specs())
      if (!(counters::kDataCounterMask & counters::counter_bit(s.id)))
        changed |= counters::counter_bit(s.id);
  }
  return changed;
}

std::string update_refusal(const PortRecord& record) {
  if (!std::isfinite(record.time) || record.time <= 0)
    return "sample time must be a positive number of seconds";
  return "";
}

std::string update_line(const PortRecord& record) {
  if (std::string refusal = update_refusal(record); !refusal.empty())
    throw std::invalid_argument(refusal);
  std::string line = format_seconds(record.time);
  for (std::size_t i = 0; i < counters::kCounterCount; ++i) {
    const counters::CounterMask bit = counters::counter_bit(static_cast<counters::Counter>(i));
    const bool unknown = ((record.saturated | record.rrd_unknown) & bit) != 0;
    line += ':';
    line += unknown ? "U" : format_optional(record.raw[i]);
  }
  line += ':' + format_seconds(record.time);
  line += ':' + std::to_string(record.saturated);
  std::uint32_t flags = 0;
  if (record.extended || record.all_extended) flags |= kSampleExtended;
  if (record.all_extended) flags |= kSampleAllExtended;
  line += ':' + std::to_string(flags);
  line += ':' + format_optional(record.pma_cap_mask);
  line += ':' + (record.last_reset ? format_seconds(*record.last_reset) : std::string("U"));
  line += ':' + std::to_string(record.reset_mask);
  return line;
}

PortRecord record_from_last_values(const std::array<std::string, kSourceCount>& last) {
  auto gauge = [&](Gauge g) -> const std::string& { return last[source_index(g)]; };
  auto index = [](Gauge g) { return source_index(g); };

  PortRecord record;
  record.time = parse<double>(index(Gauge::sample_time), gauge(Gauge::sample_time)).value_or(0);
  record.saturated =
      parse<std::uint32_t>(index(Gauge::saturated), gauge(Gauge::saturated)).value_or(0);
  const std::uint32_t flags =
      parse<std::uint32_t>(index(Gauge::sample_flags), gauge(Gauge::sample_flags)).value_or(0);
  record.extended = (flags & kSampleExtended) != 0;
  record.all_extended = record.extended && (flags & kSampleAllExtended) != 0;
  record.pma_cap_mask =
      parse<std::uint32_t>(index(Gauge::pma_cap_mask), gauge(Gauge::pma_cap_mask));
  record.last_reset = parse<double>(index(Gauge::last_reset), gauge(Gauge::last_reset));
  record.reset_mask =
      parse<std::uint32_t>(index(Gauge::reset_mask), gauge(Gauge::reset_mask)).value_or(0);
  for (std::size_t i = 0; i < counters::kCounterCount; ++i) {
    const auto counter = static_cast<counters::Counter>(i);
    if (record.saturated & counters::counter_bit(counter))
      record.raw[i] =
          counters::counter_max(sample_width(counter, record.extended, record.all_extended));
    else
      record.raw[i] = parse<std::uint64_t>(i, last[i]);
  }
  return record;
}

}  // namespace ibpm::state
