// SPDX-License-Identifier: MIT
// ibpm-routes on a simulated three-level fat tree of 432 hosts (radix 12: 72 leaves, 72 spines,
// 36 cores), routed by OpenSM, checked against ibtracert and ibroute (infiniband-diags), which
// read the same forwarding tables their own way:
//   - --path prints what ibtracert prints, line for line, for 200 random host pairs and from a
//     host to a leaf, a spine and a core;
//   - --cable's host pairs equal the pairs whose ibtracert route crosses the cable, over every
//     pair of 24 hosts spread over the pods (552 pairs), for the most crossed leaf, spine and
//     core cable directions;
//   - after Unlink of a leaf-spine cable and an OpenSM sweep, --refresh reads the new routes
//     (100 more pairs against ibtracert, none through the cable gone);
//   - check_ib_routes --refresh is OK on OpenSM's routes and WARNING once lft_set piled a leaf's
//     routes onto one up-port (checked with ibroute first); ibpm-routes --balance --check, its
//     deprecated spelling, still runs it;
//   - --cable --jobs names the one job of three whose hosts' traffic crosses a cable.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "routes/routes_live_support.hpp"
#include "support/simulator.hpp"

using namespace ibpm;
using namespace ibpm::routes::test;

namespace {

constexpr int kHosts = 432;
using Pair = std::pair<std::string, std::string>;

std::vector<Pair> random_pairs(const std::vector<std::string>& hosts, std::size_t count,
                               unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::size_t> pick(0, hosts.size() - 1);
  std::vector<Pair> pairs;
  while (pairs.size() < count) {
    const std::size_t a = pick(random), b = pick(random);
    if (a != b) pairs.emplace_back(hosts[a], hosts[b]);
  }
  return pairs;
}

// --path against ibtracert for every pair; returns how many were compared.
void check_paths(RoutesFabric& live, const std::vector<Pair>& pairs) {
  const auto traced = live.tracert_pairs(pairs);
  for (const Pair& pair : pairs) {
    INFO(pair.first << " -> " << pair.second);
    const ProcessRun run = live.routes({"--path", pair.first, pair.second});
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(run.out == traced.at(pair));
  }
}

std::string level_of(const std::string& node) {
  return node.substr(0, node.find_first_of("0123456789"));
}

std::vector<std::string> split(const std::string& line, char by) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, by);) fields.push_back(field);
  return fields;
}

}  // namespace

TEST_CASE("ibpm-routes --path prints what ibtracert prints for 200 random host pairs") {
  IBPM_REQUIRE_SIMULATOR();
  RoutesFabric live(kHosts);
  const ProcessRun refresh = live.routes({"--refresh"});
  INFO(refresh.out << refresh.err);
  REQUIRE(refresh.exit_code == 0);
  CHECK(refresh.out.find("forwarding tables of 180 switches") != std::string::npos);
  check_paths(live, random_pairs(live.tree().hosts, 200, 18));
  // To a switch (its LID is port 0's): a leaf, a spine and a core of other pods.
  check_paths(live, {{"cn0001", live.tree().leaves().back()},
                     {"cn0100", live.tree().spines().back()},
                     {"cn0200", live.tree().switches.at(2).front()}});
}

TEST_CASE("ibpm-routes --cable gives the host pairs whose ibtracert route crosses the cable") {
  IBPM_REQUIRE_SIMULATOR();
  RoutesFabric live(kHosts);
  REQUIRE(live.routes({"--refresh"}).exit_code == 0);
  // 24 hosts, one every 18: every pod, several leaves per pod.
  std::vector<std::string> hosts;
  for (std::size_t i = 0; i < live.tree().hosts.size(); i += 18)
    hosts.push_back(live.tree().hosts[i]);
  REQUIRE(hosts.size() == 24);
  const std::set<std::string> chosen(hosts.begin(), hosts.end());
  std::vector<Pair> pairs;
  for (const auto& a : hosts)
    for (const auto& b : hosts)
      if (a != b) pairs.emplace_back(a, b);
  std::map<std::string, std::set<Pair>> traced;  // direction ("leaf01[7]") -> pairs
  for (const auto& [pair, out] : live.tracert_pairs(pairs))
    for (const TracedHop& hop : parse_ibtracert(out)) traced[hop.from()].insert(pair);

  // The most crossed direction out of a leaf, out of a spine towards a core, out of a core,
  // and a host's own cable.
  std::vector<std::string> directions;
  for (const std::string level : {"leaf", "spine", "core"}) {
    std::string best;
    for (const auto& [from, crossing] : traced) {
      if (level_of(from) != level) continue;
      const bool upward_spine = level != "spine" || std::stoi(from.substr(from.find('[') + 1)) > 6;
      if (upward_spine && (best.empty() || crossing.size() > traced[best].size())) best = from;
    }
    REQUIRE(!best.empty());
    directions.push_back(best);
  }
  directions.push_back(hosts[3] + "[1]");

  for (const std::string& direction : directions) {
    INFO(direction << " carries " << traced[direction].size() << " of the traced pairs");
    const ProcessRun run = live.routes({"--cable", direction, "--pairs", "--format", "csv"});
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    std::set<Pair> listed;
    std::istringstream in(run.out);
    std::string line;
    std::getline(in, line);
    REQUIRE(line == "from,to,source,destination");
    while (std::getline(in, line)) {
      const auto f = split(line, ',');
      REQUIRE(f.size() == 4);
      if (f[0] == direction && chosen.count(f[2]) && chosen.count(f[3]))
        listed.insert({f[2], f[3]});
    }
    CHECK(!listed.empty());
    CHECK(listed == traced[direction]);
  }
}

TEST_CASE(
    "ibpm-routes after a leaf-spine cable goes down and OpenSM re-routes, --refresh follows the "
    "new routes") {
  IBPM_REQUIRE_SIMULATOR();
  RoutesFabric live(kHosts);
  REQUIRE(live.routes({"--refresh"}).exit_code == 0);
  // A pair from leaf02's first host to a host in another pod; the leaf-spine cable it leaves by.
  const std::string source = live.tree().leaf_hosts.at(1).front();
  const std::string destination = live.tree().hosts.back();
  const auto before = parse_ibtracert(live.tracert(source, destination));
  REQUIRE(before.size() >= 3);
  const TracedHop uplink = before.at(1);
  REQUIRE(level_of(uplink.from_node) == "leaf");
  CHECK(live.routes({"--path", source, destination}).out == live.tracert(source, destination));

  live.fabric().console("Unlink \"" + uplink.from_node + "\"[" + std::to_string(uplink.from_port) +
                        "]");
  live.resweep();
  const auto after = parse_ibtracert(live.tracert(source, destination));
  REQUIRE(after.at(1).from() != uplink.from());  // OpenSM moved the route

  const ProcessRun refresh = live.routes({"--refresh"});
  INFO(refresh.err);
  REQUIRE(refresh.exit_code == 0);
  const ProcessRun path = live.routes({"--path", source, destination});
  CHECK(path.out == live.tracert(source, destination));
  // The refresh's discovery no longer sees the cable: it is kept as a lost cable (the checks
  // report it Down until the fabric is accepted), and the new tables send nothing over it.
  const ProcessRun gone = live.routes({"--cable", uplink.from()});
  INFO(gone.out << gone.err);
  CHECK(gone.exit_code == 0);
  CHECK(gone.out.find(" 0 host pairs, 0 sources") != std::string::npos);
  CHECK(gone.out.find(" host pairs, ") != std::string::npos);
  // 100 more random pairs follow the new tables; none crosses the cable gone.
  const auto pairs = random_pairs(live.tree().hosts, 100, 1801);
  check_paths(live, pairs);
  for (const auto& [pair, out] : live.tracert_pairs(pairs))
    for (const TracedHop& hop : parse_ibtracert(out)) CHECK(hop.from() != uplink.from());
}

TEST_CASE(
    "check_ib_routes is OK on OpenSM's routes and WARNING when a leaf piles routes on one "
    "up-port") {
  IBPM_REQUIRE_SIMULATOR();
  RoutesFabric live(kHosts);
  const ProcessRun ok = live.check_routes({"--refresh"});
  INFO(ok.out << ok.err);
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.rfind("IB ROUTES OK - ", 0) == 0);
  CHECK(ok.out.find("switches=144;") != std::string::npos);  // 72 leaves + 72 spines have up-ports

  // leaf05's routes up (ports 7..12) all out of port 7, written block by block.
  const std::string leaf = "leaf05";
  const std::map<int, int> lft = live.ibroute(leaf);
  REQUIRE(!lft.empty());
  std::size_t piled = 0;
  for (int block = 0; block <= lft.rbegin()->first / 64; ++block) {
    std::string hex;
    for (int lid = block * 64; lid < block * 64 + 64; ++lid) {
      const auto it = lft.find(lid);
      int port = it == lft.end() ? 0xff : it->second;
      if (port >= 7 && port <= 12) {
        port = 7;
        const std::string host_prefix = "cn";
        for (const auto& [name, l] : live.lids())
          if (l == lid && name.rfind(host_prefix, 0) == 0) ++piled;
      }
      char two[3];
      std::snprintf(two, sizeof two, "%02x", port);
      hex += two;
    }
    const ProcessRun set = live.client(
        {IBPM_LFT_SET, std::to_string(live.lids().at(leaf)), std::to_string(block), hex});
    INFO(set.out << set.err);
    REQUIRE(set.exit_code == 0);
  }
  for (const auto& [lid, port] : live.ibroute(leaf))
    CHECK((port < 7 || port == 7));  // ibroute agrees

  const ProcessRun piled_check = live.check_routes({"--refresh"});
  INFO(piled_check.out << piled_check.err);
  CHECK(piled_check.exit_code == 1);
  CHECK(piled_check.out.rfind("IB ROUTES WARNING - 1 of 144 switches", 0) == 0);
  CHECK(piled_check.out.find("\\_[WARNING] " + leaf + ": 6 up-ports carry 0.." +
                             std::to_string(piled) + " destinations") != std::string::npos);
  const ProcessRun json = live.routes({"--balance", "--format", "json", "--top", "1"});
  CHECK(json.out.find("{\"switch\":\"" + leaf + "\"") != std::string::npos);
  // The deprecated spelling runs the same check on the tables just read.
  const ProcessRun old = live.routes({"--balance", "--check"});
  CHECK(old.exit_code == 1);
  CHECK(old.out.rfind("IB ROUTES WARNING - 1 of 144 switches", 0) == 0);
  CHECK(old.err.find("deprecated") != std::string::npos);
}

TEST_CASE("ibpm-routes --cable --jobs names the one job whose hosts' traffic crosses the cable") {
  IBPM_REQUIRE_SIMULATOR();
  RoutesFabric live(kHosts);
  REQUIRE(live.routes({"--refresh"}).exit_code == 0);
  const std::string jobs = (live.fabric().work_dir() / "jobs.txt").string();
  std::ofstream(jobs)
      << "7001 cn[0005-0008],cn0300\n7002 cn[0100-0110]\n7003 cn[0200-0210],cn0431\n";
  // cn0005's own cable: only job 7001 has pairs through it.
  const ProcessRun run = live.routes({"--cable", "cn0005", "--jobs", jobs, "--format", "csv"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::set<std::string> named;
  std::istringstream in(run.out);
  for (std::string line; std::getline(in, line);) {
    const auto f = split(line, ',');
    if (f.size() == 6 && f[2] == "job") {
      named.insert(f[4]);
      CHECK(f[5] == "4");  // cn0005 to and from each of the job's 4 other hosts
    }
  }
  CHECK(named == std::set<std::string>{"7001"});
}

TEST_CASE("check_ib_fabric names whom a cable in trouble hurts: its hosts and the job through it") {
  IBPM_REQUIRE_SIMULATOR();
  RoutesFabric live(kHosts);
  REQUIRE(live.routes({"--refresh"}).exit_code == 0);
  const std::string jobs = (live.fabric().work_dir() / "jobs.txt").string();
  std::ofstream(jobs)
      << "7001 cn[0005-0008],cn0300\n7002 cn[0100-0110]\n7003 cn[0200-0210],cn0431\n";
  const ProcessRun cable = live.routes({"--cable", "cn0005", "--format", "json"});
  REQUIRE(cable.exit_code == 0);
  auto sweep = [&] {
    return live.client({ibpm::test::bin("check_ib_fabric"), "--state-dir", live.state_dir(),
                        "--no-syslog", "--jobs", jobs});
  };
  REQUIRE(sweep().exit_code == 0);
  live.fabric().console("PerformanceSet \"cn0005\"[1] PortCounters.SymbolErrorCounter=5000");
  const ProcessRun run = sweep();
  INFO(run.out << run.err);
  CHECK(run.exit_code == 2);
  // cn0005 talks to every other host: 431 of them, and itself; only job 7001 runs through it.
  CHECK(run.out.find("carries traffic of 432 hosts (1 job: 7001)") != std::string::npos);

  // check_ib_port and check_ib_node say it of the same port.
  int errors = 5000;
  for (const std::string check : {"check_ib_port", "check_ib_node"}) {
    std::vector<std::string> argv{
        ibpm::test::bin(check), "--state-dir", live.state_dir(), "--jobs", jobs, "-n", "cn0005"};
    if (check == "check_ib_port") argv.insert(argv.end(), {"-p", "1"});
    live.client(argv);  // its own baseline
    errors += 4000;
    live.fabric().console("PerformanceSet \"cn0005\"[1] PortCounters.SymbolErrorCounter=" +
                          std::to_string(errors));
    const ProcessRun port = live.client(argv);
    INFO(port.out << port.err);
    CHECK(port.exit_code == 2);
    CHECK(port.out.find("carries traffic of 432 hosts (1 job: 7001)") != std::string::npos);
  }

  // The dashboard's page of that cable: the host pairs each way and the one job.
  const std::string site = (live.fabric().work_dir() / "site").string();
  const ProcessRun web = live.client({ibpm::test::bin("ibpm-web"), "--state-dir", live.state_dir(),
                                      "--jobs", jobs, "--graphs", "none", "-o", site});
  INFO(web.out << web.err);
  REQUIRE(web.exit_code == 0);
  std::string page;
  for (const auto& entry : std::filesystem::directory_iterator(site + "/links")) {
    std::ifstream in(entry.path());
    const std::string text(std::istreambuf_iterator<char>(in), {});
    if (text.find("<h1>cn0005[1] - ") != std::string::npos ||
        text.find(" - cn0005[1]</h1>") != std::string::npos)
      page = text;
  }
  REQUIRE_FALSE(page.empty());
  INFO(page.substr(0, page.find("<h2>")).substr(page.find("<h1>")));
  // cn0005 sends to 431 hosts, and 431 send to it: both ways named.
  CHECK(std::regex_search(page, std::regex("431( host pairs)? from cn0005\\[1\\]")));
  CHECK(std::regex_search(page, std::regex("431( host pairs)? from leaf[0-9]+\\[[0-9]+\\]")));
  CHECK(page.find("<span class=\"jobs\">7001</span>") != std::string::npos);
  CHECK(page.find("7002") == std::string::npos);
}
