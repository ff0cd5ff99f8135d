#include "poll/port_poller.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "poll/counter_reset.hpp"

namespace ibpm::poll {

namespace {

using Clock = std::chrono::steady_clock;

// Sample times as the RRD keeps them (milliseconds): rates are computed with the times as stored.
double stored_time(double seconds) { return std::round(seconds * 1000.0) / 1000.0; }

state::PortRecord record_of(const PortSample& sample, const std::optional<state::PortRecord>& previous) {
  state::PortRecord record;
  record.time = stored_time(sample.time);
  // Strictly after the previous sample as stored (RRD refuses anything else), even when two
  // runs sample within the same millisecond.
  if (previous && record.time <= previous->time) record.time = stored_time(previous->time + 0.001);
  record.extended = sample.extended;
  record.pma_cap_mask = sample.caps.mask;
  record.raw = sample.values;
  record.saturated = at_maximum(sample.values, sample.extended);
  if (previous) {  // the last reset stays on record until the next one
    record.last_reset = previous->last_reset;
    record.reset_mask = previous->reset_mask;
  }
  return record;
}

// Clears the counters close to their maximum on every port that has some; returns, per result,
// the record of the port right after its reset (written after the sample).
std::map<std::size_t, state::PortRecord> reset_counters(mad::MadEngine& engine,
                                                        std::vector<PortResult>& results,
                                                        const PollSettings& settings) {
  std::vector<mad::MadQuery> queries;
  std::vector<std::size_t> owners;
  for (std::size_t i = 0; i < results.size(); ++i) {
    PortResult& r = results[i];
    if (!r.sample.answered) continue;
    const CounterMask mask =
        counters_near_max(r.sample.values, r.sample.extended, *settings.reset_fraction);
    if (!mask) continue;
    r.cleared = mask;
    queries.push_back(mad::reset_port_counters_query(r.target.lid, r.target.port, mask));
    owners.push_back(i);
  }
  std::map<std::size_t, state::PortRecord> after;
  if (queries.empty()) return after;
  const auto replies = engine.run(queries, settings.engine);
  for (std::size_t q = 0; q < queries.size(); ++q) {
    PortResult& r = results[owners[q]];
    if (!replies[q].ok()) {
      r.cleared = 0;
      continue;
    }
    state::PortRecord cleared = r.record;
    // Strictly after the sample: RRD refuses an update that is not later than the last.
    cleared.time = std::max(stored_time(to_epoch_seconds(replies[q].received)),
                            stored_time(r.record.time + 0.001));
    for (const CounterSpec& s : counter_specs())
      if (r.cleared & counter_bit(s.id)) cleared.raw[static_cast<std::size_t>(s.id)] = 0;
    cleared.saturated &= ~r.cleared;
    cleared.last_reset = cleared.time;
    cleared.reset_mask = r.cleared;
    after.emplace(owners[q], cleared);
  }
  return after;
}

}  // namespace

std::optional<double> live_capacity(const PortSample& sample) {
  if (!sample.live || sample.live->state != PortState::active || !sample.live->width ||
      !sample.live->speed)
    return std::nullopt;
  return static_cast<double>(link_capacity_bps(*sample.live->width, *sample.live->speed));
}

std::vector<PortResult> poll_ports(mad::MadEngine& engine, const state::PortStore& store,
                                   const std::vector<PortTarget>& targets,
                                   const PollSettings& settings) {
  std::vector<PortResult> results(targets.size());
  const Clock::time_point lock_deadline =
      settings.engine.deadline.value_or(Clock::now() + std::chrono::seconds(10));

  // Every node of the run through one descriptor (see node_locks.hpp).
  state::NodeLocks locks;
  if (settings.write_state) {
    std::vector<Guid> nodes;
    nodes.reserve(targets.size());
    for (const PortTarget& t : targets) nodes.push_back(t.node);
    locks = store.lock_nodes(nodes, lock_deadline, settings.known_nodes);
  }

  KnownCapabilities known;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    results[i].target = targets[i];
    try {
      results[i].previous = store.read(targets[i].node, targets[i].port);
    } catch (const state::StateError& e) {
      results[i].state_error = e.what();
    }
    if (results[i].previous && results[i].previous->pma_cap_mask)
      known[targets[i].lid] =
          mad::PmaCapabilities{static_cast<std::uint16_t>(*results[i].previous->pma_cap_mask)};
  }

  std::vector<PortSample> samples = sample_ports(engine, targets, known, settings.engine,
                                                 settings.probe_nodes_first);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    PortResult& r = results[i];
    r.sample = std::move(samples[i]);
    if (!r.sample.answered) continue;
    r.record = record_of(r.sample, r.previous);
    r.rates = compute_rates(r.previous, r.record, live_capacity(r.sample), settings.xmit_wait_tick);
  }

  std::map<std::size_t, state::PortRecord> after_reset;
  if (settings.reset_fraction) after_reset = reset_counters(engine, results, settings);

  if (!settings.write_state) return results;
  for (std::size_t i = 0; i < results.size(); ++i) {
    PortResult& r = results[i];
    // A file we could not read is not overwritten: it may be someone else's.
    if (!r.sample.answered || !r.state_error.empty()) continue;
    try {
      store.write(r.target.node, r.target.port, r.record);
      if (const auto it = after_reset.find(i); it != after_reset.end()) {
        store.write(r.target.node, r.target.port, it->second);
        r.record.last_reset = it->second.last_reset;
        r.record.reset_mask = it->second.reset_mask;
      }
    } catch (const state::StateError& e) {
      r.state_error = e.what();
    }
  }
  return results;
}

}  // namespace ibpm::poll
