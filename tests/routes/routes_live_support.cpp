// SPDX-License-Identifier: MIT

#include "routes/routes_live_support.hpp"

#include <atomic>
#include <mutex>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "support/simulator.hpp"

namespace ibpm::routes::test {

namespace fs = std::filesystem;

std::vector<TracedHop> parse_ibtracert(const std::string& text) {
  static const std::regex from_line(
      R"re(^From \w+ \{0x[0-9a-f]+\} portnum \d+ lid \d+-\d+ "(.*)"$)re");
  static const std::regex hop_line(
      R"re(^\[(\d+)\] -> \w+ port \{0x[0-9a-f]+\}\[(\d+)\] lid \d+-\d+ "(.*)"$)re");
  std::vector<TracedHop> hops;
  std::istringstream in(text);
  std::string line, at;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, from_line)) {
      at = m[1];
    } else if (std::regex_match(line, m, hop_line)) {
      if (at.empty()) throw std::runtime_error("ibtracert hop before its From line: " + line);
      hops.push_back({at, std::stoi(m[1]), m[3], std::stoi(m[2])});
      at = m[3];
    } else if (line.rfind("To ", 0) != 0 && !line.empty()) {
      throw std::runtime_error("unexpected ibtracert line: " + line);
    }
  }
  return hops;
}

namespace {

sim::FatTree tree_of(int hosts) {
  sim::FatTreeOptions options;
  options.hosts = hosts;
  options.radix = 12;
  options.levels = 3;
  return sim::make_fat_tree(options);
}

}  // namespace

RoutesFabric::RoutesFabric(int hosts)
    : tree_(tree_of(hosts)), fabric_(sim::SimulatedFabric::start_text(tree_.net_file())) {
  state_dir_ = fabric_.work_dir() / "routes-state";
  fs::create_directories(state_dir_);
  rediscover_lids();
}

RoutesFabric::~RoutesFabric() = default;

void RoutesFabric::rediscover_lids() { lids_ = ibpm::test::discover(fabric_).lids; }

ProcessRun RoutesFabric::client(const std::vector<std::string>& argv) {
  ProcessRun run;
  run.exit_code = fabric_.run_client(argv, &run.out, &run.err);
  return run;
}

ProcessRun RoutesFabric::routes(std::vector<std::string> args) {
  args.insert(args.begin(), {ibpm::test::bin("ibpm-routes"), "--state-dir", state_dir_.string()});
  return client(args);
}

ProcessRun RoutesFabric::check_routes(std::vector<std::string> args) {
  args.insert(args.begin(),
              {ibpm::test::bin("check_ib_routes"), "--state-dir", state_dir_.string()});
  return client(args);
}

std::string RoutesFabric::tracert(const std::string& source, const std::string& destination) {
  const ProcessRun run = client(
      {"ibtracert", std::to_string(lids_.at(source)), std::to_string(lids_.at(destination))});
  if (run.exit_code != 0)
    throw std::runtime_error("ibtracert " + source + " " + destination + " failed: " + run.err);
  return run.out;
}

std::map<std::pair<std::string, std::string>, std::string> RoutesFabric::tracert_pairs(
    const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::map<std::pair<std::string, std::string>, std::string> result;
  std::mutex lock;
  std::atomic<std::size_t> next{0};
  std::vector<std::string> failures;
  auto work = [&] {
    for (std::size_t i; (i = next++) < pairs.size();) {
      try {
        std::string out = tracert(pairs[i].first, pairs[i].second);
        std::lock_guard guard(lock);
        result[pairs[i]] = std::move(out);
      } catch (const std::exception& e) {
        std::lock_guard guard(lock);
        failures.push_back(e.what());
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) threads.emplace_back(work);
  for (auto& t : threads) t.join();
  if (!failures.empty()) throw std::runtime_error(failures.front());
  return result;
}

void RoutesFabric::resweep() {
  const fs::path osm = fabric_.work_dir() / "osm";
  const std::string log = (osm / ("resweep" + std::to_string(++sweeps_) + ".log")).string();
  const ProcessRun run =
      client({"env", "OSM_CACHE_DIR=" + osm.string(), "opensm", "-f", log, "-o"});
  if (run.exit_code != 0) throw std::runtime_error("OpenSM sweep failed: " + run.out + run.err);
}

std::map<int, int> RoutesFabric::ibroute(const std::string& node) {
  const ProcessRun run = client({"ibroute", std::to_string(lids_.at(node))});
  if (run.exit_code != 0) throw std::runtime_error("ibroute " + node + " failed: " + run.err);
  static const std::regex entry(R"(^0x([0-9a-f]+) (\d+) : )");
  std::map<int, int> ports;
  std::istringstream in(run.out);
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, entry)) ports[std::stoi(m[1], nullptr, 16)] = std::stoi(m[2]);
  return ports;
}

}  // namespace ibpm::routes::test
