// SPDX-License-Identifier: MIT

#include "poll/port_poller.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <future>
#include <map>
#include <set>

#include "poll/counter_reset.hpp"
#include "poll/port_info_first.hpp"
#include "poll/port_turn.hpp"
#include "poll/reboot_downs.hpp"
#include "state/directories.hpp"
#include "state/store_check.hpp"

namespace ibpm::poll {

namespace {

using Clock = std::chrono::steady_clock;

// Sample times as the RRD keeps them (milliseconds): rates are computed with the times as stored.
double stored_time(double seconds) { return std::round(seconds * 1000.0) / 1000.0; }

state::PortRecord record_of(const PortSample& sample, const mad::CounterValues& values,
                            const state::PortRecord* previous) {
  state::PortRecord record;
  record.time = stored_time(sample.time);
  // Strictly after the previous sample as stored (RRD refuses anything else), even when two
  // runs sample within the same millisecond. poll_ports never passes a previous sample more
  // than kClockToleranceSeconds ahead of the clock, so a sample is never dated far in the future.
  if (previous && record.time <= previous->time) record.time = stored_time(previous->time + 0.001);
  record.extended = sample.extended;
  record.all_extended = sample.all_extended;
  record.pma_cap_mask = mad::stored_capabilities(sample.caps);
  record.raw = values;
  record.saturated = at_maximum(values, sample.extended, sample.all_extended);
  if (previous) {  // the last reset stays on record until the next one
    record.last_reset = previous->last_reset;
    record.reset_mask = previous->reset_mask;
    // Read from another attribute than last time (the agent's capabilities changed): no rate
    // across the change in the RRD's history either.
    record.rrd_unknown = state::source_changed(*previous, record);
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
    const counters::CounterMask mask = counters_near_max(
        r.record->raw, r.sample.extended, r.sample.all_extended, *settings.reset_fraction);
    if (!mask) continue;
    r.cleared = mask;
    // A port read from PortCountersExtended alone is cleared there too.
    queries.push_back(
        r.sample.all_extended
            ? mad::reset_port_counters_extended_query(r.target->lid, r.target->port, mask, true)
            : mad::reset_port_counters_query(r.target->lid, r.target->port, mask));
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
    state::PortRecord cleared = *r.record;
    // Strictly after the sample: RRD refuses an update that is not later than the last.
    cleared.time = std::max(stored_time(to_epoch_seconds(replies[q].received)),
                            stored_time(r.record->time + 0.001));
    for (const counters::CounterSpec& s : counters::counter_specs())
      if (r.cleared & counter_bit(s.id)) cleared.raw[static_cast<std::size_t>(s.id)] = 0;
    cleared.saturated &= ~r.cleared;
    cleared.rrd_unknown = 0;  // the sample before it broke the RRD's rate already
    cleared.last_reset = cleared.time;
    cleared.reset_mask = r.cleared;
    after.emplace(owners[q], cleared);
  }
  return after;
}

}  // namespace

const std::shared_ptr<const state::PortRecord>& no_sample() {
  static const auto none = std::make_shared<const state::PortRecord>();
  return none;
}

std::optional<double> live_capacity(const PortSample& sample) {
  if (!sample.live || sample.live->state != PortState::active || !sample.live->width ||
      !sample.live->speed)
    return std::nullopt;
  return static_cast<double>(link_capacity_bps(*sample.live->width, *sample.live->speed));
}

namespace {

// Where PortInfo is asked although nothing suggests a change: at the port's turn, and whenever
// its last read is two turns old.
bool periodic_port_info(const PortTarget& t, std::uint64_t runs, unsigned every,
                        std::uint16_t age) {
  return every <= 1 || age + 1u >= 2u * every || port_turn(t.lid, t.port, runs, every);
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

// The port's error history with this run's interval, up to its sample at `time`, added: its
// errors from the rates (a counter not read counts none), continuous only when the rates compare
// with a previous sample.
state::ErrorHistory extend_errors(state::ErrorHistory history, const PortResult& r,
                                  const state::PortRecord* previous, double time,
                                  double keep_seconds) {
  const bool continuous = previous && !r.rates.baseline && r.rates.interval > 0;
  std::array<std::uint32_t, state::kHistoryCounterCount> errors{};
  for (std::size_t c = 0; c < errors.size(); ++c)
    if (const auto rate = r.rates.of(state::kHistoryCounters[c]); rate && continuous)
      errors[c] = static_cast<std::uint32_t>(
          std::min(4.0e9, std::llround(rate->per_second * r.rates.interval) * 1.0));
  return state::extend(std::move(history), continuous, previous ? previous->time : 0, time, errors,
                       keep_seconds);
}

// The previous sample of each target (null: none) for the time of the run: pointers into the
// loaded sample record, or into the samples read from the ports' files. Not kept in the results,
// which would carry a copy of every port's sample for the whole run.
struct PreviousSamples {
  std::vector<const state::PortRecord*> of;  // one per target
  std::deque<state::PortRecord> read;        // read from the files (a deque: they stay put)
};

// The previous samples of results[i] for each i in `which`, from the ports' files in one
// exchange with the store (see PortStore::read_all; a file dated ahead of `now` is an error
// naming it).
void read_previous(const state::PortStore& store, const std::vector<PortTarget>& targets,
                   const std::vector<std::size_t>& which, double now,
                   std::chrono::milliseconds timeout, PollRun& run, PreviousSamples& previous) {
  std::vector<PortRef> refs;
  refs.reserve(which.size());
  for (std::size_t i : which) refs.push_back({targets[i].node, targets[i].port});
  std::vector<state::PortStore::ReadResult> reads = store.read_all(refs, now, timeout);
  for (std::size_t k = 0; k < which.size(); ++k) {
    previous.of[which[k]] =
        reads[k].record ? &previous.read.emplace_back(std::move(*reads[k].record)) : nullptr;
    PortResult& r = run.results[which[k]];
    // A store that does not answer is the run's trouble: the port, with no previous sample to
    // go on from, is judged as on a first run (its sample is not written).
    if (reads[k].store_failed) {
      run.store.fail(reads[k].error);
      r.unstored = true;
    }
    if (!reads[k].error.empty()) r.state_error = std::move(reads[k].error);
  }
  run.from_rrd += which.size();
}

// A central store may hold a later sample than this collector's record (another collector had
// the ports meanwhile): an entry stands only when its file's last update is in the same RRD step
// (a later sample within the step goes unseen: the rate is then taken over a longer interval,
// still a true average). Anyone who reaches the store can update it, so what it holds is checked:
// an update ahead of the clock, or one without a sample, is named. The check is asked on a thread
// of its own while the MADs are in flight and applied after them (the daemon answers most files
// from its memory, see PortStore::last_updates).
//
// With --store-check-every N a run asks only about the ports at their turn, one run in N each
// (PENDING lists every update the daemon holds for a file: dozens at a sweep every few seconds,
// and the daemon formats them all), and at least kAskAtLeast ports. A collector that had the ports
// meanwhile wrote every one of them, and a store that lost its journal lost every file's last
// samples: one port asked that is not as the record says makes the run ask about all the others at
// once, after the MADs. Those are seen in the first run after them whatever N is; a forged update
// of a single file, at that port's turn.
class StoreCheck {
 public:
  static constexpr std::size_t kAskAtLeast = 8;

  StoreCheck(const state::PortStore& store, const std::vector<PortTarget>& targets,
             const std::vector<PortResult>& results, const PreviousSamples& previous,
             const PollSettings& settings, std::uint64_t runs)
      : store_(store), targets_(targets), store_read_timeout_(settings.store_read_timeout) {
    for (std::size_t i = 0; i < targets.size(); ++i) {
      // (a sample read from the store just now passes as well)
      if (!previous.of[i] || !results[i].state_error.empty()) continue;
      const bool turn =
          port_turn(targets[i].lid, targets[i].port, runs, settings.store_check_every);
      (turn ? asked_ : later_).push_back(i);
    }
    // A few ports asked every run (taking turns when fewer are at theirs), so that a hand-back is
    // seen in the first run after it whatever N is.
    if (asked_.size() < kAskAtLeast && !later_.empty()) {
      std::rotate(later_.begin(),
                  later_.begin() + static_cast<std::ptrdiff_t>(runs % later_.size()), later_.end());
      const auto take =
          static_cast<std::ptrdiff_t>(std::min(kAskAtLeast - asked_.size(), later_.size()));
      asked_.insert(asked_.end(), later_.begin(), later_.begin() + take);
      later_.erase(later_.begin(), later_.begin() + take);
    }
    last_ = std::async(std::launch::async,
                       [&store, refs = refs_of(asked_), timeout = settings.store_read_timeout] {
                         return store.last_updates(refs, timeout);
                       });
  }

  // The answers applied to the run: an overtaken entry's previous sample read again from the
  // store, its error history started again. Returns the overtaken ports, whose hints came from
  // the record the store overtook (their samples are taken again).
  std::vector<std::size_t> apply(PollRun& run, PreviousSamples& previous,
                                 std::vector<bool>& file_known, double now) {
    Findings found;
    run.store_checked += asked_.size();
    const bool differs =
        judge(asked_, answers([this] { return last_.get(); }, run), run, previous, now, found);
    if (differs && !later_.empty()) {
      const LastUpdates last =
          answers([&] { return store_.last_updates(refs_of(later_), store_read_timeout_); }, run);
      judge(later_, last, run, previous, now, found);
      run.store_checked += later_.size();
    }
    if (found.loss.ports) run.notes.push_back(found.loss.describe());
    std::vector<PortResult>& results = run.results;
    const std::vector<std::size_t>& overtaken = found.overtaken;
    read_previous(store_, targets_, overtaken, now, store_read_timeout_, run, previous);
    for (std::size_t k = 0; k < overtaken.size(); ++k) {
      const std::size_t i = overtaken[k];
      PortResult& r = results[i];
      file_known[i] = previous.of[i] != nullptr;
      if (previous.of[i] || !r.state_error.empty() || !found.overtaken_last[k]) continue;
      // The file is there and was updated after our sample, with no sample in it.
      r.state_error = store_.rrd_name(targets_[i].node, targets_[i].port) +
                      ": the store's last update (at " + std::to_string(*found.overtaken_last[k]) +
                      ") holds no sample: not written by a collector";
      r.blank_in_store = true;
      file_known[i] = true;
    }
    return found.overtaken;
  }

 private:
  using LastUpdates = std::vector<std::optional<std::time_t>>;
  struct Findings {
    std::vector<std::size_t> overtaken;
    std::vector<std::optional<std::time_t>> overtaken_last;  // the update after ours, if any
    state::StoreLoss loss;
  };

  std::vector<PortRef> refs_of(const std::vector<std::size_t>& which) const {
    std::vector<PortRef> refs;
    refs.reserve(which.size());
    for (std::size_t i : which) refs.push_back({targets_[i].node, targets_[i].port});
    return refs;
  }

  // The last updates `ask` gives; none when the store could not say. That is the run's trouble
  // (said once), not the ports': their records stand, as when the store agrees with them.
  template <typename Ask>
  static LastUpdates answers(Ask&& ask, PollRun& run) {
    try {
      return ask();
    } catch (const state::StateError& e) {
      run.store.fail(e.what());
      run.store.unchecked = true;
    }
    return {};
  }

  // Each port of `which` against its store's last update (state::judge_against_store), applied:
  // a port updated since starts its error history again, one dated ahead of the clock is an
  // error, the others are read again from the store. Returns whether any was not as the record
  // says.
  bool judge(const std::vector<std::size_t>& which, const LastUpdates& last, PollRun& run,
             PreviousSamples& previous, double now, Findings& found) {
    std::vector<double> recorded;
    recorded.reserve(which.size());
    for (std::size_t i : which) recorded.push_back(previous.of[i]->time);
    const std::vector<state::StoreDifference> differences =
        state::judge_against_store(store_, refs_of(which), recorded, last, now, found.loss);
    for (const state::StoreDifference& d : differences) {
      const std::size_t i = which[d.index];
      PortResult& r = run.results[i];
      // Another collector updated the file since (and saw the errors): the history starts again.
      // A store behind the record (a loss) leaves this collector's history as it is.
      if (d.updated_since) r.errors = {};
      if (!d.ahead_of_clock.empty()) {
        previous.of[i] = nullptr;
        r.state_error = d.ahead_of_clock;
        continue;
      }
      found.overtaken.push_back(i);
      found.overtaken_last.push_back(d.updated_since ? d.last : std::nullopt);
    }
    return !differences.empty();
  }

  const state::PortStore& store_;
  const std::vector<PortTarget>& targets_;
  std::chrono::milliseconds store_read_timeout_;
  std::vector<std::size_t> asked_;  // asked while the MADs are in flight
  std::vector<std::size_t> later_;  // not at their turn: asked after them when asked_ differ
  std::future<LastUpdates> last_;
};

// The ports in `which` sampled again with nothing taken from an earlier sample (no hint: every
// query asked), their first samples dropped.
void sample_again(mad::MadEngine& engine, const std::vector<PortTarget>& targets,
                  const std::vector<std::size_t>& which, const KnownCapabilities& known,
                  const PollSettings& settings, std::vector<PortResult>& results) {
  if (which.empty()) return;
  std::vector<PortTarget> subset;
  subset.reserve(which.size());
  for (std::size_t i : which) {
    subset.push_back(targets[i]);
    results[i].sample = PortSample{};
    results[i].readings = {};
  }
  sample_ports_into(engine, subset, known, settings.engine, settings.probe_nodes_first, {},
                    [&](std::size_t k) {
                      PortResult& r = results[which[k]];
                      return SampleSlot{r.sample, r.readings};
                    });
}

// Every node of the run locked through one descriptor (see node_locks.hpp), then the sample
// record of the run's scope read under the locks, so two runs of the same scope never take the
// same one.
void lock_and_load_record(const state::PortStore& store, const std::vector<PortTarget>& targets,
                          const PollSettings& settings, PollRun& run) {
  if (!settings.write_state) return;
  const Clock::time_point lock_deadline =
      settings.engine.deadline.value_or(Clock::now() + std::chrono::seconds(10));
  std::vector<Guid> nodes;
  nodes.reserve(targets.size());
  for (const PortTarget& t : targets) nodes.push_back(t.node);
  run.pending.locks = store.lock_nodes(nodes, lock_deadline, settings.known_nodes);
  if (std::string warning = state::shared_folder_warning(store.state_dir()); !warning.empty())
    run.notes.push_back(std::move(warning));
  if (settings.record_name.empty()) return;
  run.pending.path = state::SampleRecord::path_for(store.state_dir(), settings.record_name);
  run.pending.keep_other_ports = !settings.write_history;
  std::string warning;
  run.pending.record =
      std::make_shared<state::SampleRecord>(state::SampleRecord::load(run.pending.path, warning));
  if (!warning.empty()) run.notes.push_back(warning);
}

// What the run starts from, per target: its previous sample, what the sampler may skip, whether
// its file is known to exist, and the agents' capabilities.
struct RunStart {
  PreviousSamples previous;
  std::vector<SampleHint> hints;
  std::vector<bool> file_known;
  KnownCapabilities known;
};

// Each target's previous sample, hint, reported state and error history from the record; the
// ports the record does not cover (a first run, a take-over) read from their files, all in one
// exchange with the store. An entry older than the RRD heartbeat may have been overtaken by
// another run's sample. One dated later than now (beyond a small tolerance) was taken before the
// clock stepped back: no rate comes from it, and its file may be ahead of the clock as well (read
// to find out).
RunStart take_previous_samples(const state::PortStore& store,
                               const std::shared_ptr<const std::vector<PortTarget>>& shared_targets,
                               const PollSettings& settings, double now, PollRun& run) {
  const std::vector<PortTarget>& targets = *shared_targets;
  std::vector<PortResult>& results = run.results;
  const state::SampleRecord& record = *run.pending.record;
  const double ahead = now + state::kClockToleranceSeconds;
  const double max_age = static_cast<double>(store.layout().heartbeat.count());
  RunStart start;
  start.previous.of.assign(targets.size(), nullptr);
  start.hints.resize(targets.size());
  start.file_known.assign(targets.size(), false);
  std::vector<std::size_t> from_files;
  std::vector<const state::PortMemory*> aged;  // from_files' entries older than the heartbeat
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const PortTarget& t = targets[i];
    PortResult& r = results[i];
    r.target = std::shared_ptr<const PortTarget>(shared_targets, &t);
    const state::PortMemory* memory = record.find(t.node, t.port);
    if (memory && memory->sample.time > ahead) r.clock_back = memory->sample.time - now;
    if (memory && !r.clock_back && now - memory->sample.time <= max_age) {
      start.previous.of[i] = &memory->sample;
      r.reported = memory->reported;
      r.errors = state::drop_after(memory->errors, ahead);
      start.hints[i] = hint_of(*memory, t, record.runs, settings.port_info_every);
      start.file_known[i] = true;
    } else {
      from_files.push_back(i);
      aged.push_back(memory && !r.clock_back ? memory : nullptr);
      if (memory) {
        r.reported = memory->reported;
        if (r.clock_back) r.errors = state::drop_after(memory->errors, ahead);
      }
    }
  }
  read_previous(store, targets, from_files, now, settings.store_read_timeout, run, start.previous);
  // A store that does not answer cannot say whether another run wrote a port since its entry
  // aged: the entry stands (a rate over the longer interval is still a true average), so that
  // the ports are judged through an outage longer than the heartbeat too.
  for (std::size_t k = 0; k < from_files.size(); ++k)
    if (const std::size_t i = from_files[k]; aged[k] && results[i].unstored) {
      start.previous.of[i] = &aged[k]->sample;
      results[i].errors = state::drop_after(aged[k]->errors, ahead);
    }
  for (std::size_t i : from_files) start.file_known[i] = start.previous.of[i] != nullptr;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const state::PortRecord* sample = start.previous.of[i];
    // A mask stored before CapabilityMask2 was kept does not count: ClassPortInfo is asked again.
    if (sample && sample->pma_cap_mask)
      if (const auto caps = mad::capabilities_from_stored(*sample->pma_cap_mask))
        start.known[targets[i].lid] = *caps;
  }
  return start;
}

// A re-poll's sampling: every target's PortInfo, then the counters of those whose link changed
// (see port_info_first.hpp); the others' results are carried.
void sample_changed_links(mad::MadEngine& engine, const state::PortStore& store,
                          const std::vector<PortTarget>& targets, const PollSettings& settings,
                          double now, RunStart& start, PollRun& run) {
  std::vector<PortResult>& results = run.results;
  const state::SampleRecord* own = run.pending.record.get();
  // The sweeps' record, read only when the run's own lacks a port's PortInfo (a re-poll's first
  // trap of a switch): the file of a whole fabric's ports is not decoded for nothing.
  std::optional<state::SampleRecord> sweeps;
  const bool own_knows_all = own && std::all_of(targets.begin(), targets.end(), [&](const auto& t) {
                               const state::PortMemory* m = own->find(t.node, t.port);
                               return m && m->live;
                             });
  if (!own_knows_all && !settings.sweep_record_name.empty() && !run.pending.path.empty()) {
    std::string warning;  // a record that does not load leaves the counters to be read
    sweeps = state::SampleRecord::load(
        state::SampleRecord::path_for(store.state_dir(), settings.sweep_record_name), warning);
  }
  std::vector<std::optional<LinkState>> links;
  const std::vector<std::size_t> chosen =
      first_read_links(engine, targets, own, sweeps ? &*sweeps : nullptr, settings.engine, now,
                       results, start.hints, links);
  std::vector<PortTarget> subset;
  std::vector<SampleHint> hints;
  subset.reserve(chosen.size());
  hints.reserve(chosen.size());
  for (std::size_t i : chosen) {
    subset.push_back(targets[i]);
    hints.push_back(start.hints[i]);
  }
  sample_ports_into(engine, subset, start.known, settings.engine, settings.probe_nodes_first, hints,
                    [&](std::size_t k) {
                      PortResult& r = results[chosen[k]];
                      return SampleSlot{r.sample, r.readings};
                    });
  // The PortInfo the sampler took from the hints was read in this run.
  for (std::size_t i : chosen)
    if (links[i] && results[i].sample.live) results[i].sample.live_read = true;
}

// Whether the run writes the port's sample to its file (the same test as write_samples').
bool to_be_written(const PortResult& r) {
  return r.sample.answered && (r.state_error.empty() || r.blank_in_store);
}

// Each answered port's sample, rates and error history from its reading and previous sample.
// A sample to be written goes into the run's record in place of the previous one, which is no
// longer needed (save_record takes it back from the record's file when the write then fails).
void compute_port_rates(const PreviousSamples& previous, const PollSettings& settings,
                        const std::shared_ptr<state::SampleRecord>& record,
                        std::vector<PortResult>& results) {
  for (std::size_t i = 0; i < results.size(); ++i) {
    PortResult& r = results[i];
    if (!r.sample.answered || r.carried) {
      // What a port read before it failed (another node's counters) goes; a carried port read
      // none.
      r.rates = {};
      r.rates.baseline = r.carried;
      continue;
    }
    // The previous sample (never more than the tolerance ahead, see take_previous_samples) is
    // not before this one: the clock stepped back a little. No rate over the made-up interval;
    // the sample is still stored just after the previous one, so that RRD takes it.
    const state::PortRecord* before = previous.of[i];
    const double taken = stored_time(r.sample.time);
    const bool stepped_back = before && taken <= before->time;
    if (stepped_back) r.clock_back = std::max(r.clock_back, before->time - taken);
    state::PortRecord sample = record_of(r.sample, r.readings, before);
    r.rates = compute_rates(stepped_back ? nullptr : before, sample, live_capacity(r.sample),
                            settings.xmit_wait_tick);
    r.errors =
        extend_errors(std::move(r.errors), r, before, sample.time, settings.error_history_seconds);
    if (!to_be_written(r)) {
      r.record = std::make_shared<const state::PortRecord>(std::move(sample));
      continue;
    }
    const PortTarget& t = *r.target;
    state::PortMemory* memory = record->find(t.node, t.port);
    if (!memory) memory = &record->put(t.node, t.port, state::PortMemory{});
    memory->sample = std::move(sample);
    r.record = std::shared_ptr<const state::PortRecord>(record, &memory->sample);
  }
}

// Every answered port's sample written to its file in one exchange with the store (and the
// record right after a reset, after it). A file we could not read is not overwritten: it may be
// someone else's. A failed write becomes the port's state error; one because the store failed as
// a whole, or refused as overtaken, is the run's too (StoreTrouble).
void write_samples(const state::PortStore& store, const std::vector<bool>& file_known,
                   std::map<std::size_t, state::PortRecord>& after_reset,
                   const PollSettings& settings, PollRun& run) {
  std::vector<PortResult>& results = run.results;
  std::vector<state::PortStore::Write> writes;
  std::vector<std::size_t> owners;
  writes.reserve(results.size());
  owners.reserve(results.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    PortResult& r = results[i];
    if (!to_be_written(r)) continue;
    writes.push_back({r.target->node, r.target->port, r.record.get(), file_known[i]});
    owners.push_back(i);
    if (const auto it = after_reset.find(i); it != after_reset.end()) {
      writes.push_back({r.target->node, r.target->port, &it->second, true});
      owners.push_back(i);
    }
  }
  std::chrono::milliseconds write_timeout = std::chrono::seconds(30);
  if (settings.store_deadline)
    write_timeout = std::max(std::chrono::milliseconds(100),
                             std::chrono::duration_cast<std::chrono::milliseconds>(
                                 *settings.store_deadline - Clock::now()));
  state::PortStore::WriteNotes notes;
  const std::vector<std::string> errors = store.write_all(writes, write_timeout, &notes);
  if (!notes.store_failure.empty()) run.store.fail(notes.store_failure);
  for (std::size_t w : notes.store_failed) results[owners[w]].unstored = true;
  for (std::size_t k = 0; k < notes.overtaken.size(); ++k) {
    const state::PortStore::Write& w = writes[notes.overtaken[k]];
    run.store.add_overtaken(store.rrd_name(w.node, w.port), notes.overtaken_by[k] - w.record->time);
  }
  for (std::size_t w = 0; w < writes.size(); ++w) {
    PortResult& r = results[owners[w]];
    if (!errors[w].empty()) {
      if (r.state_error.empty() || r.blank_in_store) r.state_error = errors[w];
      r.blank_in_store = false;
      continue;
    }
    // The reset went in after the sample: save_record goes on from it.
    if (writes[w].record != r.record.get())
      r.after_reset = std::make_shared<const state::PortRecord>(*writes[w].record);
  }
}

}  // namespace

PollRun poll_ports(mad::MadEngine& engine, const state::PortStore& store,
                   std::vector<PortTarget> run_targets, const PollSettings& settings) {
  const auto shared_targets =
      std::make_shared<const std::vector<PortTarget>>(std::move(run_targets));
  const std::vector<PortTarget>& targets = *shared_targets;
  PollRun run;
  std::vector<PortResult>& results = run.results;
  // The results made after the record is loaded: the record file's bytes, held while it is
  // decoded (some 200 bytes a port), are then given back before the results take their room.
  lock_and_load_record(store, targets, settings, run);
  results.resize(targets.size());
  const double now = settings.clock.value_or(to_epoch_seconds(std::chrono::system_clock::now()));
  RunStart start = take_previous_samples(store, shared_targets, settings, now, run);

  // The central store's check (see StoreCheck) is asked while the MADs are in flight.
  std::optional<StoreCheck> check;
  if (store.central_store() && settings.write_history) {
    check.emplace(store, targets, results, start.previous, settings, run.pending.record->runs);
  }
  for (PortResult& r : results) r.readings = {};  // the rates' room holds the readings till then
  if (settings.port_info_first) {
    sample_changed_links(engine, store, targets, settings, now, start, run);
  } else {
    sample_ports_into(engine, targets, start.known, settings.engine, settings.probe_nodes_first,
                      start.hints, [&results](std::size_t i) {
                        return SampleSlot{results[i].sample, results[i].readings};
                      });
  }
  if (check) {
    const std::vector<std::size_t> overtaken =
        check->apply(run, start.previous, start.file_known, now);
    sample_again(engine, targets, overtaken, start.known, settings, results);
  }
  compute_port_rates(start.previous, settings, run.pending.record, results);
  forget_reboot_downs(results);
  // Freed before the state is written.
  std::vector<SampleHint>().swap(start.hints);
  start.previous = {};

  std::map<std::size_t, state::PortRecord> after_reset;
  if (settings.reset_fraction) after_reset = reset_counters(engine, results, settings);
  if (settings.write_state && settings.write_history)
    write_samples(store, start.file_known, after_reset, settings, run);
  for (const PortResult& r : results) run.store.unstored += r.unstored;
  return run;
}

namespace {

// The ports whose samples went into the run's record but not into their files (the write failed,
// or a blank update was named): their memory as the record's file still has it, so that the next
// run goes on from the sample their files hold, or dropped when the file has none (the next run
// reads their files). Each of their results first gets a copy of the sample it shows. Returns
// how many were dropped.
std::size_t restore_unwritten(state::SampleRecord& next, const std::string& path,
                              const std::vector<PortResult*>& unwritten) {
  if (unwritten.empty()) return 0;
  std::string warning;  // a record that does not load has nothing to restore: all dropped
  const state::SampleRecord before = state::SampleRecord::load(path, warning);
  std::set<PortRef> dropped;
  for (PortResult* r : unwritten) {
    r->record = std::make_shared<const state::PortRecord>(*r->record);
    const PortTarget& t = *r->target;
    if (const state::PortMemory* old = before.find(t.node, t.port)) {
      state::PortMemory& memory = *next.find(t.node, t.port);
      memory = *old;
      memory.reported = r->reported;
    } else {
      dropped.insert({t.node, t.port});
    }
  }
  if (!dropped.empty()) next.retain([&](const PortRef& ref) { return !dropped.contains(ref); });
  return dropped.size();
}

}  // namespace

std::optional<std::string> save_record(PendingRecord& pending, std::vector<PortResult>& results) {
  std::optional<std::string> failure;
  if (pending.record && !pending.path.empty()) {
    // The run's record becomes the next one in place (no second copy of every port's memory):
    // the written samples are in it already (compute_port_rates), the rest of each port's memory
    // follows them, and the ports the run no longer has are dropped.
    state::SampleRecord& next = *pending.record;
    ++next.runs;
    std::vector<PortResult*> unwritten;
    std::size_t held = 0;  // the run's ports the record holds
    for (PortResult& r : results) {
      state::PortMemory* memory = next.find(r.target->node, r.target->port);
      held += memory != nullptr;
      const bool in_record = memory && r.record.get() == &memory->sample;
      if (!r.sample.answered || !r.state_error.empty() || !in_record) {
        if (in_record)
          unwritten.push_back(&r);
        else if (memory)
          memory->reported = r.reported;
        continue;
      }
      if (r.after_reset) {  // the record goes on from the sample after the reset
        r.record = std::make_shared<const state::PortRecord>(*r.record);
        memory->sample = *r.after_reset;
      }
      // (an entry that had no PortInfo yet is new: its PortInfo was asked)
      memory->port_info_age = r.sample.live_read || !memory->live
                                  ? 0
                                  : static_cast<std::uint16_t>(memory->port_info_age + 1);
      memory->live = r.sample.live;
      memory->reported = r.reported;
      memory->errors = r.errors;
    }
    held -= restore_unwritten(next, pending.path, unwritten);
    // (the set only when the record holds other ports than the run's: rarely)
    if (next.size() > held && !pending.keep_other_ports) {
      std::set<PortRef> kept;
      for (const PortResult& r : results) kept.insert({r.target->node, r.target->port});
      next.retain([&](const PortRef& ref) { return kept.contains(ref); });
    }
    try {
      next.save(pending.path);
    } catch (const state::StateError& e) {
      failure = e.what();
    }
  }
  pending.locks.release();
  pending.record.reset();
  return failure;
}

}  // namespace ibpm::poll
