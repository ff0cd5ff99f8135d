// SPDX-License-Identifier: MIT
// --record and --replay of a forwarding-table refresh, on a simulated three-level fat tree:
//   - check_ib_routes --refresh recorded live and replayed in a plain process (no LD_PRELOAD, the
//     simulator stopped) into a fresh state directory gives the live exit code, status line,
//     perfdata and long output;
//   - ibpm-routes --refresh replayed writes the tables the live one wrote (routes.lft, all but
//     its read_at, which is the recording's time), so --balance and --path print the same;
//   - a switch at a LID the recording never asked is UNKNOWN in one line naming the query.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "routes/routes_live_support.hpp"
#include "support/simulator.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm;
using namespace ibpm::routes::test;
using ibpm::test::bin;
using ibpm::test::run_process;

namespace routes_record_test {

constexpr int kHosts = 36;

// Every switch alerts (a spread inside 0..1000): the long output lists the worst 5 and the rest.
const std::vector<std::string> kEveryoneWarns{"-w", "@0:1000", "--top", "5"};

std::vector<std::string> argv_of(const std::string& program, const std::string& state,
                                 const std::string& cache, std::vector<std::string> args) {
  args.insert(args.begin(), {bin(program), "--state-dir", state, "--cache", cache});
  return args;
}

// routes.lft without its read_at line; the read_at in `read_at`.
std::string tables_without_time(const std::string& path, long long& read_at) {
  std::istringstream in(ibpm::test::read_text(path));
  std::string kept;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("read_at ", 0) == 0)
      read_at = std::stoll(line.substr(8));
    else
      kept += line + "\n";
  }
  return kept;
}

// ibpm-routes --refresh's line without its time and the file it names.
std::string refresh_line(const std::string& out) {
  return std::regex_replace(out, std::regex(R"( in [0-9.e-]+ s into .*)"), " in T s into FILE");
}

}  // namespace routes_record_test

using namespace routes_record_test;

TEST_CASE("A forwarding-table refresh recorded on ibsim replays without it to the live results") {
  IBPM_REQUIRE_SIMULATOR();
  ibpm::test::TempDir dir("routes-record");
  const std::string cache = dir / "fabric.cache";
  const std::string moved = dir / "moved.ibnetdiscover";
  std::vector<std::string> refresh_check = kEveryoneWarns;
  refresh_check.insert(refresh_check.begin(), "--refresh");
  ProcessRun check_live, tool_live;
  std::string from, to;
  {
    RoutesFabric live(kHosts);
    from = live.tree().hosts.front();
    to = live.tree().hosts.back();
    REQUIRE(live.client({"ibnetdiscover", "--cache", cache}).exit_code == 0);
    // The same fabric with one switch's LID moved to 4000, which nobody asked.
    const ProcessRun dump = live.client({"ibnetdiscover"});
    REQUIRE(dump.exit_code == 0);
    std::ofstream(moved) << std::regex_replace(
        dump.out, std::regex(R"((Switch[^\n]*base port 0 lid )[0-9]+)"), "$014000",
        std::regex_constants::format_first_only);
    std::vector<std::string> args = refresh_check;
    args.insert(args.end(), {"--record", dir / "check.pcap"});
    check_live = live.client(argv_of("check_ib_routes", dir / "live-check", cache, args));
    tool_live = live.client(argv_of("ibpm-routes", dir / "live-tool", cache,
                                    {"--refresh", "--record", dir / "tool.pcap"}));
  }  // the simulator stops here
  INFO("live:\n" << check_live.out << check_live.err << tool_live.out << tool_live.err);
  REQUIRE(check_live.exit_code == 1);
  REQUIRE(check_live.has("and "));  // more switches than --top lists
  REQUIRE(tool_live.exit_code == 0);

  // check_ib_routes: the live output, byte for byte.
  std::vector<std::string> args = refresh_check;
  args.insert(args.end(), {"--replay", dir / "check.pcap"});
  const ProcessRun check_replay =
      run_process(argv_of("check_ib_routes", dir / "replay-check", cache, args));
  INFO("replayed:\n" << check_replay.out << check_replay.err);
  CHECK(check_replay.exit_code == check_live.exit_code);
  CHECK(check_replay.out == check_live.out);

  // ibpm-routes: the same tables, read at the recording's time.
  const ProcessRun tool_replay = run_process(argv_of("ibpm-routes", dir / "replay-tool", cache,
                                                     {"--refresh", "--replay", dir / "tool.pcap"}));
  INFO(tool_replay.out << tool_replay.err);
  CHECK(tool_replay.exit_code == 0);
  CHECK(refresh_line(tool_replay.out) == refresh_line(tool_live.out));
  long long live_at = 0, replay_at = 0;
  CHECK(tables_without_time(dir / "replay-tool/routes.lft", replay_at) ==
        tables_without_time(dir / "live-tool/routes.lft", live_at));
  CHECK(replay_at <= live_at);
  CHECK(replay_at + 2 >= live_at);
  for (const std::vector<std::string>& view :
       {std::vector<std::string>{"--balance", "--top", "0"}, {"--path", from, to}}) {
    const ProcessRun a = run_process(argv_of("ibpm-routes", dir / "live-tool", cache, view));
    const ProcessRun b = run_process(argv_of("ibpm-routes", dir / "replay-tool", cache, view));
    INFO(view.front() << ":\n" << a.out << a.err << b.out << b.err);
    CHECK(a.exit_code == 0);
    CHECK(!a.out.empty());
    CHECK(b.out == a.out);
  }

  // A switch the recording never asked: one line naming the query.
  const ProcessRun missing = run_process(argv_of("check_ib_routes", dir / "other", moved,
                                                 {"--refresh", "--replay", dir / "check.pcap"}));
  INFO(missing.out << missing.err);
  CHECK(missing.exit_code == 3);
  CHECK(missing.line_count() == 1);
  CHECK(std::regex_match(missing.first_line(),
                         std::regex("IB ROUTES UNKNOWN - --replay .*/check.pcap: the recording "
                                    "has no answer to [A-Za-z]+ Get to LID 4000")));
  const ProcessRun tool_missing = run_process(argv_of(
      "ibpm-routes", dir / "other-tool", moved, {"--refresh", "--replay", dir / "tool.pcap"}));
  CHECK(tool_missing.exit_code != 0);
  CHECK(tool_missing.err.find("no answer to ") != std::string::npos);
  // --replay without --refresh has nothing to replay.
  const ProcessRun alone = run_process(
      argv_of("check_ib_routes", dir / "replay-check", cache, {"--replay", dir / "check.pcap"}));
  CHECK(alone.exit_code == 3);
  CHECK(alone.first_line() == "IB ROUTES UNKNOWN - --record and --replay go with --refresh");
}
