// SPDX-License-Identifier: MIT
// ibpm-topology: reads a fabric (live discovery or --cache FILE) and prints its summary, or saves
// it as a libibnetdisc cache file, an ibnetdiscover dump or an ibsim net file (so any real dump can
// be simulated). --record / --replay record a discovery's MADs and replay them without a fabric.
#include <iostream>
#include <optional>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "dump/ibsim_net_writer.hpp"
#include "fabric/node_name_map.hpp"
#include "fabric_summary.hpp"
#include "levels_report.hpp"
#include "plugin/cli.hpp"
#include "plugin/options.hpp"
#include "poll/discovery_tap.hpp"
#include "poll/poll_options.hpp"
#include "topology/fabric_topology.hpp"
#include "topology/topology.hpp"

namespace {

struct Options {
  ibpm::plugin::FabricOptions fabric;
  std::string write_cache;
  std::string write_dump;
  std::string write_net;
  bool warnings = false;
  bool levels = false;
};

void run(const Options& options) {
  ibpm::mad::MadTap tap = ibpm::poll::discovery_tap(options.fabric);
  ibpm::topology::Topology topology = ibpm::topology::topology_source(options.fabric, &tap)
                                          .load(ibpm::topology::TopologyRefresh::cache_or_discover);
  ibpm::tools::print_fabric_summary(std::cout, topology);
  if (options.warnings)
    for (const auto& w : topology.warnings) std::cout << "  warning: " << w << "\n";
  if (options.levels) {
    const auto names = ibpm::NodeNameMap::load_if_named(options.fabric.node_name_map);
    ibpm::tools::print_levels(std::cout, topology.fabric, names ? &*names : nullptr);
  }
  if (!options.write_cache.empty()) {
    if (!topology.ibnd)
      throw std::runtime_error("--write-cache needs a fabric from discovery or a cache file");
    ibpm::topology::save_topology(topology, options.write_cache);
  }
  if (!options.write_dump.empty())
    ibpm::base::replace_file_with(options.write_dump, [&](std::ostream& out) {
      ibpm::dump::write_ibnetdiscover(out, topology.fabric);
    });
  if (!options.write_net.empty())
    ibpm::base::replace_file_with(options.write_net, [&](std::ostream& out) {
      ibpm::dump::write_ibsim_net(out, topology.fabric, {});
    });
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return ibpm::plugin::run_tool(
      argc, argv,
      {.name = "ibpm-topology",
       .description = "Reads an InfiniBand fabric (live discovery or --cache FILE) and prints its "
                      "summary; optionally saves it in other formats.",
       .add_options =
           [&](CLI::App& app) {
             ibpm::plugin::add_fabric_options(app, options.fabric);
             ibpm::poll::add_recording_options(app, options.fabric,
                                               ibpm::poll::ReplayTopology::discovery);
             ibpm::plugin::add_option(app, "--write-cache", options.write_cache,
                                      "Save as a libibnetdisc cache file");
             ibpm::plugin::add_option(app, "--write-dump", options.write_dump,
                                      "Save as an ibnetdiscover text dump");
             ibpm::plugin::add_option(app, "--write-net", options.write_net,
                                      "Save as an ibsim net file");
             ibpm::plugin::add_flag(app, "--warnings", options.warnings,
                                    "List what the input had that was read around");
             ibpm::plugin::add_flag(
                 app, "--levels", options.levels,
                 "Show the switch levels (leaf, spine, core), aggregation nodes and chassis");
           },
       .run = [&] { run(options); }});
}
