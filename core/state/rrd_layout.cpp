// SPDX-License-Identifier: MIT

#include "state/rrd_layout.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace ibpm::state {

namespace {
constexpr std::array<std::string_view, kGaugeCount> kGaugeNames{
    "sample_time", "saturated", "sample_flags", "pma_cap_mask", "last_reset", "reset_mask"};
constexpr long kHour = 3600;
constexpr long kDay = 24 * kHour;
}  // namespace

void validate(const RrdLayout& layout) {
  const long step = layout.step.count();
  if (step <= 0 || kHour % step != 0)
    throw std::invalid_argument("RRD step must divide an hour, not " + std::to_string(step) + " s");
  if (layout.heartbeat.count() <= 0) throw std::invalid_argument("RRD heartbeat must be positive");
  if (layout.full_hours <= 0 || layout.hourly_days < 0 || layout.daily_days < 0)
    throw std::invalid_argument(
        "RRD history: at least an hour at full resolution, no negative days");
}

std::string_view source_name(std::size_t index) {
  if (source_is_counter(index)) return counters::spec(static_cast<counters::Counter>(index)).key;
  return kGaugeNames.at(index - counters::kCounterCount);
}

std::string_view source_type(std::size_t index) {
  return source_is_counter(index) ? "DERIVE" : "GAUGE";
}

constexpr long kMaxFullResolutionRows = 1440;

std::vector<std::string> create_definitions(const RrdLayout& layout) {
  validate(layout);
  const std::string heartbeat = std::to_string(layout.heartbeat.count());
  std::vector<std::string> args;
  for (std::size_t i = 0; i < kSourceCount; ++i) {
    // Counters only fall when reset: min 0 makes that an unknown rate, not a negative one.
    const char* bounds = source_is_counter(i) ? ":0:U" : ":U:U";
    args.push_back("DS:" + std::string(source_name(i)) + ":" + std::string(source_type(i)) + ":" +
                   heartbeat + bounds);
  }
  for (std::string& archive : archive_definitions(layout)) args.push_back(std::move(archive));
  return args;
}

std::string_view aggregate_source_name(AggregateSource source) {
  static constexpr std::array<std::string_view, kAggregateSourceCount> kNames{"gen", "con", "out",
                                                                              "in", "directions"};
  return kNames.at(static_cast<std::size_t>(source));
}

std::vector<std::string> aggregate_definitions(const RrdLayout& layout) {
  const std::string heartbeat = std::to_string(layout.heartbeat.count());
  std::vector<std::string> args;
  for (std::size_t i = 0; i < kAggregateSourceCount; ++i)
    args.push_back("DS:" + std::string(aggregate_source_name(static_cast<AggregateSource>(i))) +
                   ":GAUGE:" + heartbeat + ":0:U");
  for (std::string& archive : archive_definitions(layout)) args.push_back(std::move(archive));
  return args;
}

std::vector<std::string> archive_definitions(const RrdLayout& layout) {
  validate(layout);
  std::vector<std::string> args;
  const long step = layout.step.count();
  struct Archive {
    long steps_per_row;
    long rows;
  };
  // Full resolution for a day, but never more than 1440 rows: a day at the usual minute; with
  // the short steps of tests and demos the files stay small (1440 rows of 1 s are 24 minutes)
  // and the hours archive takes over sooner.
  const Archive archives[] = {
      {1, std::min(layout.full_hours * kHour / step, kMaxFullResolutionRows)},
      {kHour / step, 24L * layout.hourly_days},  // four weeks of hours by default
      {kDay / step, layout.daily_days},          // a year of days by default
  };
  for (const char* cf : {"AVERAGE", "MAX"})
    for (const Archive& a : archives)
      if (a.rows > 0)
        args.push_back(std::string("RRA:") + cf + ":0.5:" + std::to_string(a.steps_per_row) + ":" +
                       std::to_string(a.rows));
  return args;
}

}  // namespace ibpm::state
