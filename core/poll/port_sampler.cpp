#include "poll/port_sampler.hpp"

#include <set>

namespace ibpm::poll {

namespace {

using mad::MadQuery;
using mad::MadReply;

// The queries of one round and, for each, where its answer goes.
struct Round {
  std::vector<MadQuery> queries;
  std::map<unsigned, std::size_t> node_info;        // LID -> query
  std::map<unsigned, std::size_t> switch_port0;     // LID -> query (PortInfo of port 0)
  std::map<unsigned, std::size_t> class_port_info;  // LID -> query
  std::map<std::size_t, std::size_t> port_info;     // target -> query
  std::map<std::size_t, std::size_t> counters;      // target -> query
  std::map<std::size_t, std::size_t> extended;      // target -> query

  std::size_t add(MadQuery query) {
    queries.push_back(query);
    return queries.size() - 1;
  }
  void add_counters(std::size_t target, const PortTarget& t, const mad::PmaCapabilities& caps) {
    counters[target] = add(mad::port_counters_query(t.lid, t.port));
    if (caps.extended()) extended[target] = add(mad::port_counters_extended_query(t.lid, t.port));
  }
};

void read_counters(const Round& round, const std::vector<MadReply>& replies, std::size_t target,
                   PortSample& sample) {
  const auto c = round.counters.find(target);
  if (c == round.counters.end()) return;
  const MadReply& reply = replies[c->second];
  if (!reply.ok()) {
    sample.error = "PortCounters: " + mad::describe_failure(reply);
    return;
  }
  mad::decode_port_counters(reply.data, sample.caps, sample.values);
  sample.time = to_epoch_seconds(reply.received);
  sample.answered = true;
  const auto e = round.extended.find(target);
  if (e == round.extended.end()) return;
  const MadReply& ext = replies[e->second];
  // An agent that claims extended counters but refuses them keeps its 32-bit ones.
  if (!ext.ok()) return;
  mad::decode_port_counters_extended(ext.data, sample.values);
  sample.extended = true;
  sample.time = std::max(sample.time, to_epoch_seconds(ext.received));
}

}  // namespace

double to_epoch_seconds(std::chrono::system_clock::time_point time) {
  return std::chrono::duration<double>(time.time_since_epoch()).count();
}

bool PortSample::stale_topology(const PortTarget& target) const {
  if (!node_info) return !answered;
  return node_info->node_guid != target.node;
}

std::vector<PortSample> sample_ports(mad::MadEngine& engine, const std::vector<PortTarget>& targets,
                                     const KnownCapabilities& known,
                                     const mad::EngineOptions& options,
                                     bool probe_nodes_first) {
  std::vector<PortSample> samples(targets.size());
  KnownCapabilities caps = known;

  // NodeInfo per LID: who answers there (and whether anything does).
  std::map<unsigned, MadReply> node_replies;
  if (probe_nodes_first) {
    Round probe;
    for (const PortTarget& t : targets)
      if (!probe.node_info.contains(t.lid)) probe.node_info[t.lid] = probe.add(mad::node_info_query(t.lid));
    const std::vector<MadReply> replies = engine.run(probe.queries, options);
    for (const auto& [lid, q] : probe.node_info) node_replies[lid] = replies[q];
  }
  const auto silent = [&](unsigned lid) {
    const auto r = node_replies.find(lid);
    return r != node_replies.end() && !r->second.ok();
  };

  Round first;
  std::set<unsigned> agents;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const PortTarget& t = targets[i];
    if (silent(t.lid)) continue;
    if (agents.insert(t.lid).second) {  // the first port of this LID
      if (!probe_nodes_first) first.node_info[t.lid] = first.add(mad::node_info_query(t.lid));
      if (t.type == NodeType::sw) first.switch_port0[t.lid] = first.add(mad::port_info_query(t.lid, 0));
      if (!caps.contains(t.lid))
        first.class_port_info[t.lid] = first.add(mad::class_port_info_query(t.lid));
    }
    first.port_info[i] = first.add(mad::port_info_query(t.lid, t.port));
    if (const auto known_caps = caps.find(t.lid); known_caps != caps.end())
      first.add_counters(i, t, known_caps->second);
  }
  const std::vector<MadReply> replies = engine.run(first.queries, options);
  for (const auto& [lid, q] : first.node_info) node_replies[lid] = replies[q];

  std::set<unsigned> learnt;
  std::map<unsigned, std::string> cpi_errors;
  for (const auto& [lid, q] : first.class_port_info) {
    if (replies[q].ok()) {
      caps[lid] = mad::decode_class_port_info(replies[q].data);
      learnt.insert(lid);
    } else {
      cpi_errors[lid] = "ClassPortInfo: " + mad::describe_failure(replies[q]);
    }
  }

  Round second;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const PortTarget& t = targets[i];
    PortSample& sample = samples[i];
    if (silent(t.lid)) {
      sample.error = "NodeInfo: " + mad::describe_failure(node_replies.at(t.lid));
      continue;
    }
    if (const MadReply& r = node_replies.at(t.lid); r.ok())
      sample.node_info = mad::decode_node_info(r.data);
    if (const MadReply& r = replies[first.port_info.at(i)]; r.ok()) {
      const auto port0 = first.switch_port0.find(t.lid);
      const MadReply* cap_source = port0 == first.switch_port0.end() ? &r : &replies[port0->second];
      if (cap_source->ok()) {
        Port live;
        live.number = t.port;
        live.present = true;
        mad::decode_port_info(r.data, cap_source->data, live);
        sample.live = live;
      }
    }
    if (const auto c = caps.find(t.lid); c != caps.end()) {
      sample.caps = c->second;
      sample.caps_queried = learnt.contains(t.lid);
    }
    if (sample.stale_topology(t) && sample.node_info) {
      // Another node answers at this LID: its counters must not go into this port's state.
      sample.error = "LID " + std::to_string(t.lid) + " answers as " +
                     format_guid(sample.node_info->node_guid) + ", not " + format_guid(t.node);
      continue;
    }
    if (learnt.contains(t.lid)) {
      second.add_counters(i, t, sample.caps);
    } else if (first.counters.contains(i)) {
      read_counters(first, replies, i, sample);
    } else {
      sample.error = cpi_errors.contains(t.lid) ? cpi_errors[t.lid] : "no capabilities";
    }
  }
  if (!second.queries.empty()) {
    const std::vector<MadReply> more = engine.run(second.queries, options);
    for (const auto& [target, q] : second.counters) read_counters(second, more, target, samples[target]);
  }
  return samples;
}

}  // namespace ibpm::poll
