#include "poll/port_poller.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "poll/counter_reset.hpp"

namespace ibpm::poll {

namespace {

using Clock = std::chrono::steady_clock;

// Sample times as the RRD keeps them (milliseconds): rates are computed with the times as stored.
double stored_time(double seconds) { return std::round(seconds * 1000.0) / 1000.0; }

state::PortRecord record_of(const PortSample& sample,
                            const std::optional<state::PortRecord>& previous) {
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
    const counters::CounterMask mask =
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
    for (const counters::CounterSpec& s : counters::counter_specs())
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

namespace {

// Where PortInfo is asked although nothing suggests a change: every `every` runs, each port at
// its own run (by a hash of its address), so that the reads spread evenly over the runs.
bool periodic_port_info(const PortTarget& t, std::uint64_t runs, unsigned every,
                        std::uint16_t age) {
  if (every <= 1 || age + 1u >= 2u * every) return true;
  // splitmix64's finalizer: GUIDs often run in sequence, and every bit of the phase must vary.
  std::uint64_t z = t.node ^ (static_cast<std::uint64_t>(t.port) << 56);
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return (runs + z % every) % every == 0;
}

SampleHint hint_of(const state::PortMemory& memory, const PortTarget& t, std::uint64_t runs,
                   unsigned every) {
  SampleHint hint;
  hint.live = memory.live ? &*memory.live : nullptr;
  // A link that was not up, or whose link counters are stuck at their maximum (a change could
  // not show), is looked at every run.
  const bool stuck =
      memory.sample.saturated & (counters::counter_bit(counters::Counter::link_downed) |
                                 counter_bit(counters::Counter::link_error_recovery));
  hint.ask_port_info = !memory.live || memory.live->state != PortState::active || stuck ||
                       periodic_port_info(t, runs, every, memory.port_info_age);
  // A switch's NodeInfo covers dozens of ports: asked every run. A CA's (one port) on the same
  // schedule as PortInfo, and whenever a counter fell (see SampleHint).
  hint.verify_node = t.type == NodeType::sw || hint.ask_port_info;
  hint.previous = &memory.sample.raw;
  return hint;
}

// The port's error history with this run's interval added: its errors from the rates (a counter
// not read counts none), continuous only when the rates compare with a previous sample.
state::ErrorHistory extend_errors(state::ErrorHistory history, const PortResult& r,
                                  double keep_seconds) {
  const bool continuous = r.previous && !r.rates.baseline && r.rates.interval > 0;
  std::array<std::uint32_t, state::kHistoryCounterCount> errors{};
  for (std::size_t c = 0; c < errors.size(); ++c)
    if (const auto rate = r.rates.of(state::kHistoryCounters[c]); rate && continuous)
      errors[c] = static_cast<std::uint32_t>(
          std::min(4.0e9, std::llround(rate->per_second * r.rates.interval) * 1.0));
  return state::extend(std::move(history), continuous, r.previous ? r.previous->time : 0,
                       r.record.time, errors, keep_seconds);
}

}  // namespace

PollRun poll_ports(mad::MadEngine& engine, const state::PortStore& store,
                   const std::vector<PortTarget>& targets, const PollSettings& settings) {
  PollRun run;
  std::vector<PortResult>& results = run.results;
  results.resize(targets.size());
  const Clock::time_point lock_deadline =
      settings.engine.deadline.value_or(Clock::now() + std::chrono::seconds(10));

  // Every node of the run through one descriptor (see node_locks.hpp).
  if (settings.write_state) {
    std::vector<Guid> nodes;
    nodes.reserve(targets.size());
    for (const PortTarget& t : targets) nodes.push_back(t.node);
    run.pending.locks = store.lock_nodes(nodes, lock_deadline, settings.known_nodes);
  }
  // The record is read under the locks, so two runs of the same scope never take the same one.
  if (settings.write_state && !settings.record_name.empty()) {
    run.pending.path = state::SampleRecord::path_for(store.state_dir(), settings.record_name);
    std::string warning;
    run.pending.previous = state::SampleRecord::load(run.pending.path, warning);
    if (!warning.empty()) run.notes.push_back(warning);
  }
  const state::SampleRecord* record = run.pending.previous ? &*run.pending.previous : nullptr;
  // An entry older than the RRD heartbeat may have been overtaken by another run's sample.
  const double now = to_epoch_seconds(std::chrono::system_clock::now());
  const double max_age = static_cast<double>(store.layout().heartbeat.count());

  KnownCapabilities known;
  std::vector<SampleHint> hints(targets.size());
  std::vector<bool> file_known(targets.size(), false);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const PortTarget& t = targets[i];
    PortResult& r = results[i];
    r.target = t;
    const state::PortMemory* memory = record ? record->find(t.node, t.port) : nullptr;
    if (memory && now - memory->sample.time <= max_age) {
      r.previous = memory->sample;
      r.reported = memory->reported;
      r.errors = memory->errors;
      hints[i] = hint_of(*memory, t, record->runs, settings.port_info_every);
      file_known[i] = true;
    } else {
      try {
        r.previous = store.read(t.node, t.port);
        file_known[i] = r.previous.has_value();
        ++run.from_rrd;
      } catch (const state::StateError& e) {
        r.state_error = e.what();
      }
      if (memory) r.reported = memory->reported;
    }
    if (r.previous && r.previous->pma_cap_mask)
      known[t.lid] = mad::PmaCapabilities{static_cast<std::uint16_t>(*r.previous->pma_cap_mask)};
  }

  // A central store may hold a later sample than this collector's record (another collector
  // had the ports meanwhile): an entry stands only when its file's last update is in the same
  // RRD step (a later sample within the step goes unseen: the rate is then taken over a longer
  // interval, still a true average).
  if (store.central_store()) {
    std::vector<std::size_t> from_record;
    std::vector<PortRef> refs;
    for (std::size_t i = 0; i < targets.size(); ++i)
      if (results[i].previous && results[i].state_error.empty()) {
        from_record.push_back(i);  // (a sample read from the store just now passes as well)
        refs.push_back({targets[i].node, targets[i].port});
      }
    std::vector<std::optional<std::time_t>> last;
    const std::time_t step = store.layout().step.count();
    try {
      last = store.last_updates(refs);
    } catch (const state::StateError& e) {
      for (std::size_t i : from_record) results[i].state_error = e.what();
    }
    for (std::size_t j = 0; j < last.size(); ++j) {
      const std::size_t i = from_record[j];
      PortResult& r = results[i];
      // rrdcached's LAST answers the last update rounded down to the file's step.
      const auto sample = static_cast<std::time_t>(std::floor(r.previous->time));
      if (last[j] && *last[j] == sample - sample % step) continue;
      hints[i] = SampleHint{};
      r.errors = {};  // another collector saw the errors since: the history starts again
      try {
        r.previous = store.read(targets[i].node, targets[i].port);
        file_known[i] = r.previous.has_value();
        ++run.from_rrd;
      } catch (const state::StateError& e) {
        r.state_error = e.what();
      }
    }
  }

  sample_ports_into(engine, targets, known, settings.engine, settings.probe_nodes_first, hints,
                    [&results](std::size_t i) -> PortSample& { return results[i].sample; });
  for (std::size_t i = 0; i < targets.size(); ++i) {
    PortResult& r = results[i];
    if (!r.sample.answered) continue;
    r.record = record_of(r.sample, r.previous);
    r.rates = compute_rates(r.previous, r.record, live_capacity(r.sample), settings.xmit_wait_tick);
    r.errors = extend_errors(std::move(r.errors), r, settings.error_history_seconds);
  }
  std::vector<SampleHint>().swap(hints);  // freed before the state is written

  std::map<std::size_t, state::PortRecord> after_reset;
  if (settings.reset_fraction) after_reset = reset_counters(engine, results, settings);

  if (!settings.write_state) return run;
  // A file we could not read is not overwritten: it may be someone else's.
  std::vector<state::PortStore::Write> writes;
  std::vector<std::size_t> owners;
  for (std::size_t i = 0; i < results.size(); ++i) {
    PortResult& r = results[i];
    if (!r.sample.answered || !r.state_error.empty()) continue;
    writes.push_back({r.target.node, r.target.port, &r.record, file_known[i]});
    owners.push_back(i);
    if (const auto it = after_reset.find(i); it != after_reset.end()) {
      writes.push_back({r.target.node, r.target.port, &it->second, true});
      owners.push_back(i);
    }
  }
  const std::vector<std::string> errors = store.write_all(writes);
  for (std::size_t w = 0; w < writes.size(); ++w) {
    PortResult& r = results[owners[w]];
    if (!errors[w].empty()) {
      if (r.state_error.empty()) r.state_error = errors[w];
      continue;
    }
    if (writes[w].record != &r.record) {  // the reset went in after the sample
      r.record.last_reset = writes[w].record->last_reset;
      r.record.reset_mask = writes[w].record->reset_mask;
      r.after_reset = std::make_shared<const state::PortRecord>(*writes[w].record);
    }
  }
  return run;
}

std::optional<std::string> save_record(PendingRecord& pending,
                                       const std::vector<PortResult>& results) {
  std::optional<std::string> failure;
  if (pending.previous) {
    // The loaded record becomes the next one in place (no second copy of every port's memory):
    // the run's ports updated, the ports it no longer has dropped.
    state::SampleRecord& next = *pending.previous;
    ++next.runs;
    for (const PortResult& r : results) {
      state::PortMemory* old = next.find(r.target.node, r.target.port);
      if (!r.sample.answered || !r.state_error.empty()) {
        if (old) old->reported = r.reported;
        continue;
      }
      state::PortMemory memory;
      memory.sample = r.after_reset ? *r.after_reset : r.record;
      memory.live = r.sample.live;
      memory.port_info_age =
          r.sample.live_read || !old ? 0 : static_cast<std::uint16_t>(old->port_info_age + 1);
      memory.reported = r.reported;
      memory.errors = r.errors;
      if (old)
        *old = std::move(memory);
      else
        next.put(r.target.node, r.target.port, std::move(memory));
    }
    if (next.size() > results.size()) {
      std::set<PortRef> kept;
      for (const PortResult& r : results) kept.insert({r.target.node, r.target.port});
      next.retain([&](const PortRef& ref) { return kept.contains(ref); });
    }
    try {
      next.save(pending.path);
    } catch (const state::StateError& e) {
      failure = e.what();
    }
  }
  pending.locks.release();
  pending.previous.reset();
  return failure;
}

}  // namespace ibpm::poll
