// SPDX-License-Identifier: MIT
// The sweeps' per-subtree aggregates against the per-port computation on the same history: a fat
// tree's port files written through the store with known rates, each scope's aggregates from the
// same rates (locality::aggregate_sums, as a sweep makes them), and analysis::collect() read both
// ways. They agree within the RRD consolidation's rounding across shards, across a change of
// sharding and with a stale scope; the comparison catches a port missing from a subtree's sum; a
// report through the aggregates reads files per subtree, not per port.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>

#include "analysis/collect.hpp"
#include "base/atomic_file.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "fabric/graph.hpp"
#include "locality/down_sets.hpp"
#include "locality/subtree_aggregates.hpp"
#include "sim/fat_tree.hpp"
#include "sim/net_fabric.hpp"
#include "state/port_store.hpp"

using namespace ibpm;
namespace fs = std::filesystem;

namespace {

constexpr int kSteps = 12;
constexpr long kWindow = 6 * 60;

// A 72-host two-level fat tree as a dump, a state folder, and the history written into it.
class Aggregates {
 public:
  Aggregates() : fabric_(sim::net_fabric(sim::make_fat_tree({.hosts = 72, .radix = 12}).topology)) {
    fs::create_directories(dir_);
    base::replace_file_with(dump_,
                            [&](std::ostream& out) { dump::write_ibnetdiscover(out, fabric_); });
    for (const Node& node : fabric_.nodes())
      node.for_each_port([&](const Port& port) {
        if (port.link) ports_.push_back({node.guid, port.number});
      });
    // The sweeps' times: a minute apart, ending two minutes ago.
    start_ = (std::time(nullptr) / 60) * 60 - 60 * (kSteps + 1);
  }
  ~Aggregates() { fs::remove_all(dir_); }

  // Port i's data rates in 4-octet words per second at step k (constant over time unless
  // `varying`); the transmit and receive sides differ, so that a direction read at the wrong end
  // shows.
  double xmit(std::size_t i, int k) const {
    return 1e5 * static_cast<double>(1 + i % 7) * (varying ? 1 + 0.1 * (k % 3) : 1);
  }
  double rcv(std::size_t i, int k) const {
    return 2e5 * static_cast<double>(1 + i % 5) * (varying ? 1 + 0.2 * (k % 2) : 1);
  }
  // When the sweep read port i at step k: within the first fifth of a second of the sweep.
  double read_time(std::size_t i, int k) const {
    return static_cast<double>(start_ + 60 * k) + 0.01 * static_cast<double>(i % 20);
  }

  // Every port's samples of every step, as the sweeps write them.
  void write_ports() const {
    const state::PortStore store(state::StoreOptions{state_dir(), "", {}});
    for (std::size_t i = 0; i < ports_.size(); ++i) {
      state::PortRecord r;
      r.extended = r.all_extended = true;
      double sent = 1000, received = 1000;
      for (int k = 0; k < kSteps; ++k) {
        if (k > 0) {
          sent += xmit(i, k) * (read_time(i, k) - read_time(i, k - 1));
          received += rcv(i, k) * (read_time(i, k) - read_time(i, k - 1));
        }
        r.time = read_time(i, k);
        r.raw[state::source_index(counters::Counter::xmit_data)] =
            static_cast<std::uint64_t>(std::llround(sent));
        r.raw[state::source_index(counters::Counter::rcv_data)] =
            static_cast<std::uint64_t>(std::llround(received));
        store.write(ports_[i].node, ports_[i].port, r);
      }
    }
  }

  // The aggregates of `scope` for steps [first, last], over the ports `owns` says it polls; a
  // port `left_out` adds nothing (the bug the comparison must catch).
  void write_scope(const std::string& scope, int first, int last,
                   const std::function<bool(std::size_t)>& owns,
                   std::optional<PortRef> left_out = std::nullopt) const {
    const state::PortStore store(state::StoreOptions{state_dir(), "", {}});
    const levels::FabricLevels levels(fabric_, make_graph(fabric_));
    const locality::DownSets down(fabric_, levels);
    const auto aggregates =
        locality::subtree_aggregates(fabric_, locality::subtree_sets(fabric_, down, nullptr));
    std::map<PortRef, std::size_t> index;
    for (std::size_t i = 0; i < ports_.size(); ++i) index[ports_[i]] = i;
    for (int k = std::max(first, 0); k <= last && k < kSteps; ++k) {
      // Every port is polled by some scope: a direction is read at its sender.
      const auto rate = [&](const PortRef& from, const PortRef&) -> std::optional<double> {
        const std::size_t i = index.at(from);
        if (!owns(i) || k == 0 || (left_out && *left_out == from)) return std::nullopt;
        return 4 * xmit(i, k);
      };
      const double time = static_cast<double>(start_ + 60 * k) + 0.1;
      const auto errors =
          store.write_aggregates(scope, time, locality::aggregate_sums(fabric_, aggregates, rate));
      for (const std::string& error : errors) REQUIRE(error.empty());
    }
  }

  analysis::FabricAnalysis collect(bool aggregates) const {
    plugin::FabricOptions fabric_options;
    fabric_options.cache = dump_;
    fabric_options.state_dir = state_dir();
    analysis::CollectOptions options;
    options.history.window = kWindow;
    options.history_needs_state_dir = false;
    options.peaks = false;
    options.aggregates = aggregates;
    return analysis::collect(fabric_options, options);
  }

  std::string state_dir() const { return (dir_ / "state").string(); }
  const std::vector<PortRef>& ports() const { return ports_; }
  const Fabric& fabric() const { return fabric_; }
  bool varying = true;

 private:
  fs::path dir_ =
      fs::temp_directory_path() / ("ibpm-aggregates-test-" + std::to_string(::getpid()));
  std::string dump_ = (dir_ / "fabric.ibnetdiscover").string();
  Fabric fabric_;
  std::vector<PortRef> ports_;
  std::time_t start_ = 0;
};

bool close(double a, double b) {
  return std::fabs(a - b) <= std::max(1.0, 0.01 * std::max(std::fabs(a), std::fabs(b)));
}

// The sets whose sums differ between the two reports (of the same sets, in the same order).
std::vector<std::string> differences(const analysis::FabricAnalysis& per_port,
                                     const analysis::FabricAnalysis& aggregated) {
  std::vector<std::string> differ;
  REQUIRE(per_port.traffic.size() == aggregated.traffic.size());
  for (std::size_t s = 0; s < per_port.traffic.size(); ++s) {
    const auto& a = per_port.traffic[s];
    const auto& b = aggregated.traffic[s];
    REQUIRE(a.set->name == b.set->name);
    if (!close(a.gen, b.gen) || !close(a.con, b.con) || !close(a.out, b.out) ||
        !close(a.in, b.in) || a.unmeasured != b.unmeasured)
      differ.push_back(a.set->name);
  }
  return differ;
}

bool used_aggregates(const analysis::FabricAnalysis& data) {
  return data.history_source.starts_with("per-subtree aggregates");
}

}  // namespace

TEST_CASE("aggregates of two shards equal the per-port sums, and a missing port shows") {
  Aggregates history;
  history.write_ports();
  history.write_scope("shard-1-of-2", 0, kSteps, [](std::size_t i) { return i % 2 == 0; });
  history.write_scope("shard-2-of-2", 0, kSteps, [](std::size_t i) { return i % 2 == 1; });

  const analysis::FabricAnalysis per_port = history.collect(false);
  const analysis::FabricAnalysis aggregated = history.collect(true);
  INFO(aggregated.history_source);
  CHECK(per_port.history_source == "per-port files");
  REQUIRE(used_aggregates(aggregated));
  REQUIRE(per_port.traffic.size() >= 7);  // six leaves and the whole tree
  CHECK(differences(per_port, aggregated).empty());
  for (const auto& t : aggregated.traffic) CHECK(t.gen > 0);

  // The count guard: files per subtree and scope, not per port.
  const std::size_t sets = aggregated.sets.size();
  CHECK(aggregated.coverage.ports_read == 2 * sets);
  CHECK(per_port.coverage.ports_read == history.ports().size());
  CHECK(aggregated.coverage.ports_read * 5 < history.ports().size());

  SECTION("a port left out of a shard's sums is caught") {
    // The first host port (hosts are the fabric's CAs; the port's index is even: shard 1's).
    std::optional<PortRef> host;
    for (std::size_t i = 0; i < history.ports().size() && !host; i += 2)
      if (history.fabric().node(history.ports()[i].node).type == NodeType::ca)
        host = history.ports()[i];
    REQUIRE(host);
    fs::remove_all(history.state_dir() + "/aggregates");
    history.write_scope(
        "shard-1-of-2", 0, kSteps, [](std::size_t i) { return i % 2 == 0; }, host);
    history.write_scope("shard-2-of-2", 0, kSteps, [](std::size_t i) { return i % 2 == 1; });
    const analysis::FabricAnalysis missing = history.collect(true);
    REQUIRE(used_aggregates(missing));
    const std::vector<std::string> differ = differences(per_port, missing);
    // Its leaf and the whole tree hold it (gen of both).
    CHECK(differ.size() == 2);
  }
}

TEST_CASE("aggregates across a change of sharding, a stale scope and a taken-over shard") {
  Aggregates history;
  history.varying = false;  // the rows where the shardings meet are left out
  history.write_ports();
  // One collector for the first half, then two shards; the old scope's files stay (stale) and
  // overlap the new sharding in one row. Shard 2 is taken over halfway (the same scope's files
  // continue, written by another store).
  history.write_scope("fabric", 0, 7, [](std::size_t) { return true; });
  history.write_scope("shard-1-of-2", 6, kSteps, [](std::size_t i) { return i < 40; });
  history.write_scope("shard-2-of-2", 6, 9, [](std::size_t i) { return i >= 40; });
  history.write_scope("shard-2-of-2", 10, kSteps, [](std::size_t i) { return i >= 40; });

  const analysis::FabricAnalysis per_port = history.collect(false);
  const analysis::FabricAnalysis aggregated = history.collect(true);
  INFO(aggregated.history_source);
  REQUIRE(used_aggregates(aggregated));
  CHECK(aggregated.history_source.find("3 scopes") != std::string::npos);
  CHECK(differences(per_port, aggregated).empty());

  SECTION("both shardings counted in every row would double the sums") {
    // A stale sharding that kept writing (two collectors of the whole fabric, say): only its
    // rows alone count; here none does, so the aggregates do not cover the window.
    history.write_scope("shard-1-of-1", 0, kSteps, [](std::size_t) { return true; });
    const analysis::FabricAnalysis mixed = history.collect(true);
    CHECK_FALSE(used_aggregates(mixed));
    CHECK(mixed.history_source.find("do not cover the window") != std::string::npos);
    CHECK(differences(per_port, mixed).empty());  // the per-port path, the truth
  }
}

TEST_CASE("without aggregates covering the window, or for other sets, the ports are read") {
  Aggregates history;
  history.write_ports();
  SECTION("none written") {
    const analysis::FabricAnalysis data = history.collect(true);
    CHECK(data.history_source == "per-port files (aggregates not used: no sweep has written any)");
    CHECK(data.coverage.ports_read == history.ports().size());
  }
  SECTION("written only for the window's last minutes") {
    history.write_scope("fabric", kSteps - 3, kSteps, [](std::size_t) { return true; });
    const analysis::FabricAnalysis data = history.collect(true);
    CHECK(data.history_source.find("do not cover the window") != std::string::npos);
  }
  SECTION("a subtree without a file (the topology changed since)") {
    history.write_scope("fabric", 0, kSteps, [](std::size_t) { return true; });
    const auto files = fs::directory_iterator(history.state_dir() + "/aggregates/fabric");
    fs::remove(files->path());
    const analysis::FabricAnalysis data = history.collect(true);
    CHECK(data.history_source.find("no file of subtree") != std::string::npos);
  }
}
