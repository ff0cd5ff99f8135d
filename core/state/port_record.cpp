// SPDX-License-Identifier: MIT

#include "state/port_record.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
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
  // Returns what it wrote, which stays valid as long as the buffer.
  std::string_view seconds(double value) {
    char* const start = at_;
    if (whole_milliseconds(value)) return {start, static_cast<std::size_t>(at_ - start)};
    auto [end, ec] = std::to_chars(at_, at_ + kSecondsSize, value, std::chars_format::fixed, 3);
    if (ec != std::errc{}) throw std::invalid_argument("time out of range");
    at_ = end;
    return {start, static_cast<std::size_t>(end - start)};
  }
  // Text written before, again (formatting a double costs some 600 instructions).
  void copy(std::string_view text) {
    std::memcpy(at_, text.data(), text.size());
    at_ += text.size();
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
  void append_to(std::string& out) const {
    out.append(text_, static_cast<std::size_t>(at_ - text_));
  }

 private:
  static constexpr std::size_t kSecondsSize = 64;  // longer: "time out of range"
  static constexpr std::size_t kNumberSize = 20;   // a 64-bit number's digits
  // Every field at its longest and its separator: three times, the counters and five numbers.
  static constexpr std::size_t kSize =
      3 * (kSecondsSize + 1) + (counters::kCounterCount + 5) * (kNumberSize + 1);
  // A time the state stores (the double nearest a whole number of milliseconds, N / 1000) written
  // as N's digits with the point put in: what to_chars gives it, without the general
  // conversion's 600 instructions. False (nothing written) for any other value.
  bool whole_milliseconds(double value) {
    const double ms = std::round(value * 1000);
    if (!(value > 0) || !(ms < 0x1p53) || ms / 1000 != value) return false;
    char digits[kNumberSize + 4];
    char* end = std::to_chars(digits, digits + sizeof digits, static_cast<std::uint64_t>(ms)).ptr;
    std::size_t count = static_cast<std::size_t>(end - digits);
    const std::size_t whole = count > 3 ? count - 3 : 0;  // digits before the point
    if (whole == 0) {
      *at_++ = '0';
    } else {
      std::memcpy(at_, digits, whole);
      at_ += whole;
    }
    *at_++ = '.';
    for (std::size_t pad = count < 3 ? 3 - count : 0; pad > 0; --pad) *at_++ = '0';
    std::memcpy(at_, digits + whole, count - whole);
    at_ += count - whole;
    return true;
  }

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

namespace {

// Every counter's width as the PortCounters alone, with PortCountersExtended's data and packet
// counters, and from PortCountersExtended alone: looked up (a sweep asks 17 a port, twice).
using Widths = std::array<std::array<std::uint8_t, counters::kCounterCount>, 3>;

Widths make_widths() {
  Widths widths{};
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    const auto i = static_cast<std::size_t>(s.id);
    const bool data = counters::kDataCounterMask & counters::counter_bit(s.id);
    widths[0][i] = static_cast<std::uint8_t>(s.bits);
    widths[1][i] = static_cast<std::uint8_t>(data ? 64 : s.bits);
    widths[2][i] = 64;
  }
  return widths;
}

// Made when the program starts (nothing calls sample_width before main): a table local to the
// function would cost its guard's check, and the registers that call saves, on every call.
const Widths kWidths = make_widths();

}  // namespace

unsigned sample_width(counters::Counter counter, bool extended, bool all_extended) {
  return kWidths[all_extended ? 2 : extended ? 1 : 0].at(static_cast<std::size_t>(counter));
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
  std::string line;
  append_update_line(line, record);
  return line;
}

void append_update_line(std::string& text, const PortRecord& record) {
  if (std::string refusal = update_refusal(record); !refusal.empty())
    throw std::invalid_argument(refusal);
  LineBuffer line;
  const std::string_view time = line.seconds(record.time);
  for (std::size_t i = 0; i < counters::kCounterCount; ++i) {
    const counters::CounterMask bit = counters::counter_bit(static_cast<counters::Counter>(i));
    line.colon();
    if (((record.saturated | record.rrd_unknown) & bit) != 0)
      line.unknown();
    else
      line.optional(record.raw[i]);
  }
  line.colon();
  line.copy(time);  // the sample_time gauge: the same time
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
  line.append_to(text);
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
