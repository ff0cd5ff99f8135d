// SPDX-License-Identifier: MIT

#include "locality/aggregate_history.hpp"

#include <charconv>
#include <cmath>
#include <optional>

#include "state/rrd_layout.hpp"
#include "state/state_error.hpp"

namespace ibpm::locality {

namespace {

// A scope's sharding: N for "shard-K-of-N", 0 for "fabric"; nullopt for any other folder.
struct Sharding {
  unsigned count = 0;
  unsigned index = 0;
};

std::optional<Sharding> sharding_of(const std::string& scope) {
  if (scope == "fabric") return Sharding{};
  static constexpr std::string_view kShard = "shard-", kOf = "-of-";
  if (!scope.starts_with(kShard)) return std::nullopt;
  const std::size_t of = scope.find(kOf);
  if (of == std::string::npos) return std::nullopt;
  Sharding s;
  const char* begin = scope.data() + kShard.size();
  const char* middle = scope.data() + of;
  const char* end = scope.data() + scope.size();
  if (std::from_chars(begin, middle, s.index).ptr != middle) return std::nullopt;
  if (std::from_chars(middle + kOf.size(), end, s.count).ptr != end) return std::nullopt;
  if (s.count == 0 || s.index == 0 || s.index > s.count) return std::nullopt;
  return s;
}

// Whether the scopes with a value in a row are one whole sharding.
bool whole_sharding(const std::vector<Sharding>& shardings,
                    const std::vector<std::size_t>& in_row) {
  if (in_row.empty()) return false;
  const unsigned count = shardings[in_row.front()].count;
  for (std::size_t s : in_row)
    if (shardings[s].count != count) return false;
  return count == 0 ? in_row.size() == 1 : in_row.size() == count;
}

}  // namespace

AggregateHistory read_aggregate_history(const state::PortStore& store,
                                        const std::vector<SubtreeAggregate>& aggregates,
                                        const history::Window& window,
                                        std::chrono::milliseconds timeout) {
  AggregateHistory out;
  std::vector<std::string> scopes;
  std::vector<Sharding> shardings;
  try {
    for (std::string& scope : store.aggregate_scopes(timeout))
      if (const auto sharding = sharding_of(scope)) {
        scopes.push_back(std::move(scope));
        shardings.push_back(*sharding);
      }
  } catch (const state::StateError& e) {
    out.reason = e.what();
    return out;
  }
  if (scopes.empty()) {
    out.reason = "no sweep has written any";
    return out;
  }
  if (aggregates.empty()) {
    out.reason = "no subtree asked";
    return out;
  }
  // File i: aggregate i / scopes.size(), scope i % scopes.size().
  const std::size_t files = aggregates.size() * scopes.size();
  std::vector<std::optional<state::FetchedRows>> rows(files);
  try {
    store.read_aggregates(
        files,
        [&](std::size_t i) {
          return std::pair{&scopes[i % scopes.size()], &aggregates[i / scopes.size()].file_name};
        },
        "AVERAGE", window.start, window.end,
        [&](std::size_t i, state::FetchedRows&& r) {
          rows[i] = std::move(r);
          ++out.files;
        },
        timeout);
  } catch (const state::StateError& e) {
    out.reason = e.what();
    return out;
  }
  out.scopes = scopes.size();
  const std::size_t gen = static_cast<std::size_t>(state::AggregateSource::gen);
  const std::size_t directions = static_cast<std::size_t>(state::AggregateSource::directions);
  const state::FetchedRows* shape = nullptr;
  out.sums.resize(aggregates.size());
  for (std::size_t a = 0; a < aggregates.size(); ++a) {
    std::vector<const state::FetchedRows*> mine;  // by scope, null without a file
    bool any_file = false;
    for (std::size_t s = 0; s < scopes.size(); ++s) {
      const auto& r = rows[a * scopes.size() + s];
      mine.push_back(r ? &*r : nullptr);
      if (!r) continue;
      any_file = true;
      if (!shape) shape = &*r;
      if (r->start != shape->start || r->step != shape->step || r->rows() != shape->rows()) {
        out.reason = "their rows differ in step or time (another --rrd-step)";
        return out;
      }
    }
    if (!any_file) {
      out.reason = "no file of subtree " + aggregates[a].file_name +
                   " (the topology changed since the sweeps?)";
      return out;
    }
    std::array<double, state::kAggregateSourceCount> total{};
    std::size_t used = 0;
    std::optional<std::size_t> first;
    std::vector<std::size_t> in_row;
    for (std::size_t row = 0; row < shape->rows(); ++row) {
      in_row.clear();
      for (std::size_t s = 0; s < scopes.size(); ++s)
        if (mine[s] && !std::isnan(mine[s]->value(row, gen))) in_row.push_back(s);
      if (!whole_sharding(shardings, in_row)) continue;
      for (std::size_t s : in_row)
        for (std::size_t v = 0; v < state::kAggregateSourceCount; ++v)
          if (const double x = mine[s]->value(row, v); !std::isnan(x)) total[v] += x;
      ++used;
      if (!first) first = row;
    }
    // Rows from the window's first on (its first row may begin before the window and hold
    // nothing yet: one row of slack).
    if (!first || *first > 1) {
      out.reason = "they do not cover the window (subtree " + aggregates[a].file_name + ")";
      return out;
    }
    const std::time_t covered = static_cast<std::time_t>(used * shape->step);
    out.covered = a == 0 ? covered : std::min(out.covered, covered);
    SetSums& sums = out.sums[a];
    const double n = static_cast<double>(used);
    sums.gen = total[gen] / n;
    sums.con = total[static_cast<std::size_t>(state::AggregateSource::con)] / n;
    sums.out = total[static_cast<std::size_t>(state::AggregateSource::out)] / n;
    sums.in = total[static_cast<std::size_t>(state::AggregateSource::in)] / n;
    const auto measured = static_cast<std::size_t>(std::llround(total[directions] / n));
    const std::size_t expected = aggregates[a].directions();
    const std::size_t host = 2 * aggregates[a].cables.host.size();
    if (measured == 0) sums.host_unmeasured = host;
    sums.border_unmeasured =
        measured == 0 ? expected - host : expected - std::min(expected, measured);
  }
  out.step = shape ? static_cast<std::time_t>(shape->step) : 0;
  out.used = true;
  return out;
}

std::string describe_source(const AggregateHistory& history, bool asked) {
  if (history.used)
    return "per-subtree aggregates (" + std::to_string(history.scopes) + " scope" +
           (history.scopes == 1 ? "" : "s") + ", " + std::to_string(history.files) + " files)";
  if (!asked) return "per-port files";
  return "per-port files (aggregates not used: " + history.reason + ")";
}

}  // namespace ibpm::locality
