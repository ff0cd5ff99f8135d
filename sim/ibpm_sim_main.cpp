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
#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "dump/ibnetdiscover_writer.hpp"
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
  if (!width) throw CLI::ValidationError("--width", "unknown link width '" + args.width + "'");
  if (!speed) throw CLI::ValidationError("--speed", "unknown link speed '" + args.speed + "'");
  options.width = *width;
  options.speed = *speed;
  auto colon = args.oversubscription.find(':');
  try {
    if (colon == std::string::npos) throw std::invalid_argument("no colon");
    options.oversubscription_down = std::stoi(args.oversubscription.substr(0, colon));
    options.oversubscription_up = std::stoi(args.oversubscription.substr(colon + 1));
  } catch (const std::exception&) {
    throw CLI::ValidationError("--oversubscription", "expected DOWN:UP, e.g. 2:1");
  }
  FatTree tree = make_fat_tree(options);
  for (const std::string& spec : args.degrade) {
    auto d = parse_degradation(spec);
    if (!d)
      throw CLI::ValidationError("--degrade",
                                 "expected NODE[PORT]=WIDTH[SPEED], e.g. leaf01[19]=1x");
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
  CLI::App app{"Simulated InfiniBand fabrics (ibsim + one OpenSM sweep) for tests and demos."};
  app.footer("Exit status 77: ibsim, OpenSM or infiniband-diags missing (" +
             std::string(kInstallHint) + ").");
  app.require_subcommand(1);

  GenerateArgs gen_args;
  CLI::App* gen = app.add_subcommand("generate", "Write the ibsim net file of a fat tree");
  gen->add_option("--hosts", gen_args.tree.hosts, "Number of hosts (cn0001, ...)")
      ->required()
      ->check(CLI::PositiveNumber);
  gen->add_option("--radix", gen_args.tree.radix, "Ports per switch (even)")->capture_default_str();
  gen->add_option("--levels", gen_args.tree.levels, "Switch levels")
      ->check(CLI::IsMember({2, 3}))
      ->capture_default_str();
  gen->add_option("--width", gen_args.width, "Link width: 1x 2x 4x 8x 12x")->capture_default_str();
  gen->add_option("--speed", gen_args.speed, "Link speed: SDR DDR QDR FDR10 FDR EDR HDR NDR")
      ->capture_default_str();
  gen->add_option("--oversubscription", gen_args.oversubscription, "Leaf host ports : uplinks")
      ->capture_default_str();
  gen->add_option("--host-prefix", gen_args.tree.host_prefix, "Host name prefix")
      ->capture_default_str();
  gen->add_option("--degrade", gen_args.degrade,
                  "Degraded port: NODE[PORT]=WIDTH[SPEED], e.g. leaf01[19]=1x (repeatable)");
  gen->add_flag(
      "--degrade-one-end", gen_args.degrade_one_end,
      "Lower only the named port of degraded links (OpenSM's sweep may bring them back up)");
  auto* net_output =
      gen->add_option("-o,--output", gen_args.output, "Net file to write ('-' for stdout)");
  auto* dump_output = gen->add_option(
      "--dump", gen_args.dump,
      "Also (or only) write the fabric as an ibnetdiscover dump, readable with --cache");
  gen->callback([net_output, dump_output] {
    if (net_output->count() == 0 && dump_output->count() == 0)
      throw CLI::RequiredError("-o,--output or --dump");
  });

  std::string dir, net_file, command_file;
  bool no_sm = false, unchecked = false, replace = false;
  double timeout_s = 120;
  std::vector<std::string> commands, command;

  CLI::App* start_cmd = app.add_subcommand(
      "start",
      "Start ibsim and one OpenSM sweep in the background; returns when the fabric is ready");
  start_cmd->add_option("netfile", net_file, "ibsim net file")
      ->required()
      ->check(CLI::ExistingFile);
  start_cmd
      ->add_option(
          "--dir", dir,
          "Folder for the simulation's files (absent or empty): env, ibsim.pid, console, ibsim.log")
      ->required();
  start_cmd->add_flag("--no-sm", no_sm, "Skip the OpenSM sweep (no LIDs)");
  start_cmd->add_flag("--replace", replace, "Stop a simulation still running in DIR first");
  start_cmd->add_option("--timeout", timeout_s, "Seconds to wait for ibsim, and again for OpenSM")
      ->capture_default_str();

  CLI::App* cmd =
      app.add_subcommand("cmd", "Send ibsim console commands and wait until they are processed");
  cmd->add_option("--dir", dir, "Folder given to start")->required();
  cmd->add_option("-f,--file", command_file, "File of console commands, one per line")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--unchecked", unchecked, "Do not fail on error replies from ibsim");
  cmd->add_option("commands", commands, "Console commands, one per argument");

  CLI::App* exec = app.add_subcommand(
      "exec",
      "Run a command as a client of the simulation: ibpm-sim exec --dir DIR -- COMMAND ARGS...");
  exec->add_option("--dir", dir, "Folder given to start")->required();
  exec->add_option("command", command, "Command and arguments (after --)")->required();

  TrafficOptions traffic_args;
  double elapsed = 0;
  CLI::App* traffic_cmd = app.add_subcommand(
      "traffic",
      "Set the data counters to what the flows of a flows file sent since they started, and "
      "PortXmitWait where they congest");
  traffic_cmd->add_option("--dir", traffic_args.sim_dir, "Folder given to start")->required();
  traffic_cmd->add_option("flows", traffic_args.flows_file, "Flows file: FROM TO RATE per line")
      ->required()
      ->check(CLI::ExistingFile);
  auto* elapsed_opt =
      traffic_cmd
          ->add_option("--elapsed", elapsed,
                       "Seconds of traffic to set instead of the time since the start")
          ->check(CLI::NonNegativeNumber);
  traffic_cmd->add_flag("--restart", traffic_args.restart, "Start the flows again from now")
      ->excludes(elapsed_opt);
  std::string lft_file, truth_file;
  double xmit_wait_tick_ns = 0;
  auto* lft_opt = traffic_cmd
                      ->add_option("--lft", lft_file,
                                   "Route the flows along these forwarding tables (an LFT file "
                                   "as ibpm-routes --refresh writes STATE_DIR/routes.lft)")
                      ->check(CLI::ExistingFile);
  auto* truth_opt = traffic_cmd->add_option(
      "--truth", truth_file,
      "Write the congestion model's truth here (JSON: ports' roles and lost shares, flows' "
      "demanded and delivered rates)");
  auto* tick_opt = traffic_cmd
                       ->add_option("--xmit-wait-tick", xmit_wait_tick_ns,
                                    "Nanoseconds per PortXmitWait tick, as the reader of the "
                                    "counters takes it (default: the time the link takes to send "
                                    "4 octets)")
                       ->check(CLI::PositiveNumber)
                       ->type_name("NS");
  traffic_cmd->footer(
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

  CLI::App* stop_cmd =
      app.add_subcommand("stop", "Stop the simulation (by pid) and remove its files");
  stop_cmd->add_option("--dir", dir, "Folder given to start")->required();

  CLI11_PARSE(app, argc, argv);

  try {
    if (*gen) return generate(gen_args);
    if (*start_cmd) return start(net_file, dir, no_sm, replace, timeout_s);
    if (*cmd) return send_commands(dir, commands, command_file, unchecked);
    if (*exec) return SimulatedFabric::attach(dir).run_client_passthrough(command);
    if (*traffic_cmd) {
      if (elapsed_opt->count() > 0) traffic_args.elapsed = elapsed;
      if (lft_opt->count() > 0) traffic_args.lft_file = lft_file;
      if (truth_opt->count() > 0) traffic_args.truth_file = truth_file;
      if (tick_opt->count() > 0) traffic_args.xmit_wait_tick_ns = xmit_wait_tick_ns;
      return traffic(traffic_args);
    }
    if (*stop_cmd) return stop(dir);
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const MissingProgram& e) {
    std::cerr << "ibpm-sim: " << e.what() << '\n';
    return kMissingProgramExit;
  } catch (const std::exception& e) {
    std::cerr << "ibpm-sim: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
