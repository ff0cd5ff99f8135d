// SPDX-License-Identifier: MIT
// ibpm-sim: simulated InfiniBand fabrics for tests, CTest fixtures and demos.
//   ibpm-sim generate --hosts 648 --radix 36 -o fabric.net
//   ibpm-sim generate --hosts 10000 --radix 40 --levels 3 --dump fabric.ibnetdiscover
//   ibpm-sim start fabric.net --dir DIR        (detached; returns when the fabric is ready)
//   ibpm-sim cmd --dir DIR 'PerformanceSet "leaf01"[1] PortCounters.SymbolErrorCounter=5'
//   ibpm-sim exec --dir DIR -- ibnetdiscover
//   ibpm-sim traffic --dir DIR jobs.flows      (before each sweep: counters = rate x time)
//   ibpm-sim traffic --dir DIR --lft routes.lft --truth truth.json jobs.flows   (congestion)
//   ibpm-sim stop --dir DIR
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "plugin/options.hpp"
#include "sim/degrade.hpp"
#include "sim/fat_tree.hpp"
#include "sim/net_fabric.hpp"
#include "sim/net_file.hpp"
#include "sim/sim_programs.hpp"
#include "sim/simulated_fabric.hpp"
#include "sim/traffic_command.hpp"

namespace {

using namespace ibpm;
using namespace ibpm::sim;

// Exit status when ibsim, OpenSM or the diagnostics are not installed (CTest SKIP_RETURN_CODE).
constexpr int kMissingProgramExit = 77;

struct GenerateArgs {
  FatTreeOptions tree;
  std::string width = "4x";
  std::string speed = "HDR";
  std::string oversubscription = "1:1";
  std::vector<std::string> degrade;
  bool degrade_one_end = false;
  std::string output;
  std::string dump;
};

int generate(const GenerateArgs& args) {
  FatTreeOptions options = args.tree;
  auto width = parse_link_width(args.width);
  auto speed = parse_link_speed(args.speed);
  if (!width) throw plugin::UsageError("--width", "unknown link width '" + args.width + "'");
  if (!speed) throw plugin::UsageError("--speed", "unknown link speed '" + args.speed + "'");
  options.width = *width;
  options.speed = *speed;
  auto colon = args.oversubscription.find(':');
  try {
    if (colon == std::string::npos) throw std::invalid_argument("no colon");
    options.oversubscription_down = std::stoi(args.oversubscription.substr(0, colon));
    options.oversubscription_up = std::stoi(args.oversubscription.substr(colon + 1));
  } catch (const std::exception&) {
    throw plugin::UsageError("--oversubscription", "expected DOWN:UP, e.g. 2:1");
  }
  FatTree tree = make_fat_tree(options);
  for (const std::string& spec : args.degrade) {
    auto d = parse_degradation(spec);
    if (!d)
      throw plugin::UsageError("--degrade", "expected NODE[PORT]=WIDTH[SPEED], e.g. leaf01[19]=1x");
    d->both_ends = !args.degrade_one_end;
    degrade_link(tree.topology, *d);
  }
  if (!args.dump.empty()) {
    // The same fabric as an ibnetdiscover dump, for --cache without starting ibsim.
    const Fabric fabric = net_fabric(tree.topology);
    base::replace_file_with(args.dump,
                            [&](std::ostream& out) { dump::write_ibnetdiscover(out, fabric); });
    (args.output == "-" ? std::cerr : std::cout)
        << "wrote " << args.dump << ": " << tree.summary() << '\n';
    if (args.output.empty()) return 0;
  }
  std::string text = tree.net_file();
  if (args.output == "-") {
    std::cout << text;
    std::cerr << tree.summary() << '\n';
  } else {
    std::ofstream out(args.output, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + args.output);
    std::cout << "wrote " << args.output << ": " << tree.summary() << '\n';
  }
  return 0;
}

int start(const std::string& net_file, const std::string& dir, bool no_sm, bool replace,
          double timeout_s) {
  // A run that was interrupted before its stop leaves a simulation behind: --replace ends it.
  if (replace && std::filesystem::exists(std::filesystem::path(dir) / "state"))
    SimulatedFabric::attach(dir).stop();
  SimulatedFabric::Options options;
  options.work_dir = dir;
  options.detached = true;
  options.run_subnet_manager = !no_sm;
  auto timeout = std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000));
  options.start_timeout = timeout;
  options.sm_timeout = timeout;
  auto t0 = std::chrono::steady_clock::now();
  SimulatedFabric fabric = SimulatedFabric::start(net_file, options);
  fabric.detach();
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "simulated fabric ready after " << took << " s: ibsim pid " << fabric.ibsim_pid()
            << ", IBSIM_SOCKNAME=" << fabric.socket_name() << "\n"
            << "clients: . " << (fabric.work_dir() / "env").string() << "  or  ibpm-sim exec --dir "
            << fabric.work_dir().string() << " -- COMMAND\n";
  return 0;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

int send_commands(const std::string& dir, std::vector<std::string> commands,
                  const std::string& file, bool unchecked) {
  if (!file.empty()) {
    std::vector<std::string> more = read_lines(file);
    commands.insert(commands.end(), more.begin(), more.end());
  }
  SimulatedFabric fabric = SimulatedFabric::attach(dir);
  std::string reply = unchecked ? fabric.console_unchecked(commands) : fabric.console(commands);
  std::cout << reply;
  return 0;
}

int traffic(const TrafficOptions& options) {
  const TrafficReport report = set_traffic(options);
  std::cout << "traffic: " << describe(report) << '\n';
  return 0;
}

int stop(const std::string& dir) {
  SimulatedFabric fabric = SimulatedFabric::attach(dir);
  pid_t pid = fabric.ibsim_pid();
  fabric.stop();
  std::cout << "stopped ibsim pid " << pid << " and removed its files from " << dir << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  plugin::CommandLine command_line(
      "Simulated InfiniBand fabrics (ibsim + one OpenSM sweep) for tests and demos.", "");
  CLI::App& app = command_line.app();
  plugin::set_footer(app, "Exit status 77: ibsim, OpenSM or infiniband-diags missing (" +
                              std::string(kInstallHint) + ").");
  plugin::require_subcommand(app);

  GenerateArgs gen_args;
  CLI::App& gen = plugin::add_subcommand(app, "generate", "Write the ibsim net file of a fat tree");
  plugin::add_option(gen, "--hosts", gen_args.tree.hosts, "Number of hosts (cn0001, ...)")
      .required()
      .positive();
  plugin::add_option(gen, "--radix", gen_args.tree.radix, "Ports per switch (even)").show_default();
  plugin::add_option(gen, "--levels", gen_args.tree.levels, "Switch levels")
      .one_of_numbers({2, 3})
      .show_default();
  plugin::add_option(gen, "--width", gen_args.width, "Link width: 1x 2x 4x 8x 12x").show_default();
  plugin::add_option(gen, "--speed", gen_args.speed,
                     "Link speed: SDR DDR QDR FDR10 FDR EDR HDR NDR")
      .show_default();
  plugin::add_option(gen, "--oversubscription", gen_args.oversubscription,
                     "Leaf host ports : uplinks")
      .show_default();
  plugin::add_option(gen, "--host-prefix", gen_args.tree.host_prefix, "Host name prefix")
      .show_default();
  plugin::add_option(gen, "--degrade", gen_args.degrade,
                     "Degraded port: NODE[PORT]=WIDTH[SPEED], e.g. leaf01[19]=1x (repeatable)");
  plugin::add_flag(
      gen, "--degrade-one-end", gen_args.degrade_one_end,
      "Lower only the named port of degraded links (OpenSM's sweep may bring them back up)");
  const plugin::OptionRef net_output =
      plugin::add_output_option(gen, gen_args.output, "Net file to write ('-' for stdout)");
  const plugin::OptionRef dump_output = plugin::add_option(
      gen, "--dump", gen_args.dump,
      "Also (or only) write the fabric as an ibnetdiscover dump, readable with --cache");
  plugin::require_any(gen, {net_output, dump_output}, "-o,--output or --dump");

  std::string dir, net_file, command_file;
  bool no_sm = false, unchecked = false, replace = false;
  double timeout_s = 120;
  std::vector<std::string> commands, command;

  CLI::App& start_cmd = plugin::add_subcommand(
      app, "start",
      "Start ibsim and one OpenSM sweep in the background; returns when the fabric is ready");
  plugin::add_option(start_cmd, "netfile", net_file, "ibsim net file").required().existing_file();
  plugin::add_option(
      start_cmd, "--dir", dir,
      "Folder for the simulation's files (absent or empty): env, ibsim.pid, console, ibsim.log")
      .required();
  plugin::add_flag(start_cmd, "--no-sm", no_sm, "Skip the OpenSM sweep (no LIDs)");
  plugin::add_flag(start_cmd, "--replace", replace, "Stop a simulation still running in DIR first");
  plugin::add_timeout_option(start_cmd, timeout_s,
                             "Seconds to wait for ibsim, and again for OpenSM", "--timeout");

  CLI::App& cmd = plugin::add_subcommand(
      app, "cmd", "Send ibsim console commands and wait until they are processed");
  plugin::add_option(cmd, "--dir", dir, "Folder given to start").required();
  plugin::add_option(cmd, "-f,--file", command_file, "File of console commands, one per line")
      .existing_file();
  plugin::add_flag(cmd, "--unchecked", unchecked, "Do not fail on error replies from ibsim");
  plugin::add_option(cmd, "commands", commands, "Console commands, one per argument");

  CLI::App& exec = plugin::add_subcommand(
      app, "exec",
      "Run a command as a client of the simulation: ibpm-sim exec --dir DIR -- COMMAND ARGS...");
  plugin::add_option(exec, "--dir", dir, "Folder given to start").required();
  plugin::add_option(exec, "command", command, "Command and arguments (after --)").required();

  TrafficOptions traffic_args;
  double elapsed = 0;
  CLI::App& traffic_cmd = plugin::add_subcommand(
      app, "traffic",
      "Set the data counters to what the flows of a flows file sent since they started, and "
      "PortXmitWait where they congest");
  plugin::add_option(traffic_cmd, "--dir", traffic_args.sim_dir, "Folder given to start")
      .required();
  plugin::add_option(traffic_cmd, "flows", traffic_args.flows_file,
                     "Flows file: FROM TO RATE per line")
      .required()
      .existing_file();
  const plugin::OptionRef elapsed_opt =
      plugin::add_option(traffic_cmd, "--elapsed", elapsed,
                         "Seconds of traffic to set instead of the time since the start")
          .non_negative();
  plugin::add_flag(traffic_cmd, "--restart", traffic_args.restart, "Start the flows again from now")
      .excludes(elapsed_opt);
  std::string lft_file, truth_file;
  const plugin::OptionRef lft_opt =
      plugin::add_option(traffic_cmd, "--lft", lft_file,
                         "Route the flows along these forwarding tables (an LFT file "
                         "as ibpm-routes --refresh writes STATE_DIR/routes.lft)")
          .existing_file();
  const plugin::OptionRef truth_opt = plugin::add_option(
      traffic_cmd, "--truth", truth_file,
      "Write the congestion model's truth here (JSON: ports' roles and lost shares, flows' "
      "demanded and delivered rates)");
  plugin::add_xmit_wait_tick_option(traffic_cmd, traffic_args.xmit_wait_tick_ns,
                                    "Nanoseconds per PortXmitWait tick, as the reader of the "
                                    "counters takes it (default: the time the link takes to send "
                                    "4 octets)");
  plugin::set_footer(
      traffic_cmd,
      "Flows file: one flow per line, FROM TO RATE; FROM and TO are hosts of the fabric, RATE\n"
      "is octets per second with an optional unit: 125000, 800M, 500MB/s, 1.5GB/s, 2GiB/s\n"
      "(k/K M G T = powers of 1000, Ki Mi Gi Ti = powers of 1024; bits are refused). '#' starts\n"
      "a comment, blank lines are ignored.\n"
      "Time: each flow's ports get rate x seconds in their PortXmitData/PortRcvData (32- and\n"
      "64-bit). The first call for a flows file records its start in DIR/traffic (one second\n"
      "back, so the counters begin at one second of traffic); each later call sets rate x\n"
      "(now - start): run it before each sweep. --restart records a new start; another flows\n"
      "file starts anew too. Counters are set, not added: a new start makes them fall, which\n"
      "the checks read as counters cleared by someone else. --elapsed sets rate x SECONDS and\n"
      "records nothing.\n"
      "Congestion: where the flows through a port ask more than its link carries (active width\n"
      "and speed), they are cut by max-min fair sharing; the data counters hold the delivered\n"
      "rates, and PortXmitWait of every port a flow leaves from the time it waited for credits\n"
      "(its lost share x seconds / tick; roots and clean ports 0, docs/congestion-model.md).\n"
      "ibsim has only the 32-bit PortXmitWait: at the default tick it is full after 0.69 s /\n"
      "lost share on 4x HDR; give the analysis and this command the same --xmit-wait-tick for\n"
      "longer runs. Routes: shortest paths, or with --lft those of the forwarding tables,\n"
      "traced on the fabric as ibnetdiscover finds it (nodes matched by name). --truth FILE\n"
      "writes {\"seconds\",\"ports\":[{\"node\",\"guid\",\"port\",\"role\":root|victim|clean,\n"
      "\"lost_share\",\"utilization\",\"capacity\",\"offered\",\"carried\",\"xmit_wait\"}],\n"
      "\"flows\":[{\"from\",\"to\",\"demand\",\"delivered\",\"bottleneck\"}]} for every port a\n"
      "flow leaves from (rates in octets/s, shares 0..1).");

  CLI::App& stop_cmd =
      plugin::add_subcommand(app, "stop", "Stop the simulation (by pid) and remove its files");
  plugin::add_option(stop_cmd, "--dir", dir, "Folder given to start").required();

  if (const int exit = command_line.parse(argc, argv); exit >= 0) return exit;

  try {
    if (plugin::given(gen)) return generate(gen_args);
    if (plugin::given(start_cmd)) return start(net_file, dir, no_sm, replace, timeout_s);
    if (plugin::given(cmd)) return send_commands(dir, commands, command_file, unchecked);
    if (plugin::given(exec)) return SimulatedFabric::attach(dir).run_client_passthrough(command);
    if (plugin::given(traffic_cmd)) {
      if (elapsed_opt.count() > 0) traffic_args.elapsed = elapsed;
      if (lft_opt.count() > 0) traffic_args.lft_file = lft_file;
      if (truth_opt.count() > 0) traffic_args.truth_file = truth_file;
      return traffic(traffic_args);
    }
    if (plugin::given(stop_cmd)) return stop(dir);
  } catch (const plugin::UsageError& e) {
    return command_line.exit(e);
  } catch (const MissingProgram& e) {
    std::cerr << "ibpm-sim: " << e.what() << '\n';
    return kMissingProgramExit;
  } catch (const std::exception& e) {
    std::cerr << "ibpm-sim: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
