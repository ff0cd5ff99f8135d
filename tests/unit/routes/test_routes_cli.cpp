// SPDX-License-Identifier: MIT
// ibpm-routes and check_ib_routes as operators, scripts and Nagios run them, without a fabric: a
// generated fat tree as an ibnetdiscover dump (--cache) and min-hop tables written to
// STATE_DIR/routes.lft. Bad input gives one line and a non-zero exit (UNKNOWN, 3, in check mode);
// names from the fabric are escaped in CSV and JSON (a node-name-map gives a host a hostile name).
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dump/ibnetdiscover_writer.hpp"
#include "routes/lft_file.hpp"
#include "routing_fixture.hpp"
#include "sim/process.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;
using namespace ibpm::routes;
namespace fs = std::filesystem;

namespace {

class CliFixture {
 public:
  CliFixture() {
    const Fabric fabric = routes::test::fat_tree_fabric(36, 12, 2);
    std::ofstream(dump()) << [&] {
      std::ostringstream out;
      dump::write_ibnetdiscover(out, fabric);
      return out.str();
    }();
    ForwardingTables tables = routes::test::min_hop_tables(fabric);
    tables.read_at = 1764072000;
    write_lft_file(lft_file_path(dir_.string()), tables);
    const Node& host = routes::test::node_named(fabric, "cn0002");
    std::ofstream(names()) << format_guid(host.guid) << " \"=SUM(1),\\x y\"\n";
  }
  std::string dump() const { return (dir_ / "fabric.ibnetdiscover").string(); }
  std::string names() const { return (dir_ / "names.map").string(); }

  sim::CapturedRun run(std::vector<std::string> args, bool with_fabric = true,
                       const std::string& program = "ibpm-routes") const {
    sim::SpawnRequest request;
    request.argv = {ibpm::test::bin(program)};
    if (with_fabric)
      request.argv.insert(request.argv.end(), {"--cache", dump(), "--state-dir", dir_.string()});
    request.argv.insert(request.argv.end(), args.begin(), args.end());
    return sim::run_captured(request, std::chrono::seconds(60));
  }

 private:
  ibpm::test::TempDir tmp_{"routes-cli"};
  fs::path dir_ = tmp_.path();
};

std::size_t lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

}  // namespace

TEST_CASE("ibpm-routes refuses bad input with one line and a non-zero exit") {
  CliFixture cli;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {},                                  // nothing to do
           {"--path", "cn0001", "nosuchhost"},  // unknown host
           {"--path", "leaf01", "cn0002"},      // a switch is no source
           {"--cable", "cn0001[9]"},            // no such cabled port
           {"--cable", "leaf01"},               // a switch has many cables
           {"--cable", "leaf01[7]", "--path", "cn0001", "cn0002"},
           {"--pairs", "--balance"},
       }) {
    const auto run = cli.run(args);
    INFO(run.out << run.err);
    CHECK(run.exit_code == 1);
    CHECK(run.out.empty());
    CHECK(lines(run.err) == 1);
    CHECK(run.err.rfind("ibpm-routes: ", 0) == 0);
  }
  const auto no_tables =
      cli.run({"--balance", "--cache", cli.dump(), "--state-dir", "/nonexistent"}, false);
  CHECK(no_tables.exit_code == 1);
  CHECK(no_tables.err.find("ibpm-routes --refresh") != std::string::npos);
  const auto check_alone = cli.run({"--check", "--cable", "leaf01[7]"});
  CHECK(check_alone.exit_code == 3);
  CHECK(check_alone.out.rfind("IB ROUTES UNKNOWN - ", 0) == 0);
  const auto check_without_balance = cli.run({"--check"});
  CHECK(check_without_balance.exit_code == 3);
  CHECK(check_without_balance.out == "IB ROUTES UNKNOWN - --check goes with --balance\n");
}

TEST_CASE("check_ib_routes refuses bad input with UNKNOWN, exit 3 and one line") {
  CliFixture cli;
  const auto check = [&](std::vector<std::string> args, bool with_fabric = true) {
    return cli.run(std::move(args), with_fabric, "check_ib_routes");
  };
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"-w", "x"},               // not a range
           {"-c", "5:1"},             // start above end
           {"--top", "-1"},           // not a count
           {"--balance"},             // ibpm-routes' spelling is not an option here
           {"--cable", "leaf01[7]"},  // nor is another report
           {"-t", "-3"},
       }) {
    const auto run = check(args);
    INFO(run.out << run.err);
    CHECK(run.exit_code == 3);
    CHECK(run.out.rfind("IB ROUTES UNKNOWN - ", 0) == 0);
    CHECK(lines(run.out) == 1);
  }
  // No tables yet: UNKNOWN naming the way to read them.
  const auto no_tables = check({"--cache", cli.dump(), "--state-dir",
                                (fs::path(cli.dump()).parent_path() / "none").string()},
                               false);
  INFO(no_tables.out << no_tables.err);
  CHECK(no_tables.exit_code == 3);
  CHECK(no_tables.out.rfind("IB ROUTES UNKNOWN - ", 0) == 0);
  CHECK(lines(no_tables.out) == 1);
  CHECK(no_tables.out.find("--refresh") != std::string::npos);
  // No topology either.
  const auto no_cache = check({"--cache", "/nonexistent/fabric.ibnetdiscover"}, false);
  CHECK(no_cache.exit_code == 3);
  CHECK(lines(no_cache.out) == 1);
}

TEST_CASE("check_ib_routes judges the up-port spread as ibpm-routes --balance --check did") {
  CliFixture cli;
  const auto ok = cli.run({}, true, "check_ib_routes");
  INFO(ok.out << ok.err);
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.rfind("IB ROUTES OK - up-ports balanced on 6 switches", 0) == 0);
  CHECK(ok.out.find("| worst_spread=") != std::string::npos);
  CHECK(ok.out.find("switches=6;") != std::string::npos);
  // -w 0 alerts on any spread but 0; the min-hop tables spread 30 hosts over 6 up-ports evenly.
  const auto strict = cli.run({"-w", "0", "-c", "0"}, true, "check_ib_routes");
  CHECK(strict.exit_code == 0);
  // The old spelling runs the same check and says it is deprecated.
  const auto old = cli.run({"--balance", "--check"});
  CHECK(old.exit_code == 0);
  CHECK(old.out == ok.out);
  CHECK(old.err.find("deprecated") != std::string::npos);
  CHECK(old.err.find("check_ib_routes") != std::string::npos);
}

TEST_CASE("ibpm-routes prints the route as ibtracert does, and JSON a script can read") {
  CliFixture cli;
  const auto table = cli.run({"--path", "cn0001", "cn0036"});
  REQUIRE(table.exit_code == 0);
  CHECK(table.out.rfind("From ca {0x", 0) == 0);
  CHECK(lines(table.out) == 6);  // From, 4 hops, To
  const auto json = cli.run({"--path", "cn0001", "cn0036", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto route = nlohmann::json::parse(json.out);
  CHECK(route["end"] == "delivered");
  CHECK(route["hops"].size() == 4);
  CHECK(route["hops"][0]["from"]["node"] == "cn0001");
  CHECK(route["hops"][3]["to"]["node"] == "cn0036");
}

TEST_CASE("ibpm-routes escapes names from the fabric in CSV and JSON") {
  CliFixture cli;
  const auto csv =
      cli.run({"--node-name-map", cli.names(), "--cable", "leaf01[2]", "--format", "csv"});
  INFO(csv.err);
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out.find("\"'=SUM(1),\\x y\"") != std::string::npos);  // quoted, formula defused
  const auto json =
      cli.run({"--node-name-map", cli.names(), "--cable", "leaf01[2]", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto parsed = nlohmann::json::parse(json.out);
  CHECK(parsed["directions"][0]["to"] == "=SUM(1),\\x y[1]");
  CHECK(parsed["directions"][0]["destinations"][0]["hosts"][0] == "=SUM(1),\\x y");
}

TEST_CASE("ibpm-routes --cables and --balance agree with the tables") {
  CliFixture cli;
  const auto cables = cli.run({"--cables", "--top", "0", "--format", "json"});
  REQUIRE(cables.exit_code == 0);
  const auto parsed = nlohmann::json::parse(cables.out);
  // 6 leaves x 6 uplinks, both directions; every leaf sends 6 x 30 pairs up.
  CHECK(parsed["directions"].size() == 72);
  std::size_t total = 0;
  for (const auto& d : parsed["directions"]) total += d["pairs"].get<std::size_t>();
  CHECK(total == 2 * 6 * 6 * 30);
  const auto check = cli.run({"--balance", "--check"});
  CHECK(check.exit_code == 0);
  CHECK(check.out.rfind("IB ROUTES OK - up-ports balanced on 6 switches", 0) == 0);
}
