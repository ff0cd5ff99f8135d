// SPDX-License-Identifier: MIT

#include "state/port_record.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <system_error>

namespace ibpm::state {

namespace {

// The update line is written into a buffer on the stack and copied once: a sweep writes one per
// port, and appending piece by piece cost some ten allocations each.
// Times from here on take more than LineBuffer's 64 characters ("%.3f").
constexpr double kTimeLimit = 1e59;

class LineBuffer {
 public:
  // Milliseconds, '.' whatever the locale: librrd parses timestamps and values in the C locale.
  void seconds(double value) {
    auto [end, ec] = std::to_chars(at_, at_ + kSecondsSize, value, std::chars_format::fixed, 3);
    if (ec != std::errc{}) throw std::invalid_argument("time out of range");
    at_ = end;
  }
  template <typename T>
  void number(T value) {
    at_ = std::to_chars(at_, at_ + kNumberSize, value).ptr;  // 20 digits at most: always fits
  }
  template <typename T>
  void optional(const std::optional<T>& value) {
    if (value)
      number(*value);
    else
      unknown();
  }
  void unknown() { *at_++ = 'U'; }
  void colon() { *at_++ = ':'; }
  std::string text() const { return std::string(text_, static_cast<std::size_t>(at_ - text_)); }

 private:
  static constexpr std::size_t kSecondsSize = 64;  // longer: "time out of range"
  static constexpr std::size_t kNumberSize = 20;   // a 64-bit number's digits
  // Every field at its longest and its separator: three times, the counters and five numbers.
  static constexpr std::size_t kSize =
      3 * (kSecondsSize + 1) + (counters::kCounterCount + 5) * (kNumberSize + 1);
  char text_[kSize];
  char* at_ = text_;
};

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
  // Longer than the line has room for (LineBuffer::kSecondsSize characters).
  if (record.time >= kTimeLimit ||
      (record.last_reset && !(std::fabs(*record.last_reset) < kTimeLimit)))
    return "time out of range";
  return "";
}

std::string update_line(const PortRecord& record) {
  if (std::string refusal = update_refusal(record); !refusal.empty())
    throw std::invalid_argument(refusal);
  LineBuffer line;
  line.seconds(record.time);
  for (std::size_t i = 0; i < counters::kCounterCount; ++i) {
    const counters::CounterMask bit = counters::counter_bit(static_cast<counters::Counter>(i));
    line.colon();
    if (((record.saturated | record.rrd_unknown) & bit) != 0)
      line.unknown();
    else
      line.optional(record.raw[i]);
  }
  line.colon();
  line.seconds(record.time);
  line.colon();
  line.number(record.saturated);
  std::uint32_t flags = 0;
  if (record.extended || record.all_extended) flags |= kSampleExtended;
  if (record.all_extended) flags |= kSampleAllExtended;
  line.colon();
  line.number(flags);
  line.colon();
  line.optional(record.pma_cap_mask);
  line.colon();
  if (record.last_reset)
    line.seconds(*record.last_reset);
  else
    line.unknown();
  line.colon();
  line.number(record.reset_mask);
  return line.text();
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
