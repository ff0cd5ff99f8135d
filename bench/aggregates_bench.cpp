// SPDX-License-Identifier: MIT
// ibpm-bench-aggregates: a fat tree's history for bench/locality.sh, without a fabric. Writes the
// tree as an ibnetdiscover dump (--dump), `--minutes` minutes of samples ending now for every
// cabled port (port i sends (i % 100 + 1) x 1000 words/s and receives half that), and each
// minute's per-subtree aggregates of `--shards` scopes (the ports split among them by index;
// shard-K-of-N, or "fabric" for one), computed from the same rates as a sweep computes them
// (locality::aggregate_sums). The files get a small layout (an hour of minutes, a week of hours).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "dump/ibnetdiscover_writer.hpp"
#include "fabric/graph.hpp"
#include "locality/down_sets.hpp"
#include "locality/subtree_aggregates.hpp"
#include "sim/fat_tree.hpp"
#include "sim/net_fabric.hpp"
#include "state/port_store.hpp"

namespace {

using namespace ibpm;

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double words_per_second(std::size_t i) { return 1000.0 * static_cast<double>(i % 100 + 1); }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"History of a generated fat tree, ports and per-subtree aggregates"};
  int hosts = 3888, minutes = 16;
  unsigned shards = 1;
  std::string state_dir, dump;
  app.add_option("--hosts", hosts, "Hosts of the three-level radix-36 tree")->required();
  app.add_option("--state-dir", state_dir)->required();
  app.add_option("--dump", dump)->required();
  app.add_option("--minutes", minutes)->check(CLI::Range(3, 60));
  app.add_option("--shards", shards)->check(CLI::Range(1, 16));
  CLI11_PARSE(app, argc, argv);

  const Fabric fabric =
      sim::net_fabric(sim::make_fat_tree({.hosts = hosts, .radix = 36, .levels = 3}).topology);
  {
    std::ofstream out(dump);
    dump::write_ibnetdiscover(out, fabric);
  }
  std::vector<PortRef> ports;
  for (const Node& node : fabric.nodes())
    node.for_each_port([&](const Port& port) {
      if (port.link) ports.push_back({node.guid, port.number});
    });
  std::map<PortRef, std::size_t> index;
  for (std::size_t i = 0; i < ports.size(); ++i) index[ports[i]] = i;

  state::RrdLayout layout;
  layout.full_hours = 1;
  layout.hourly_days = 7;
  layout.daily_days = 0;
  const state::PortStore store(state::StoreOptions{state_dir, "", layout});
  // What a sweep adds per run (locality/sweep_aggregates.cpp): the subtrees and their cables,
  // then each run's sums and their files.
  const auto began = std::chrono::steady_clock::now();
  const levels::FabricLevels levels(fabric, make_graph(fabric));
  const locality::DownSets down(fabric, levels);
  const auto aggregates =
      locality::subtree_aggregates(fabric, locality::subtree_sets(fabric, down, nullptr));
  const double subtrees_s = seconds_since(began);
  double sums_s = 0, write_s = 0;

  const std::time_t first = (std::time(nullptr) / 60) * 60 - 60 * minutes;
  std::vector<state::PortRecord> records(ports.size());
  std::vector<state::PortStore::Write> writes(ports.size());
  for (int m = 0; m < minutes; ++m) {
    const std::time_t t = first + 60 * m;
    for (std::size_t i = 0; i < ports.size(); ++i) {
      state::PortRecord& r = records[i];
      r.extended = r.all_extended = true;
      r.time = static_cast<double>(t);
      const auto words = static_cast<std::uint64_t>(words_per_second(i) * static_cast<double>(t));
      r.raw[state::source_index(counters::Counter::xmit_data)] = words;
      r.raw[state::source_index(counters::Counter::rcv_data)] = words / 2;
      writes[i] = {ports[i].node, ports[i].port, &records[i], m > 0};
    }
    for (const std::string& error : store.write_all(writes))
      if (!error.empty()) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
      }
    for (unsigned k = 0; k < shards; ++k) {
      const auto rate = [&](const PortRef& from, const PortRef&) -> std::optional<double> {
        const std::size_t i = index.at(from);
        if (m == 0 || i % shards != k) return std::nullopt;
        return 4 * words_per_second(i);
      };
      const auto sums_began = std::chrono::steady_clock::now();
      const auto sums = locality::aggregate_sums(fabric, aggregates, rate);
      sums_s += seconds_since(sums_began);
      const auto write_began = std::chrono::steady_clock::now();
      const std::string scope =
          shards == 1 ? "fabric"
                      : "shard-" + std::to_string(k + 1) + "-of-" + std::to_string(shards);
      for (const std::string& error : store.write_aggregates(scope, static_cast<double>(t), sums))
        if (!error.empty()) {
          std::fprintf(stderr, "%s\n", error.c_str());
          return 1;
        }
      write_s += seconds_since(write_began);
    }
  }
  std::printf("%zu ports, %zu subtrees, %u scope(s), %d minutes\n", ports.size(), aggregates.size(),
              shards, minutes);
  // Per sweep of one scope: its subtrees found once per run, its sums, its files (direct).
  const double runs = static_cast<double>(minutes) * shards;
  std::printf("a sweep's aggregates: subtrees and cables %.3f s, sums %.3f s, files %.3f s\n",
              subtrees_s, sums_s / runs, write_s / runs);
  return 0;
}
