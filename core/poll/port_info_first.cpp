// SPDX-License-Identifier: MIT

#include "poll/port_info_first.hpp"

#include <chrono>
#include <map>

#include "mad/smp.hpp"
#include "plugin/state.hpp"

namespace ibpm::poll {

std::vector<std::optional<LinkState>> read_links(mad::MadEngine& engine,
                                                 const std::vector<PortTarget>& targets,
                                                 const mad::EngineOptions& options) {
  std::vector<mad::MadQuery> queries;
  queries.reserve(targets.size() + 1);
  std::map<unsigned, std::size_t> port0;  // a switch's LID: its port 0's query
  for (const PortTarget& t : targets)
    if (t.type == NodeType::sw && !port0.contains(t.lid)) {
      port0.emplace(t.lid, queries.size());
      queries.push_back(mad::port_info_query(t.lid, 0));
    }
  const std::size_t first_port = queries.size();
  for (const PortTarget& t : targets) queries.push_back(mad::port_info_query(t.lid, t.port));
  const std::vector<mad::MadReply> replies = engine.run(queries, options);

  std::vector<std::optional<LinkState>> links(targets.size());
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const PortTarget& t = targets[i];
    const mad::MadReply& info = replies[first_port + i];
    if (!info.ok()) continue;
    const mad::MadReply* capability = &info;
    if (const auto it = port0.find(t.lid); it != port0.end()) {
      capability = &replies[it->second];
      if (!capability->ok()) continue;  // its speeds cannot be read without it
    }
    Port live;
    live.number = t.port;
    live.present = true;
    mad::decode_port_info(info.data, capability->data, live);
    links[i] = link_state_of(live);
  }
  return links;
}

bool counters_needed(const std::optional<LinkState>& now, const state::PortMemory* before) {
  if (!now || !before || !before->live || !before->reported) return true;
  if (*before->reported != static_cast<std::uint8_t>(plugin::State::ok)) return true;
  return !(*now == *before->live);
}

namespace {

// The port's newer memory of the two records (by its last sample's time).
const state::PortMemory* newer_memory(const PortTarget& t, const state::SampleRecord* own,
                                      const state::SampleRecord* sweeps) {
  const state::PortMemory* a = own ? own->find(t.node, t.port) : nullptr;
  const state::PortMemory* b = sweeps ? sweeps->find(t.node, t.port) : nullptr;
  if (!a || !a->live) return b;
  if (!b || !b->live) return a;
  return b->sample.time > a->sample.time ? b : a;
}

}  // namespace

std::vector<std::size_t> first_read_links(
    mad::MadEngine& engine, const std::vector<PortTarget>& targets, const state::SampleRecord* own,
    const state::SampleRecord* sweeps, const mad::EngineOptions& options, double now,
    std::vector<PortResult>& results, std::vector<SampleHint>& hints,
    std::vector<std::optional<LinkState>>& links) {
  links = read_links(engine, targets, options);
  hints.resize(targets.size());
  std::vector<std::size_t> to_sample;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const state::PortMemory* before = newer_memory(targets[i], own, sweeps);
    if (counters_needed(links[i], before)) {
      to_sample.push_back(i);
      if (links[i]) {
        // Its PortInfo is the one just read: not asked again, whatever its counters say.
        hints[i].live = &*links[i];
        hints[i].ask_port_info = false;
        hints[i].previous = nullptr;
      }
      continue;
    }
    PortResult& r = results[i];
    r.carried = true;
    r.reported = before->reported;
    r.sample.answered = true;
    r.sample.live = links[i];
    r.sample.live_read = true;
    r.sample.time = now;
  }
  return to_sample;
}

}  // namespace ibpm::poll
