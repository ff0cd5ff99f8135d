// SPDX-License-Identifier: MIT
// The MAD engine against ibsim: PMA queries of a small fat tree through mad_probe (the engine
// run as a client of the simulator), with counters set on the ibsim console, MADs dropped,
// nodes unreachable, ibsim frozen. Each test case starts its own simulation, so ibsim's drops
// and the error counters they raise stay local to it.
//
// ibsim 0.10 behaviour the cases rely on (sim_mad.c): a MAD it drops or cannot route comes back
// to the sender at once with status ETIMEDOUT (110); `Error "node" P` draws P% at every port of
// the node a MAD enters and again at its destination; drops use random() never seeded, so they
// repeat in every fresh simulation; switch PMA CapabilityMask 0x1300, CA 0x1200.
#include <catch2/catch.hpp>

#include "counters/counter.hpp"
#include "mad_live_support.hpp"

using namespace ibpm;
using namespace ibpm::test;

namespace {
constexpr std::uint64_t kTraffic = 1'000'000;  // more than ibsim's own MADs add to data counters
}  // namespace

TEST_CASE("PortCounters of every switch port in one run come back on the right ports") {
  IBPM_REQUIRE_SIMULATOR();
  LiveTree live;
  const std::vector<SwitchPort> ports = live.switch_ports();
  REQUIRE(ports.size() == 48);  // 4 leaves and 2 spines, 8 cabled ports each

  // Three marked ports: a leaf's host port, another leaf's uplink, a spine port. The data
  // values are well above what ibsim's own MAD traffic adds (kTraffic).
  const SwitchPort host_port{live.tree.leaves()[1], 1};
  const SwitchPort uplink{live.tree.leaves()[2], live.tree.host_ports_per_leaf + 2};
  const SwitchPort spine_port{live.tree.spines().back(), 3};
  const std::uint64_t xmit32 = 10'000'000, xmit64 = (std::uint64_t{1} << 40) + 5;
  live.set_counter(host_port.node, host_port.port, "PortCounters.SymbolErrorCounter", 7);
  live.set_counter(uplink.node, uplink.port, "PortCounters.PortXmitData", xmit32);
  live.set_counter(spine_port.node, spine_port.port, "PortCountersExtended.PortXmitData", xmit64);

  std::vector<std::string> queries = pc_queries(ports);
  for (const SwitchPort& p : ports) queries.push_back(p.pcx());
  ProbeRun run = live.probe({"--window", "64"}, queries);  // 96 queries: more than a window

  CHECK(run.stats["sent"] == queries.size());
  CHECK(run.stats["retries"] == 0);
  CHECK(run.stats["ignored"] == 0);
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const SwitchPort& p = ports[i];
    const std::string name = p.name();
    INFO(name);
    const ProbeReply& pc = run.replies[i];
    const ProbeReply& pcx = run.replies[ports.size() + i];
    REQUIRE(pc.answered());
    REQUIRE(pcx.answered());
    CHECK(pc.tries == 1);
    // The answer is the one to this query: the PMA echoes the PortSelect it was asked for.
    CHECK(pc.at("port_select") == static_cast<unsigned>(p.port));
    CHECK(pcx.at("port_select") == static_cast<unsigned>(p.port));

    CHECK(pc.at("SymbolErrorCounter") == (name == host_port.name() ? 7u : 0u));
    for (const std::string& counter : error_counter_names())
      if (counter != "SymbolErrorCounter") CHECK(pc.at(counter) == 0);
    if (name == uplink.name()) {
      CHECK(pc.at("PortXmitData") >= xmit32);
      CHECK(pc.at("PortXmitData") < xmit32 + kTraffic);
    } else {
      CHECK(pc.at("PortXmitData") < kTraffic);
    }
    if (name == spine_port.name()) {
      CHECK(pcx.at("PortXmitData") >= xmit64);
      CHECK(pcx.at("PortXmitData") < xmit64 + kTraffic);
    } else {
      CHECK(pcx.at("PortXmitData") < kTraffic);
    }
  }
}

TEST_CASE("window 1 and window 64 read the same error counters") {
  IBPM_REQUIRE_SIMULATOR();
  LiveTree live;
  const std::vector<SwitchPort> ports = live.switch_ports();
  live.set_counter(live.tree.leaves()[0], 5, "PortCounters.PortRcvErrors", 11);
  live.set_counter(live.tree.spines()[0], 2, "PortCounters.LinkDownedCounter", 3);
  live.set_counter(live.tree.leaves()[3], 8, "PortCounters.VL15Dropped", 65535);

  ProbeRun one = live.probe({"--window", "1"}, pc_queries(ports));
  ProbeRun many = live.probe({"--window", "64"}, pc_queries(ports));
  CHECK(one.stats["sent"] == ports.size());
  CHECK(many.stats["sent"] == ports.size());
  std::map<std::string, std::uint64_t> nonzero;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    INFO(ports[i].name());
    REQUIRE(one.replies[i].answered());
    REQUIRE(many.replies[i].answered());
    for (const std::string& counter : error_counter_names()) {
      CHECK(one.replies[i].at(counter) == many.replies[i].at(counter));
      if (many.replies[i].at(counter))
        nonzero[ports[i].name() + " " + counter] = many.replies[i].at(counter);
    }
  }
  CHECK(nonzero ==
        std::map<std::string, std::uint64_t>{{live.tree.leaves()[0] + "[5] PortRcvErrors", 11},
                                             {live.tree.spines()[0] + "[2] LinkDownedCounter", 3},
                                             {live.tree.leaves()[3] + "[8] VL15Dropped", 65535}});
}

TEST_CASE("a switch that drops half its MADs is still read through retries") {
  IBPM_REQUIRE_SIMULATOR();
  LiveTree live;
  // The last leaf: no other switch's MADs pass through it (the client hangs off the first).
  // Port 0 only, i.e. its SMA and PMA: `Error "leaf04" 50` would also draw at the port a MAD
  // enters, dropping 75% of the MADs to the switch.
  const std::string lossy = live.tree.leaves().back();
  live.console("Error \"" + lossy + "\"[0] 50");
  const std::vector<SwitchPort> ports = live.switch_ports();

  ProbeRun run =
      live.probe({"--timeout", "100", "--retries", "60", "--deadline", "6000"}, pc_queries(ports));
  std::size_t lossy_queries = 0, lossy_tries = 0;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    INFO(ports[i].name() << " " << run.replies[i].status << " after " << run.replies[i].tries
                         << " tries");
    REQUIRE(run.replies[i].answered());
    CHECK(run.replies[i].at("port_select") == static_cast<unsigned>(ports[i].port));
    if (ports[i].node == lossy) {
      ++lossy_queries;
      lossy_tries += static_cast<std::size_t>(run.replies[i].tries);
    } else {
      CHECK(run.replies[i].tries == 1);
    }
  }
  CHECK(lossy_queries == 8);
  CHECK(run.stats["retries"] > 0);
  CHECK(run.stats["retries"] == lossy_tries - lossy_queries);  // only the lossy switch retried
  CHECK(run.stats["sent"] == ports.size() + run.stats["retries"]);
  CHECK(run.stats["elapsed_ms"] < 6000);
}

TEST_CASE("an unreachable switch times out within its budget while the others answer") {
  IBPM_REQUIRE_SIMULATOR();
  LiveTree live;
  const std::string dead = live.tree.leaves().back();
  live.console("Error \"" + dead + "\" 100");
  const std::vector<SwitchPort> ports = live.switch_ports();

  // Budget: timeout x retries = 400 ms, i.e. two tries of 200 ms.
  ProbeRun run =
      live.probe({"--timeout", "200", "--retries", "2", "--deadline", "5000"}, pc_queries(ports));
  std::size_t dead_queries = 0;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    INFO(ports[i].name());
    if (ports[i].node == dead) {
      ++dead_queries;
      CHECK(run.replies[i].status == "timed_out");
      CHECK(run.replies[i].tries == 2);
    } else {
      CHECK(run.replies[i].answered());
      CHECK(run.replies[i].tries == 1);
    }
  }
  CHECK(dead_queries == 8);
  CHECK(run.stats["retries"] == dead_queries);
  // ibsim hands a dropped MAD back at once with status ETIMEDOUT: no lower bound on the time.
  CHECK(run.stats["elapsed_ms"] < 2000);
}

TEST_CASE("a LID no node has times out within the deadline") {
  IBPM_REQUIRE_SIMULATOR();
  LiveTree live;
  const SwitchPort first = live.switch_ports().front();
  // Budget 400 ms x 10 retries = 4 s; the 1 s deadline cuts it to 2 or 3 tries, and the reply
  // says the deadline ended it (nothing is known of the LID), not its schedule.
  ProbeRun run = live.probe({"--timeout", "400", "--retries", "10", "--deadline", "1000"},
                            {"pc:0xbff0:1", first.pc()});
  CHECK(run.replies[0].status == "cut");
  CHECK(run.replies[0].tries >= 2);
  CHECK(run.replies[0].tries <= 3);
  CHECK(run.replies[1].answered());
  CHECK(run.stats["elapsed_ms"] < 1500);
}

TEST_CASE("with the simulator frozen the engine's own timers retry and keep the deadline") {
  IBPM_REQUIRE_SIMULATOR();
  LiveTree live;
  const SwitchPort port = live.switch_ports().back();
  // Nothing answers and nothing reports a loss: every try ends on the engine's clock.
  // Budget min(300 ms x 10 retries, 1 s deadline): tries of 300 ms then 300..811 ms, cut at 1 s.
  ProbeRun run = live.probe_frozen({"--timeout", "300", "--retries", "10", "--deadline", "1000"},
                                   {port.pc(), "pc:0xbff0:1"}, std::chrono::milliseconds{0});
  for (const ProbeReply& reply : run.replies) {
    INFO(reply.query);
    CHECK(reply.status == "cut");
    CHECK(reply.tries >= 2);
    CHECK(reply.tries <= 3);
  }
  CHECK(run.stats["sent"] ==
        static_cast<std::uint64_t>(run.replies[0].tries + run.replies[1].tries));
  CHECK(run.stats["elapsed_ms"] >= 990);
  CHECK(run.stats["elapsed_ms"] < 1500);
}

TEST_CASE("late answers to earlier tries are ignored and the current try's answer is taken") {
  IBPM_REQUIRE_SIMULATOR();
  LiveTree live;
  const SwitchPort port = live.switch_ports().front();
  // ibsim frozen for 700 ms: the 200 ms first try expires and is retried; once ibsim runs
  // again it answers every try it has queued, in order.
  ProbeRun run = live.probe_frozen({"--timeout", "200", "--retries", "20", "--deadline", "5000"},
                                   {port.pc()}, std::chrono::milliseconds{700});
  const ProbeReply& reply = run.replies[0];
  INFO(run.out);
  REQUIRE(reply.answered());
  CHECK(reply.at("port_select") == static_cast<unsigned>(port.port));
  CHECK(reply.tries >= 2);
  CHECK(run.stats["retries"] == static_cast<std::uint64_t>(reply.tries - 1));
  CHECK(run.stats["ignored"] == static_cast<std::uint64_t>(reply.tries - 1));
  CHECK(run.stats["elapsed_ms"] >= 650);
}

TEST_CASE("answers to an earlier run's tries that arrive during the next run are ignored") {
  IBPM_REQUIRE_SIMULATOR();
  LiveTree live;
  const std::vector<SwitchPort> ports = live.switch_ports();
  const SwitchPort port = ports.front(), next = ports[1];
  REQUIRE(next.lid == port.lid);
  REQUIRE(next.port != port.port);
  // ibsim frozen through the whole first run (`port`): every try of it stays queued (100 ms, then
  // the backoff's retries, until the 600 ms deadline). Once ibsim runs again it answers them in
  // order, then the second run's one try (`next`, on the same switch, so the same slot and LID):
  // the first run's answers reach the engine during the second, and must not be taken for its.
  ProbeRun run = live.probe_frozen(
      {"--timeout", "100", "--retries", "10", "--deadline", "600", "--again", next.pc()},
      {port.pc()}, std::chrono::milliseconds{0});
  INFO(run.out);
  REQUIRE(run.replies[0].status == "cut");
  const auto first_tries = static_cast<std::uint64_t>(run.replies[0].tries);
  CHECK(first_tries >= 2);
  REQUIRE(run.again.size() == 1);
  const ProbeReply& reply = run.again[0];
  REQUIRE(reply.answered());
  CHECK(reply.tries == 1);
  CHECK(reply.query == next.pc());
  CHECK(reply.at("port_select") == static_cast<unsigned>(next.port));
  CHECK(run.stats["sent"] == first_tries + 1);
  CHECK(run.stats["ignored"] == first_tries);
}

TEST_CASE("a PortCounters reset clears only the selected counters") {
  IBPM_REQUIRE_SIMULATOR();
  LiveTree live;
  const SwitchPort port{live.tree.leaves()[1], 2, live.lid(live.tree.leaves()[1])};
  live.set_counter(port.node, port.port, "PortCounters.SymbolErrorCounter", 9);
  live.set_counter(port.node, port.port, "PortCounters.PortRcvErrors", 4);
  live.set_counter(port.node, port.port, "PortCounters.PortXmitWait", 5);
  live.set_counter(port.node, port.port, "PortCounters.PortXmitData", 10'000'000);
  const ProbeReply before = live.probe({}, {port.pc()}).replies[0];
  REQUIRE(before.answered());
  REQUIRE(before.at("SymbolErrorCounter") == 9);
  REQUIRE(before.at("PortRcvErrors") == 4);
  REQUIRE(before.at("PortXmitWait") == 5);
  REQUIRE(before.at("PortXmitData") >= 10'000'000);

  auto reset = [&](counters::Counter counter) {
    const std::string query = "reset:" + std::to_string(port.lid) + ":" +
                              std::to_string(port.port) + ":" +
                              std::to_string(counters::counter_bit(counter));
    REQUIRE(live.probe({}, {query}).replies[0].answered());
    const ProbeReply after = live.probe({}, {port.pc()}).replies[0];
    REQUIRE(after.answered());
    return after;
  };
  SECTION("SymbolErrorCounter (CounterSelect bit 0)") {
    const ProbeReply after = reset(counters::Counter::symbol_errors);
    CHECK(after.at("SymbolErrorCounter") == 0);
    CHECK(after.at("PortRcvErrors") == 4);
    CHECK(after.at("PortXmitWait") == 5);
    CHECK(after.at("PortXmitData") >= 10'000'000);
  }
  SECTION("PortXmitWait (CounterSelect2 bit 0)") {
    const ProbeReply after = reset(counters::Counter::xmit_wait);
    CHECK(after.at("PortXmitWait") == 0);
    CHECK(after.at("SymbolErrorCounter") == 9);
    CHECK(after.at("PortRcvErrors") == 4);
    CHECK(after.at("PortXmitData") >= 10'000'000);
  }
  SECTION("PortXmitData (CounterSelect bit 12)") {
    const ProbeReply after = reset(counters::Counter::xmit_data);
    CHECK(after.at("PortXmitData") < kTraffic);
    CHECK(after.at("PortXmitWait") == 5);
    CHECK(after.at("SymbolErrorCounter") == 9);
    CHECK(after.at("PortRcvErrors") == 4);
  }
}

TEST_CASE("ClassPortInfo of a switch and of a CA announces extended counters") {
  IBPM_REQUIRE_SIMULATOR();
  LiveTree live;
  const std::string sw = live.tree.spines().front();
  const std::string ca = live.tree.hosts.back();
  ProbeRun run = live.probe(
      {}, {"cpi:" + std::to_string(live.lid(sw)), "cpi:" + std::to_string(live.lid(ca))});
  for (const ProbeReply& reply : run.replies) {
    INFO(reply.query);
    REQUIRE(reply.answered());
    CHECK((reply.at("capmask") & 0x0200) != 0);  // PortCountersExtended
    CHECK((reply.at("capmask") & 0x1000) != 0);  // PortXmitWait
  }
  // ibsim 0.10: switches add AllPortSelect (bit 8).
  CHECK(run.replies[0].at("capmask") == 0x1300);
  CHECK(run.replies[1].at("capmask") == 0x1200);
}

TEST_CASE("sample_ports reads each port with one MAD where CapabilityMask2 allows, else two") {
  IBPM_REQUIRE_SIMULATOR();
  LiveTree live;
  const std::vector<SwitchPort> ports = live.switch_ports();
  REQUIRE(ports.size() == 48);
  const SwitchPort marked = ports.back();  // a spine port
  const std::uint64_t xmit64 = (std::uint64_t{1} << 40) + 5;
  live.set_counter(marked.node, marked.port, "PortCountersExtended.PortXmitData", xmit64);
  live.set_counter(marked.node, marked.port, "PortCounters.SymbolErrorCounter", 7);
  std::vector<std::string> targets;
  for (const SwitchPort& p : ports) targets.push_back(p.lid_port());

  // ibsim's switch agents answer CapabilityMask 0x1300 and CapabilityMask2 0. Given as known
  // with CapabilityMask2 bit 1, the sampler reads every port from PortCountersExtended alone.
  ProbeRun one =
      live.probe({"--sample", "--caps", "0x1300", "--caps2", "0x2", "--window", "64"}, targets);
  CHECK(one.stats["sent"] == ports.size());
  CHECK(one.stats["retries"] == 0);
  // What ibsim does not answer (CapabilityMask2 zero): PortCounters and PortCountersExtended.
  ProbeRun two = live.probe({"--sample", "--caps", "0x1300", "--window", "64"}, targets);
  CHECK(two.stats["sent"] == 2 * ports.size());
  CHECK(two.stats["retries"] == 0);

  for (std::size_t i = 0; i < ports.size(); ++i) {
    INFO(ports[i].name());
    const ProbeReply& a = one.replies[i];
    const ProbeReply& b = two.replies[i];
    CHECK(a.at("answered") == 1);
    CHECK(a.at("extended") == 1);
    CHECK(a.at("all_extended") == 1);
    CHECK(b.at("answered") == 1);
    CHECK(b.at("extended") == 1);
    CHECK(b.at("all_extended") == 0);
    for (const counters::CounterSpec& s : counters::counter_specs()) {
      INFO(s.name);
      CHECK(a.values.count(std::string(s.name)) == 1);  // every counter read, PortXmitWait too
      CHECK(b.values.count(std::string(s.name)) == 1);
    }
    if (ports[i].name() == marked.name()) {
      CHECK(a.at("PortXmitData") >= xmit64);
      CHECK(a.at("PortXmitData") < xmit64 + kTraffic);
      CHECK(b.at("PortXmitData") >= xmit64);
      CHECK(b.at("SymbolErrorCounter") == 7);  // from PortCounters
    } else {
      CHECK(a.at("PortXmitData") < kTraffic);
      CHECK(b.at("SymbolErrorCounter") == 0);
    }
  }
}

TEST_CASE("a port whose PortCountersExtended is refused falls back to the two-MAD reads") {
  IBPM_REQUIRE_SIMULATOR();
  LiveTree live;
  const std::vector<SwitchPort> ports = live.switch_ports();
  // A port the switch does not have: its agent answers with an error status, for
  // PortCountersExtended alone and then for the two-MAD reads the sampler falls back to.
  const SwitchPort missing{ports.front().node, 200, ports.front().lid};
  std::vector<std::string> targets{missing.lid_port()};
  for (const SwitchPort& p : ports) targets.push_back(p.lid_port());
  ProbeRun run =
      live.probe({"--sample", "--caps", "0x1300", "--caps2", "0x2", "--window", "64"}, targets);
  CHECK(run.replies[0].at("answered") == 0);
  CHECK(run.stats["sent"] == ports.size() + 3);  // one each, and the refused port's 1 + 2
  CHECK(run.stats["retries"] == 0);
  for (std::size_t i = 1; i < targets.size(); ++i) {
    INFO(targets[i]);
    CHECK(run.replies[i].at("answered") == 1);
    CHECK(run.replies[i].at("all_extended") == 1);  // asked before the refusal came back
  }
}
