// SPDX-License-Identifier: MIT

#include "poll/port_sampler.hpp"

#include <algorithm>
#include <span>
#include <unordered_map>
#include <utility>

namespace ibpm::poll {

namespace {

using mad::MadQuery;
using mad::MadReply;

// What a query asks, and for whom (an agent for the per-LID queries, a target otherwise).
enum class Ask : std::uint8_t {
  node_info,
  class_port_info,
  switch_port0,
  port_info,
  counters,
  extended,
  extended_all
};
struct Tag {  // 8 bytes: a run has two or three queries per port
  Ask ask;
  std::uint32_t who;
};

// How a query ended, without its payload (a reply's payload is 192 bytes).
struct Outcome {
  explicit Outcome(const MadReply& reply)
      : status(reply.status), mad_status(reply.mad_status), tries(reply.tries) {}
  mad::ReplyStatus status;
  std::uint16_t mad_status;
  int tries;
  bool ok() const { return reply().ok(); }
  MadReply reply() const {
    MadReply r;
    r.status = status;
    r.mad_status = mad_status;
    r.tries = tries;
    return r;
  }
};

// The agents (SMA and PMA) at one LID, and the targets behind them. One per node of the run:
// what it keeps of the answers is decoded, not their payloads.
struct Agent {
  unsigned lid = 0;
  NodeType type = NodeType::unknown;
  std::span<const std::uint32_t> targets;    // in the run's one list of targets by agent
  std::optional<Outcome> node_info_outcome;  // how NodeInfo ended (nullopt: not asked)
  std::optional<mad::NodeInfo> node_info;    // its answer, when it answered
  std::optional<mad::PmaCapabilities> caps;
  bool caps_learnt = false;
  std::optional<Outcome> caps_failure;  // how ClassPortInfo failed
  bool port0_asked = false;
  bool verify = true;  // NodeInfo asked up front
  bool node_info_asked = false;
};

class Sampling {
 public:
  Sampling(const std::vector<PortTarget>& targets, const KnownCapabilities& known, bool probe,
           const std::vector<SampleHint>& hints, const SampleSink& sink)
      : targets_(targets),
        hints_(hints),
        probe_(probe),
        sink_(sink),
        port_info_asked_(targets.size(), false),
        counters_(targets.size()),
        counters_extended_(targets.size(), false),
        agent_of_(targets.size()) {
    group_by_agent(known);
    if (!hints.empty()) {
      for (Agent& agent : agents_) {
        agent.verify = false;
        for (std::size_t t : agent.targets) agent.verify |= hints[t].verify_node;
      }
    }
  }
  // The agents' spans point into this object.
  Sampling(const Sampling&) = delete;
  Sampling& operator=(const Sampling&) = delete;

  void run(mad::MadEngine& engine, const mad::EngineOptions& options) {
    // Room for NodeInfo, ClassPortInfo and port 0's PortInfo per agent and both counter queries
    // per port: the list does not grow (and copy itself) while the run appends to it.
    tags_.reserve(3 * agents_.size() + 2 * targets_.size());
    for (std::size_t a = 0; a < agents_.size(); ++a) {
      if (agents_[a].verify) ask_node_info(a);
      if (!probe_ || !agents_[a].verify) start(a);
    }
    // Each query is made from its tag as it goes out: a tag takes 8 bytes, a query 88.
    engine.run(
        mad::MadEngine::QuerySource{[this] { return tags_.size(); },
                                    [this](std::size_t index) { return query_of(tags_[index]); }},
        options,
        [this](std::size_t index, const MadReply& reply) { on_reply(tags_[index], reply); });
  }

  void finish();

 private:
  void ask(Ask what, std::size_t who) { tags_.push_back({what, static_cast<std::uint32_t>(who)}); }

  // The query a tag stands for.
  MadQuery query_of(Tag tag) const {
    switch (tag.ask) {
      case Ask::node_info:
        return mad::node_info_query(agents_[tag.who].lid);
      case Ask::class_port_info:
        return mad::class_port_info_query(agents_[tag.who].lid);
      case Ask::switch_port0:
        return mad::port_info_query(agents_[tag.who].lid, 0);
      case Ask::port_info:
        return mad::port_info_query(agents_[agent_of_[tag.who]].lid, targets_[tag.who].port);
      case Ask::counters:
        return counter_query(mad::CounterRead::port_counters, tag.who);
      case Ask::extended:
        return counter_query(mad::CounterRead::extended_data, tag.who);
      case Ask::extended_all:
        break;
    }
    return counter_query(mad::CounterRead::extended_all, tag.who);
  }

  MadQuery counter_query(mad::CounterRead read, std::size_t t) const {
    return mad::counter_read_query(read, agents_[agent_of_[t]].lid, targets_[t].port);
  }

  const SampleHint* hint(std::size_t target) const {
    return hints_.empty() ? nullptr : &hints_[target];
  }

  // The node's queries after its NodeInfo (or at once without the probe).
  void start(std::size_t a) {
    Agent& agent = agents_[a];
    if (!agent.caps) ask(Ask::class_port_info, a);
    for (std::size_t t : agent.targets) {
      const SampleHint* h = hint(t);
      if (!h || h->ask_port_info || !h->live) ask_port_info(t);
    }
    if (agent.caps) ask_counters(a);
  }

  void ask_node_info(std::size_t a) {
    if (agents_[a].node_info_asked) return;
    agents_[a].node_info_asked = true;
    ask(Ask::node_info, a);
  }

  // A counter lower than in the last sample: reset, or another node at this LID.
  bool counters_fell(std::size_t t) const {
    const SampleHint* h = hint(t);
    if (!h || !h->previous) return false;
    const auto& now = values_of(t);
    for (std::size_t i = 0; i < now.size(); ++i)
      if (now[i] && (*h->previous)[i] && *now[i] < *(*h->previous)[i]) return true;
    return false;
  }

  void ask_counters(std::size_t a) {
    const Agent& agent = agents_[a];
    const mad::CounterReads plan = mad::plan_counter_reads(*agent.caps);
    for (std::size_t t : agent.targets)
      for (const mad::CounterRead read : plan) ask(ask_of(read), t);
  }

  static Ask ask_of(mad::CounterRead read) {
    switch (read) {
      case mad::CounterRead::port_counters:
        return Ask::counters;
      case mad::CounterRead::extended_data:
        return Ask::extended;
      case mad::CounterRead::extended_all:
        break;
    }
    return Ask::extended_all;
  }

  void ask_port_info(std::size_t t) {
    if (port_info_asked_[t]) return;
    port_info_asked_[t] = true;
    Agent& agent = agents_[agent_of_[t]];
    if (agent.type == NodeType::sw && !agent.port0_asked) {
      agent.port0_asked = true;
      ask(Ask::switch_port0, agent_of_[t]);
    }
    ask(Ask::port_info, t);
  }

  // The link went down or retrained since the last sample: its PortInfo may say something new.
  bool link_moved(std::size_t t) const {
    const SampleHint* h = hint(t);
    if (!h || !h->previous) return false;  // without a last sample PortInfo is asked anyway
    for (const counters::Counter c :
         {counters::Counter::link_downed, counters::Counter::link_error_recovery}) {
      const auto i = static_cast<std::size_t>(c);
      if (values_of(t)[i] != (*h->previous)[i]) return true;
    }
    return false;
  }

  // The tag by value: asking more queries may move tags_.
  void on_reply(Tag tag, const MadReply& reply) {
    switch (tag.ask) {
      case Ask::node_info: {
        Agent& agent = agents_[tag.who];
        agent.node_info_outcome = Outcome(reply);
        if (reply.ok()) agent.node_info = mad::decode_node_info(reply.data);
        if (!probe_ || !agent.verify || !agent.node_info) return;
        if (agent.node_info->node_guid == targets_[agent.targets.front()].node) start(tag.who);
        return;
      }
      case Ask::class_port_info: {
        Agent& agent = agents_[tag.who];
        if (!reply.ok()) {
          agent.caps_failure = Outcome(reply);
          return;
        }
        agent.caps = mad::decode_class_port_info(reply.data);
        agent.caps_learnt = true;
        ask_counters(tag.who);
        return;
      }
      case Ask::switch_port0:
        if (reply.ok()) port0_.insert_or_assign(tag.who, reply.data);
        return;
      case Ask::port_info:
        if (reply.ok()) port_info_.insert_or_assign(tag.who, reply.data);
        return;
      case Ask::counters:
      case Ask::extended_all: {
        if (tag.ask == Ask::extended_all && reply.status == mad::ReplyStatus::answered &&
            !reply.ok()) {
          // The agent claims the additional counters but refuses the attribute: this port is
          // read the two-MAD way, and so is every port of the agent from now on (the
          // capabilities kept for the next run lose the bit).
          Agent& agent = agents_[agent_of_[tag.who]];
          agent.caps->mask2 &= ~mad::kPmaAdditionalExtended;
          for (const mad::CounterRead read : mad::plan_counter_reads(*agent.caps))
            ask(ask_of(read), tag.who);
          return;
        }
        counters_[tag.who] = Outcome(reply);
        counters_extended_[tag.who] = tag.ask == Ask::extended_all;
        if (!reply.ok()) return;
        const SampleSlot slot = sink_(tag.who);
        PortSample& sample = slot.sample;
        const mad::PmaCapabilities& caps = *agents_[agent_of_[tag.who]].caps;
        if (tag.ask == Ask::extended_all) {
          mad::decode_port_counters_extended_all(reply.data, caps, slot.values);
          sample.extended = sample.all_extended = true;
        } else {
          mad::decode_port_counters(reply.data, caps, slot.values);
        }
        sample.time = to_epoch_seconds(reply.received);
        sample.answered = true;
        if (const auto it = pending_extended_.find(tag.who); it != pending_extended_.end()) {
          apply_extended(tag.who, it->second);
          pending_extended_.erase(it);
        }
        if (link_moved(tag.who)) ask_port_info(tag.who);
        if (counters_fell(tag.who)) ask_node_info(agent_of_[tag.who]);
        return;
      }
      case Ask::extended:
        // An agent that claims extended counters but refuses them keeps its 32-bit ones.
        if (!reply.ok()) return;
        if (sample_of(tag.who).answered)
          apply_extended(tag.who, reply);
        else
          pending_extended_.insert_or_assign(tag.who, reply);
        return;
    }
  }

  void apply_extended(std::size_t t, const MadReply& reply) {
    const SampleSlot slot = sink_(t);
    PortSample& sample = slot.sample;
    mad::decode_port_counters_extended(reply.data, slot.values);
    sample.extended = true;
    sample.time = std::max(sample.time, to_epoch_seconds(reply.received));
  }

  // The agents, one per LID, and each one's targets as a span of one list: a few allocations
  // per run, not a map entry and a growing vector per node.
  void group_by_agent(const KnownCapabilities& known) {
    constexpr std::uint32_t kNone = ~std::uint32_t{0};
    unsigned top_lid = 0;
    for (const PortTarget& target : targets_) top_lid = std::max(top_lid, target.lid);
    // Targets take their LID from a fabric::Lid (16 bits): at most 256 kB, for the grouping only.
    std::vector<std::uint32_t> agent_at_lid(std::size_t{top_lid} + 1, kNone);
    std::vector<std::uint32_t> first_target;  // per agent, then one past the last agent's
    for (std::size_t i = 0; i < targets_.size(); ++i) {
      std::uint32_t& a = agent_at_lid[targets_[i].lid];
      if (a == kNone) {
        a = static_cast<std::uint32_t>(agents_.size());
        Agent& agent = agents_.emplace_back();
        agent.lid = targets_[i].lid;
        agent.type = targets_[i].type;
        if (const auto c = known.find(agent.lid); c != known.end()) agent.caps = c->second;
        first_target.push_back(0);
      }
      agent_of_[i] = a;
      ++first_target[a];  // a count until the sums below
    }
    agents_.shrink_to_fit();  // grown by doubling
    std::uint32_t sum = 0;
    for (std::uint32_t& first : first_target) sum += std::exchange(first, sum);
    first_target.push_back(sum);
    targets_by_agent_.resize(targets_.size());
    std::vector<std::uint32_t> next(first_target.begin(), first_target.end() - 1);
    for (std::size_t i = 0; i < targets_.size(); ++i)
      targets_by_agent_[next[agent_of_[i]]++] = static_cast<std::uint32_t>(i);
    for (std::size_t a = 0; a < agents_.size(); ++a)
      agents_[a].targets = std::span<const std::uint32_t>(targets_by_agent_)
                               .subspan(first_target[a], first_target[a + 1] - first_target[a]);
  }

  const std::vector<PortTarget>& targets_;
  const std::vector<SampleHint>& hints_;
  const bool probe_;
  std::vector<Tag> tags_;
  std::vector<Agent> agents_;
  const SampleSink& sink_;  // the caller's sample of each target
  PortSample& sample_of(std::size_t t) const { return sink_(t).sample; }
  mad::CounterValues& values_of(std::size_t t) const { return sink_(t).values; }
  std::vector<bool> port_info_asked_;
  // PortInfo answers, by target: a sweep asks few ports' PortInfo, so only those take room.
  std::unordered_map<std::size_t, mad::MadData> port_info_;
  // Port 0's PortInfo (a switch's CapabilityMask), by agent: only switches ask it.
  std::unordered_map<std::size_t, mad::MadData> port0_;
  // How each target's PortCounters query ended (nullopt: never asked).
  std::vector<std::optional<Outcome>> counters_;
  std::vector<bool> counters_extended_;  // counters_ is PortCountersExtended alone's outcome
  // PortCountersExtended answers that came before their PortCounters (rare), by target.
  std::unordered_map<std::size_t, MadReply> pending_extended_;
  std::vector<std::uint32_t> agent_of_;
  std::vector<std::uint32_t> targets_by_agent_;  // the agents' targets, agent after agent
};

// Marks a sample that failed because of `reply`: its reason, and whether the deadline did it.
void fail(PortSample& sample, const std::string& what, const MadReply& reply) {
  sample.answered = false;
  sample.cut = reply.status == mad::ReplyStatus::cut;
  sample.error = what + ": " + mad::describe_failure(reply);
}

void Sampling::finish() {
  for (std::size_t a = 0; a < agents_.size(); ++a) {
    const Agent& agent = agents_[a];
    const std::optional<mad::NodeInfo>& info = agent.node_info;
    const auto port0 = port0_.find(a);
    const mad::MadData* switch_port0 = port0 == port0_.end() ? nullptr : &port0->second;
    for (std::size_t t : agent.targets) {
      PortSample& sample = sample_of(t);
      const PortTarget& target = targets_[t];
      if (info) sample.answered_as = info->node_guid;
      if (probe_ && agent.verify && !info) {  // nothing else was asked
        fail(sample, "NodeInfo",
             agent.node_info_outcome ? agent.node_info_outcome->reply() : MadReply{});
        continue;
      }
      if (info && info->node_guid != target.node) {
        // Another node answers at this LID: its counters must not go into this port's state.
        sample.answered = false;
        sample.error = "LID " + std::to_string(target.lid) + " answers as " +
                       format_guid(info->node_guid) + ", not " + format_guid(target.node);
        continue;
      }
      if (agent.caps) {
        sample.caps = *agent.caps;
        sample.caps_queried = agent.caps_learnt;
      }
      const auto info_read = port_info_.find(t);
      if (info_read != port_info_.end() && (target.type != NodeType::sw || switch_port0)) {
        const mad::MadData& port_info = info_read->second;
        Port live;
        live.number = target.port;
        live.present = true;
        mad::decode_port_info(port_info, switch_port0 ? *switch_port0 : port_info, live);
        sample.live = link_state_of(live);
        sample.live_read = true;
      } else if (const SampleHint* h = hint(t); h && !port_info_asked_[t]) {
        if (h->live) sample.live = *h->live;  // nothing suggests it changed
      }
      if (!agent.caps) {
        if (agent.caps_failure)
          fail(sample, "ClassPortInfo", agent.caps_failure->reply());
        else
          sample.error = "no capabilities";
        continue;
      }
      const char* attribute = (counters_[t] ? counters_extended_[t] : agent.caps->all_extended())
                                  ? "PortCountersExtended"
                                  : "PortCounters";
      if (!counters_[t]) {  // the deadline came before the query could even be asked
        sample.cut = true;
        MadReply never;
        never.status = mad::ReplyStatus::cut;
        sample.error = std::string(attribute) + ": " + mad::describe_failure(never);
      } else if (!counters_[t]->ok()) {
        fail(sample, attribute, counters_[t]->reply());
      }
    }
  }
}

}  // namespace

double to_epoch_seconds(std::chrono::system_clock::time_point time) {
  return std::chrono::duration<double>(time.time_since_epoch()).count();
}

bool PortSample::stale_topology(const PortTarget& target) const {
  if (!answered_as) return !answered && !cut;
  return *answered_as != target.node;
}

void sample_ports_into(mad::MadEngine& engine, const std::vector<PortTarget>& targets,
                       const KnownCapabilities& known, const mad::EngineOptions& options,
                       bool probe_nodes_first, const std::vector<SampleHint>& hints,
                       const SampleSink& sink) {
  Sampling sampling(targets, known, probe_nodes_first, hints, sink);
  sampling.run(engine, options);
  sampling.finish();
}

std::vector<PortReading> sample_ports(mad::MadEngine& engine,
                                      const std::vector<PortTarget>& targets,
                                      const KnownCapabilities& known,
                                      const mad::EngineOptions& options, bool probe_nodes_first,
                                      const std::vector<SampleHint>& hints) {
  std::vector<PortReading> samples(targets.size());
  sample_ports_into(engine, targets, known, options, probe_nodes_first, hints,
                    [&samples](std::size_t t) {
                      return SampleSlot{samples[t], samples[t].values};
                    });
  return samples;
}

}  // namespace ibpm::poll
