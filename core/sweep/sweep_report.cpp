// SPDX-License-Identifier: MIT
// A sweep's verdict on each port, its counts, and the check Nagios sees (sweep_report.hpp).

#include "sweep/sweep_report.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>

#include "base/number.hpp"
#include "poll/far_ends.hpp"
#include "sweep/saturated_ports.hpp"
#include "sweep/shared_state_errors.hpp"
#include "thresholds/error_rate.hpp"

namespace ibpm::sweep {

namespace {

using plugin::Perfdata;
using plugin::State;
using plugin::Subcheck;

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, seconds < 10 ? "%.3f s" : "%.1f s", seconds);
  return text;
}

// "12:00:00.123" (UTC).
std::string clock_text(double epoch) {
  const auto whole = static_cast<std::time_t>(std::floor(epoch));
  std::tm tm{};
  gmtime_r(&whole, &tm);
  char text[32];
  std::snprintf(text, sizeof text, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>((epoch - static_cast<double>(whole)) * 1000));
  return text;
}

// Nodes none of whose swept ports answered, in fabric order.
std::vector<UnreachableNode> unreachable_nodes(const std::vector<PortVerdict>& verdicts) {
  // The nodes with a port that did not answer (few, or none), and whether another port of theirs
  // did: no lookup for the ports that answered unless such a node exists.
  std::map<Guid, bool> answered;
  for (const PortVerdict& v : verdicts)
    if (!v.result->sample.answered) answered.emplace(v.result->target->node, false);
  if (answered.empty()) return {};
  for (const PortVerdict& v : verdicts)
    if (v.result->sample.answered)
      if (const auto it = answered.find(v.result->target->node); it != answered.end())
        it->second = true;
  std::vector<UnreachableNode> nodes;
  std::map<Guid, std::size_t> index;
  for (const PortVerdict& v : verdicts) {
    const poll::PortTarget& t = *v.result->target;
    if (v.result->sample.answered || answered.at(t.node) || v.result->state_failed() ||
        v.result->sample.cut)
      continue;
    auto [it, added] = index.try_emplace(t.node, nodes.size());
    if (added)
      nodes.push_back({t.name.substr(0, t.name.rfind('[')), t.lid, 0, v.result->sample.error});
    ++nodes[it->second].ports;
  }
  return nodes;
}

Subcheck timing_line(const SweepResult& sweep) {
  std::string text = "sweep " + seconds_text(sweep.duration) + " (polling and state " +
                     seconds_text(sweep.poll_duration) + ")";
  if (sweep.first_read)
    text += "; counters read from " + clock_text(*sweep.first_read) + " to " +
            clock_text(*sweep.last_read) + " UTC, " +
            seconds_text(*sweep.last_read - *sweep.first_read) + " apart";
  return {State::ok, text, {}, {}};
}

}  // namespace

double error_rate(const poll::PortResult& result) {
  return ibpm::thresholds::error_rate([&](counters::Counter c) -> std::optional<double> {
    if (const auto r = result.rates.of(c)) return r->per_second;
    return std::nullopt;
  });
}

namespace {

// Flapping is a cable's, not a port's: judged once from both ends' histories and reported at
// one end (the lower GUID and port of the two), so a flap makes one alert and one event.
class CableFlaps {
 public:
  CableFlaps(const SweepResult& sweep, const link_quality::FlapSettings& settings)
      : sweep_(sweep), settings_(settings), far_ends_(sweep.results) {}

  // The flapping of result i's cable, when result i speaks for it.
  std::optional<Subcheck> of(std::size_t i) const {
    const poll::PortResult& near = sweep_.results[i];
    const poll::PortResult* far = far_ends_.of(near);
    if (far && *near.target->remote < PortRef{near.target->node, near.target->port})
      return std::nullopt;  // the other end speaks for it
    return poll::flap_subcheck(near, far, settings_);
  }

 private:
  const SweepResult& sweep_;
  const link_quality::FlapSettings& settings_;
  const poll::FarEnds far_ends_;
};

const VerdictDetail kNoDetail;  // what an OK port's verdict reads as

}  // namespace

const Subcheck& PortVerdict::check() const { return detail ? detail->check : kNoDetail.check; }
const std::string& PortVerdict::cable() const { return detail ? detail->cable : kNoDetail.cable; }
const std::string& PortVerdict::reason() const {
  return detail ? detail->reason : kNoDetail.reason;
}

std::vector<PortVerdict> judge_ports(const SweepResult& sweep,
                                     const SweepReportSettings& settings) {
  std::vector<PortVerdict> verdicts;
  verdicts.reserve(sweep.results.size());
  const CableFlaps flaps(sweep, settings.port.flap);
  // Nothing shows an OK port's line: it is not written (formatting every metric of every port
  // took 31,000 printf calls a sweep of 23,328 ports).
  poll::ReportSettings quiet = settings.port;
  quiet.describe_ok_ports = false;
  for (std::size_t i = 0; i < sweep.results.size(); ++i) {
    const poll::PortResult& result = sweep.results[i];
    PortVerdict v;
    v.result = &result;
    auto flap = flaps.of(i);
    const bool flapping = flap && flap->state.value_or(State::ok) != State::ok;
    Subcheck check = poll::port_subcheck(result, flapping ? settings.port : quiet);
    if (!result.sample.answered && !result.sample.cut && !result.state_failed())
      check.state = settings.unreachable;
    v.flapping = flapping;
    if (flap) {
      check.state = plugin::worst(check.state.value_or(State::ok), *flap->state);
      check.children.push_back(std::move(*flap));
    }
    v.state = effective_state(check);
    if (v.state != State::ok) {
      v.detail = std::make_unique<VerdictDetail>();
      v.detail->cable = poll::cable_name(*result.target);
      v.detail->reason = poll::port_reason(check, v.state, v.detail->cable).text;
      v.detail->check = std::move(check);
    }
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

SweepCounts count_ports(const std::vector<PortVerdict>& verdicts) {
  SweepCounts counts;
  for (const PortVerdict& v : verdicts) {
    const poll::PortResult& r = *v.result;
    if (r.sample.cut) {
      ++counts.not_read;
      continue;
    }
    if (!r.sample.answered) {
      ++counts.unreachable;
      continue;
    }
    ++counts.polled;
    if (v.state == State::warning || v.state == State::critical) ++counts.in_error;
    if (v.state == State::unknown) ++counts.unknown;
    if (r.rates.saturated) ++counts.saturated;
    if (r.rates.baseline && !r.carried) ++counts.baseline;
  }
  counts.unreachable_nodes = unreachable_nodes(verdicts);
  return counts;
}

std::string shard_label(const SweepOptions& options) {
  if (options.shard.count == 1 && options.delegation_file.empty()) return "";
  return "shard " + std::to_string(options.shard.index) + "/" + std::to_string(options.shard.count);
}

namespace {

State worst_port_state(const std::vector<PortVerdict>& verdicts) {
  State worst = State::ok;
  for (const PortVerdict& v : verdicts) worst = plugin::worst(worst, v.state);
  return worst;
}

// Ports not OK, worst first, then by error rate (unreachable nodes are listed on their own).
std::vector<const PortVerdict*> ports_not_ok(const std::vector<PortVerdict>& verdicts) {
  std::vector<const PortVerdict*> bad;
  for (const PortVerdict& v : verdicts)
    if (v.state != State::ok && (v.result->sample.answered || v.result->state_failed()))
      bad.push_back(&v);
  std::stable_sort(bad.begin(), bad.end(), [](const PortVerdict* a, const PortVerdict* b) {
    if (plugin::severity(a->state) != plugin::severity(b->state))
      return plugin::severity(a->state) > plugin::severity(b->state);
    return error_rate(*a->result) > error_rate(*b->result);
  });
  return bad;
}

// "shard 2/4: 648 of 2592 ports, 648 ports polled in 0.21 s", or how far a sweep cut short got.
std::string summary_head(const SweepOptions& options, const SweepResult& sweep, std::size_t ports,
                         const SweepCounts& counts) {
  std::string head = shard_label(options);
  if (!head.empty())
    head += ": " + std::to_string(ports) + " of " + std::to_string(sweep.fabric_ports) + " ports, ";
  if (counts.not_read > 0)
    head += "sweep did not finish in " + seconds_text(sweep.duration) + ": " +
            std::to_string(counts.polled) + " of " + std::to_string(ports) + " ports read";
  else
    head += std::to_string(counts.polled) + " ports polled in " + seconds_text(sweep.duration);
  if (counts.baseline == counts.polled && counts.polled > 0) head += ", collecting baseline";
  return head;
}

// ": all OK", or the counts of ports not OK and the worst of them (shared state errors first).
std::string summary_tail(const SweepCounts& counts, const std::vector<const PortVerdict*>& bad,
                         const std::vector<SharedStateError>& shared,
                         const SweepReportSettings& settings) {
  if (counts.in_error + counts.saturated + counts.unreachable + counts.unknown == 0 && bad.empty())
    return counts.not_read ? "" : ": all OK";
  std::string tail = ": " + std::to_string(counts.in_error) + " in error, " +
                     std::to_string(counts.saturated) + " saturated, " +
                     std::to_string(counts.unreachable) + " unreachable";
  if (const std::size_t nodes = counts.unreachable_nodes.size())
    tail += " (" + std::to_string(nodes) + (nodes == 1 ? " node)" : " nodes)");
  if (counts.unknown) tail += ", " + std::to_string(counts.unknown) + " unknown";
  std::size_t named = 0;
  for (const SharedStateError& group : shared)
    if (named++ < settings.summary_ports) tail += (named > 1 ? "; " : "; worst: ") + group.text(1);
  for (std::size_t i = 0; i < bad.size() && named < settings.summary_ports; ++i, ++named)
    tail += (named ? "; " : "; worst: ") + bad[i]->cable() + " " + bad[i]->reason();
  return tail;
}

// What the status line says of the store: its failure, and refused updates where one collector
// owns each port.
std::string store_summary(const poll::StoreTrouble& store, bool owned) {
  std::string text;
  if (!store.failure.empty())
    text += "; the store failed (" + store.failure + "): " + std::to_string(store.unstored) +
            " samples not stored";
  if (owned && store.overtaken > 0)
    text += "; " + std::to_string(store.overtaken) +
            (store.overtaken == 1 ? " update" : " updates") +
            " refused by the store: another writer dated the file ahead";
  return text;
}

// The shared state errors, then the --worst ports not OK and a line for the rest.
void add_port_lines(plugin::Check& check, const std::vector<const PortVerdict*>& bad,
                    const std::vector<SharedStateError>& shared,
                    const SweepReportSettings& settings) {
  for (const SharedStateError& group : shared)
    check.subchecks.push_back({State::unknown, group.text(settings.worst), {}, {}});
  for (std::size_t i = 0; i < bad.size() && i < settings.worst; ++i)
    check.subchecks.push_back(bad[i]->check());
  if (bad.size() > settings.worst)  // the worst of those left out (bad is sorted worst first)
    check.subchecks.push_back(
        {bad[settings.worst]->state,
         std::to_string(bad.size() - settings.worst) + " more ports not OK (--worst N shows more)",
         {},
         {}});
}

// The first --worst unreachable nodes and a line for the rest.
void add_unreachable_lines(plugin::Check& check, const std::vector<UnreachableNode>& dead,
                           const SweepReportSettings& settings) {
  for (std::size_t i = 0; i < dead.size() && i < settings.worst; ++i)
    check.subchecks.push_back({settings.unreachable,
                               dead[i].name + " unreachable at LID " + std::to_string(dead[i].lid) +
                                   " (" + std::to_string(dead[i].ports) +
                                   (dead[i].ports == 1 ? " port): " : " ports): ") + dead[i].error,
                               {},
                               {}});
  if (dead.size() > settings.worst)
    check.subchecks.push_back(
        {settings.unreachable,
         std::to_string(dead.size() - settings.worst) + " more nodes unreachable",
         {},
         {}});
}

// What the sweep itself has to say: ports left out for want of a LID, its timing, state and
// topology notes, and with -v the topology's origin, the MAD counts and the shard loads.
void add_sweep_notes(plugin::Check& check, const SweepResult& sweep, int verbosity) {
  if (!sweep.without_lid.empty())
    check.subchecks.push_back({State::ok,
                               std::to_string(sweep.without_lid.size()) +
                                   " cabled ports have no LID in the topology (not polled), e.g. " +
                                   sweep.without_lid.front(),
                               {},
                               {}});
  check.subchecks.push_back(timing_line(sweep));
  for (const std::string& note : sweep.state_notes)
    check.subchecks.push_back({State::ok, note, {}, {}});
  if (!sweep.topology_note.empty())
    check.subchecks.push_back({State::ok, sweep.topology_note, {}, {}});
  if (verbosity <= 0) return;
  check.subchecks.push_back({State::ok, "topology: " + sweep.topology.origin, {}, {}});
  check.subchecks.push_back({State::ok, poll::describe(sweep.mad_stats), {}, {}});
  if (sweep.shard_loads.size() > 1) {
    std::string loads = "ports per shard:";
    for (std::size_t load : sweep.shard_loads) loads += " " + std::to_string(load);
    check.subchecks.push_back({State::ok, loads, {}, {}});
  }
}

}  // namespace

plugin::Check sweep_check(const SweepOptions& options, const SweepResult& sweep,
                          const std::vector<PortVerdict>& verdicts,
                          const SweepReportSettings& settings, int verbosity) {
  plugin::Check check;
  const SweepCounts counts = count_ports(verdicts);
  std::vector<const PortVerdict*> bad = ports_not_ok(verdicts);
  check.state = worst_port_state(verdicts);
  // Queries the deadline cut say nothing about the fabric: UNKNOWN, not an outage.
  if (counts.not_read > 0) check.state = State::unknown;
  // A store that fails every port the same way is one line, not one per port.
  const std::vector<SharedStateError> shared = take_shared_state_errors(bad);
  // Where one collector owns each port (--shard), another writer of its files is news.
  const bool owned = !shard_label(options).empty();
  check.summary = summary_head(options, sweep, verdicts.size(), counts) +
                  summary_tail(counts, bad, shared, settings) + store_summary(sweep.store, owned);
  add_port_lines(check, bad, shared, settings);
  add_unreachable_lines(check, counts.unreachable_nodes, settings);
  add_saturated_lines(check, verdicts, settings.worst);  // the OK ones the status line counts
  add_sweep_notes(check, sweep, verbosity);
  check.perfdata = sweep_perfdata(sweep, verdicts, counts);
  // The store's failure and refused updates: once for the sweep, not in each port's state.
  poll::add_store_lines(check, sweep.store, sweep.central_store,
                        owned ? State::warning : State::ok);
  return check;
}

std::vector<Perfdata> sweep_perfdata(const SweepResult& sweep,
                                     const std::vector<PortVerdict>& verdicts,
                                     const SweepCounts& counts) {
  auto count = [](std::string label, std::size_t value) {
    return Perfdata{std::move(label), static_cast<double>(value), "", {}, {}, 0.0, {}};
  };
  std::vector<Perfdata> items{count("ports", verdicts.size()),
                              count("ports_polled", counts.polled),
                              count("ports_error", counts.in_error),
                              count("ports_saturated", counts.saturated),
                              count("ports_unreachable", counts.unreachable),
                              count("nodes_unreachable", counts.unreachable_nodes.size())};
  // Fabric totals: each counter's rate summed over the ports that have one (per second; data
  // in octets per second: xmit_data is the aggregate bandwidth sent).
  // One pass over the ports (each port's rates read once, not once per counter).
  std::array<double, counters::kCounterCount> sums{};
  std::array<bool, counters::kCounterCount> any{};
  for (const PortVerdict& v : verdicts)
    for (std::size_t c = 0; c < counters::kCounterCount; ++c)
      if (const auto r = v.result->rates.of(counters::counter_specs()[c].id)) {
        sums[c] += r->per_second;
        any[c] = true;
      }
  for (std::size_t c = 0; c < counters::kCounterCount; ++c) {
    const counters::CounterSpec& s = counters::counter_specs()[c];
    if (any[c])
      items.push_back(
          Perfdata{std::string(s.key), poll::reported_rate(s.id, sums[c]), "", {}, {}, 0.0, {}});
  }
  items.push_back(Perfdata{"sweep_time", sweep.duration, "s", {}, {}, 0.0, {}});
  items.push_back(Perfdata{"poll_time", sweep.poll_duration, "s", {}, {}, 0.0, {}});
  if (sweep.first_read)
    items.push_back(
        Perfdata{"read_spread", *sweep.last_read - *sweep.first_read, "s", {}, {}, 0.0, {}});
  if (counts.not_read) items.push_back(count("ports_not_read", counts.not_read));
  // A central store's check (see --store-check-every): the ports it asked about this sweep.
  if (sweep.store_checked) items.push_back(count("store_checked", sweep.store_checked));
  items.push_back(count("mads", sweep.mad_stats.sent));
  items.push_back(count("mad_retries", sweep.mad_stats.retries));
  return items;
}

}  // namespace ibpm::sweep
