// SPDX-License-Identifier: MIT
// The tools that read the counter history (ibpm-utilization, ibpm-locality, ibpm-map, ibpm-web)
// when what they depend on fails, run as cron runs them on a dump of a spine, a leaf and 6 hosts
// with five minutes of history: a store that does not answer (rrdcached stopped with SIGSTOP)
// is said on stderr and in the output (report, map legend, dashboard), with exit status 1, where
// nothing swept yet stays a plain "no history yet" with exit 0; a port file that cannot be read
// is named; and an ibpm-draw that hangs costs ibpm-map and ibpm-web their -t, then is killed,
// reaped and named, exit 1.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "../viz/map_fabrics.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "state/port_store.hpp"
#include "support/process.hpp"
#include "support/rrdcached_daemon.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm;
using namespace ibpm::test;
namespace fs = std::filesystem;

namespace analyzers_store_cli {

// A dump, a state folder, and the tools run on them.
class Analyzers {
 public:
  Analyzers() : fabric_(viz::test::two_switches(2, 6)) {
    std::ostringstream dump;
    dump::write_ibnetdiscover(dump, fabric_);
    write_text(dump_path(), dump.str());
    fs::create_directories(state_dir());
  }

  std::string dump_path() const { return dir_ / "fabric.ibnetdiscover"; }
  std::string state_dir() const { return (dir_.path() / "state").string(); }
  const TempDir& dir() const { return dir_; }

  // Six samples a minute apart on every cabled port, through `rrdcached` (empty: the files).
  void write_history(const std::string& rrdcached = {}) const {
    const state::PortStore store(state::StoreOptions{state_dir(), rrdcached, {}});
    const std::time_t start = (std::time(nullptr) / 60) * 60 - 7 * 60;
    for (const Node& node : fabric_.nodes())
      node.for_each_port([&](const Port& port) {
        if (!port.link) return;
        state::PortRecord r;
        r.extended = r.all_extended = true;
        for (int i = 0; i < 6; ++i) {
          r.time = static_cast<double>(start + 60 * i);
          r.raw[state::source_index(counters::Counter::xmit_data)] = 1000 + 6'000'000ULL * i;
          r.raw[state::source_index(counters::Counter::rcv_data)] = 1000 + 6'000'000ULL * i;
          store.write(node.guid, port.number, r);
        }
      });
  }

  std::string port_file() const {
    const Node& leaf = fabric_.nodes().front();
    PortNumber cabled = 0;
    leaf.for_each_port([&](const Port& port) {
      if (port.link && cabled == 0) cabled = port.number;
    });
    return state::PortStore(state::StoreOptions{state_dir(), "", {}}).path(leaf.guid, cabled);
  }

  // TOOL on the dump and the state folder, with ARGS, bounded (a tool that hangs fails here).
  ProcessRun run(const std::string& tool, const std::vector<std::string>& args,
                 const std::vector<std::string>& env = {}) const {
    std::vector<std::string> argv{"timeout",     "60",        bin(tool),  "--cache", dump_path(),
                                  "--state-dir", state_dir(), "--window", "600"};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, {env, Stderr::captured});
  }

 private:
  TempDir dir_{"analyzers-store"};
  Fabric fabric_;
};

// The daemon's pid, from the pid file it writes.
pid_t daemon_pid(const TempDir& dir) {
  return static_cast<pid_t>(std::stol(read_text(dir.path() / "rrdcached.pid")));
}

// Continues a stopped daemon however the test ends, so that it can be ended.
struct Continue {
  pid_t pid;
  ~Continue() { ::kill(pid, SIGCONT); }
};

// What each tool writes besides its report: ibpm-map its map, ibpm-web its site.
std::vector<std::string> output_args(const Analyzers& a, const std::string& tool) {
  if (tool == "ibpm-map") return {"-o", a.dir() / "map.svg"};
  if (tool == "ibpm-web") return {"-o", a.dir() / "site"};
  return {};
}

// What the tool showed: its report, the map (Graphviz writes '-' as "&#45;"), or the
// dashboard's front page.
std::string shown(const Analyzers& a, const std::string& tool, const ProcessRun& run) {
  if (tool == "ibpm-map") {
    std::string svg = read_text(a.dir().path() / "map.svg");
    for (std::size_t at; (at = svg.find("&#45;")) != std::string::npos;) svg.replace(at, 5, "-");
    return svg;
  }
  if (tool == "ibpm-web") return read_text(a.dir().path() / "site/index.html");
  return run.out;
}

const std::vector<std::string> kTools = {"ibpm-utilization", "ibpm-locality", "ibpm-map",
                                         "ibpm-web"};

}  // namespace analyzers_store_cli

using namespace analyzers_store_cli;

TEST_CASE("A store that does not answer is said on stderr and in the output, and exits 1") {
  if (!fs::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed");
  const Analyzers a;
  Rrdcached daemon(a.dir().path(), Listen::tcp);
  REQUIRE(daemon.wait_until_listening());
  a.write_history(daemon.address());
  for (const std::string& tool : kTools) {
    std::vector<std::string> args{"--rrdcached", daemon.address(), "-t", "5"};
    for (const std::string& arg : output_args(a, tool)) args.push_back(arg);
    const ProcessRun run = a.run(tool, args, {"RRDCACHED_ADDRESS="});
    INFO(tool << ": " << run.out << run.err);
    CHECK(run.exit_code == 0);
    CHECK(run.err.empty());
    CHECK(shown(a, tool, run).find("history for") != std::string::npos);
  }

  const pid_t pid = daemon_pid(a.dir());
  const Continue later{pid};
  REQUIRE(::kill(pid, SIGSTOP) == 0);
  const std::string silent = "rrdcached at " + daemon.address() + ": did not answer within";
  for (const std::string& tool : kTools) {
    std::vector<std::string> args{"--rrdcached", daemon.address(), "-t", "2"};
    for (const std::string& arg : output_args(a, tool)) args.push_back(arg);
    const ProcessRun run = a.run(tool, args, {"RRDCACHED_ADDRESS="});
    INFO(tool << ": " << run.out << run.err);
    CHECK(run.exit_code == 1);
    CHECK(run.seconds < 15);
    CHECK(run.err.find("warning: " + silent) != std::string::npos);
    CHECK(run.err.find(tool + ": no history in the last 10 min could be read: ") !=
          std::string::npos);
    CHECK(shown(a, tool, run).find("no history in the last 10 min could be read") !=
          std::string::npos);
    CHECK(shown(a, tool, run).find(silent) != std::string::npos);
  }
}

TEST_CASE("Nothing swept yet is no failure: no history yet, exit 0") {
  if (!fs::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed");
  const Analyzers a;
  Rrdcached daemon(a.dir().path(), Listen::tcp);
  REQUIRE(daemon.wait_until_listening());
  for (const std::string& tool : kTools) {
    std::vector<std::string> args{"--rrdcached", daemon.address(), "-t", "5"};
    for (const std::string& arg : output_args(a, tool)) args.push_back(arg);
    const ProcessRun run = a.run(tool, args, {"RRDCACHED_ADDRESS="});
    INFO(tool << ": " << run.out << run.err);
    CHECK(run.exit_code == 0);
    CHECK(run.err.empty());
    CHECK(shown(a, tool, run).find("no history in the last 10 min yet") != std::string::npos);
  }
}

TEST_CASE("A port file that cannot be read is named on stderr and in the output") {
  const Analyzers a;
  a.write_history();
  const std::string broken = a.port_file();
  write_text(broken, "not an RRD file");
  for (const std::string& tool : kTools) {
    const ProcessRun run = a.run(tool, output_args(a, tool), {"RRDCACHED_ADDRESS="});
    INFO(tool << ": " << run.out << run.err);
    CHECK(run.exit_code == 0);  // the other ports' history was read
    CHECK(run.err.find("warning: " + broken) != std::string::npos);
    CHECK(shown(a, tool, run).find("; 1 port could not be read: " + broken) != std::string::npos);
  }
}

TEST_CASE("An ibpm-draw that hangs is killed at -t, reaped and named, exit 1") {
  const Analyzers a;
  const std::string drawer = a.dir() / "hung-draw";
  const std::string pid_file = a.dir() / "hung-draw.pid";
  write_text(drawer, "#!/bin/sh\necho $$ > '" + pid_file + "'\nexec sleep 60\n");
  REQUIRE(::chmod(drawer.c_str(), 0755) == 0);
  for (const std::string& tool : {std::string("ibpm-map"), std::string("ibpm-web")}) {
    std::vector<std::string> args{"-t", "2"};
    for (const std::string& arg : output_args(a, tool)) args.push_back(arg);
    const ProcessRun run = a.run(tool, args, {"IBPM_DRAW=" + drawer, "RRDCACHED_ADDRESS="});
    INFO(tool << ": " << run.out << run.err);
    CHECK(run.exit_code == 1);
    CHECK(run.seconds < 10);
    CHECK(run.err.rfind(tool + ": " + drawer + " (pid ", 0) == 0);
    CHECK(run.err.find(") had not drawn every map 2 s after the first (-t): killed; not drawn: ") !=
          std::string::npos);
    CHECK(run.line_count() == 0);
    REQUIRE(fs::exists(pid_file));
    const pid_t pid = static_cast<pid_t>(std::stol(read_text(pid_file)));
    CHECK(::kill(pid, 0) != 0);  // killed and reaped: no such process
    fs::remove(pid_file);
  }
  CHECK_FALSE(fs::exists(a.dir().path() / "map.svg"));
  CHECK_FALSE(fs::exists(a.dir().path() / "site"));
}
