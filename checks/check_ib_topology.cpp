// SPDX-License-Identifier: MIT
// check_ib_topology: compares the fabric (discovered live, or read with --cache) with a saved
// baseline: nodes missing or new, cables lost, moved or new, links running below the baseline or
// below what both ends enable. --write-baseline saves the fabric as the next baseline. --record
// and --replay record the discovery's MADs and replay them without a fabric.
#include <algorithm>
#include <optional>

#include "fabric/node_name_map.hpp"
#include "plugin/cli.hpp"
#include "poll/discovery_tap.hpp"
#include "poll/poll_options.hpp"
#include "topology/fabric_topology.hpp"
#include "topology/topology.hpp"
#include "topology/topology_diff.hpp"

namespace {

using ibpm::plugin::Check;
using ibpm::plugin::Perfdata;
using ibpm::plugin::State;
using ibpm::plugin::Subcheck;
using ibpm::topology::ChangeKind;

struct Options {
  ibpm::plugin::FabricOptions fabric;
  std::string baseline;
  std::string write_baseline;
  State lost = State::critical;     // nodes missing, links lost or moved
  State degraded = State::warning;  // links below the expected width/speed
  State added = State::warning;     // nodes or links that the baseline does not have
};

void add_state_option(CLI::App& app, const std::string& name, State& target,
                      const std::string& what) {
  ibpm::plugin::add_state_option(app, name, target, {State::ok, State::warning, State::critical},
                                 "State for " + what + ": ok, warning or critical")
      .group("Severity");
}

State severity(const Options& options, ChangeKind kind) {
  switch (kind) {
    case ChangeKind::node_missing:
    case ChangeKind::link_lost:
    case ChangeKind::link_moved:
      return options.lost;
    case ChangeKind::link_degraded:
      return options.degraded;
    case ChangeKind::node_new:
    case ChangeKind::link_new:
      return options.added;
  }
  return State::unknown;
}

Perfdata count(std::string label, std::size_t value) {
  return Perfdata{std::move(label), static_cast<double>(value), "", {}, {}, 0.0, {}};
}

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string summary(const ibpm::Fabric& fabric, const ibpm::topology::TopologyDiff& diff,
                    bool baseline) {
  std::string text = plural(fabric.count(ibpm::NodeType::sw), "switch", "switches") + ", " +
                     plural(fabric.count(ibpm::NodeType::ca), "CA", "CAs") + ", " +
                     plural(fabric.links().size(), "link", "links");
  std::string changes;
  for (ChangeKind kind : {ChangeKind::node_missing, ChangeKind::link_lost, ChangeKind::link_moved,
                          ChangeKind::link_degraded, ChangeKind::node_new, ChangeKind::link_new}) {
    if (std::size_t n = diff.count(kind)) {
      if (!changes.empty()) changes += ", ";
      changes += std::to_string(n) + " " + std::string(ibpm::topology::to_string(kind));
    }
  }
  if (!changes.empty()) return changes + " (" + text + ")";
  return text + (baseline ? ", as in the baseline" : "");
}

Check run(const Options& options, const ibpm::plugin::CommonOptions& common) {
  const auto names = ibpm::NodeNameMap::load_if_named(options.fabric.node_name_map);
  const ibpm::NodeNameMap* name_map = names ? &*names : nullptr;

  // --record / --replay: the discovery's MADs (opened first: a recording that cannot be used
  // stops the run before anything is read).
  ibpm::mad::MadTap tap = ibpm::poll::discovery_tap(options.fabric);
  ibpm::topology::Topology current = ibpm::topology::topology_source(options.fabric, &tap)
                                         .load(ibpm::topology::TopologyRefresh::cache_or_discover);
  std::optional<ibpm::topology::Topology> baseline;
  if (!options.baseline.empty()) baseline = ibpm::topology::load_topology_file(options.baseline);

  ibpm::topology::TopologyDiff diff = ibpm::topology::compare_topology(
      baseline ? &baseline->fabric : nullptr, current.fabric, name_map);

  Check check;
  for (const auto& change : diff.changes)
    check.subchecks.push_back(Subcheck{severity(options, change.kind), change.text, {}, {}});
  if (common.verbosity > 0) {
    for (const auto& warning : current.warnings)
      if (std::find(current.incomplete.begin(), current.incomplete.end(), warning) ==
          current.incomplete.end())
        check.subchecks.push_back(Subcheck{State::ok, "input: " + warning, {}, {}});
  }
  check.summary = summary(current.fabric, diff, baseline.has_value());
  // A dump that lost nodes or cables must not pass for a smaller healthy fabric.
  if (!current.incomplete.empty()) {
    check.summary = "input incomplete (" +
                    plural(current.incomplete.size(), "problem", "problems") + " below); " +
                    check.summary;
    for (const auto& problem : current.incomplete)
      check.subchecks.push_back(Subcheck{State::warning, "input: " + problem, {}, {}});
  }

  const ibpm::Fabric& f = current.fabric;
  check.perfdata = {
      count("switches", f.count(ibpm::NodeType::sw)),
      count("cas", f.count(ibpm::NodeType::ca)),
      count("routers", f.count(ibpm::NodeType::router)),
      count("links", f.links().size()),
      count("degraded_links", diff.count(ChangeKind::link_degraded)),
      count("missing_nodes", diff.count(ChangeKind::node_missing)),
      count("lost_links", diff.count(ChangeKind::link_lost) + diff.count(ChangeKind::link_moved)),
      count("new_nodes", diff.count(ChangeKind::node_new))};

  if (!options.write_baseline.empty()) {
    ibpm::topology::save_topology(current, options.write_baseline);
    check.subchecks.push_back(
        Subcheck{State::ok, "baseline written to " + options.write_baseline, {}, {}});
    // The fabric as discovered is accepted: the cables the other checks kept as lost (down
    // since a discovery stopped seeing them) are forgotten (where they keep a state topology).
    if (options.fabric.cache.empty()) {
      try {
        ibpm::topology::topology_source(options.fabric).accept_discovered(current.fabric);
      } catch (const std::exception& e) {
        check.subchecks.push_back(
            Subcheck{State::warning,
                     std::string("the state topology was not replaced (lost cables still kept): ") +
                         e.what(),
                     {},
                     {}});
      }
    }
  }
  return check;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return ibpm::plugin::run_plugin(
      argc, argv,
      {.name = "check_ib_topology",
       .prefix = "IB TOPOLOGY",
       .description =
           "Compares the InfiniBand fabric with a baseline: nodes missing or new, links lost, "
           "moved or new (both cable ends named), links running below the baseline's or below "
           "what both ends enable. Nodes are matched by GUID. A dump that may have lost nodes or "
           "cables (a GUID twice, GUID 0, a missing record, a one-sided cable) is WARNING at "
           "least; one cut in the middle of a line is UNKNOWN.",
       .add_options =
           [&](CLI::App& app) {
             ibpm::plugin::add_fabric_options(app, options.fabric);
             ibpm::plugin::add_baseline_option(
                 app, options.baseline,
                 "Baseline to compare with: a libibnetdisc cache file or an "
                 "ibnetdiscover dump");
             ibpm::plugin::add_option(
                 app, "--write-baseline", options.write_baseline,
                 "Save the current fabric as a baseline (libibnetdisc cache file when "
                 "discovered live or read from one, ibnetdiscover dump otherwise); discovered "
                 "live, it also becomes the state topology, and the cables the other checks "
                 "kept as lost (down, no longer discovered) are forgotten");
             ibpm::poll::add_recording_options(app, options.fabric,
                                               ibpm::poll::ReplayTopology::discovery);
             add_state_option(app, "--lost", options.lost, "missing nodes and lost or moved links");
             add_state_option(app, "--degraded", options.degraded, "degraded links");
             add_state_option(app, "--new", options.added, "new nodes and links");
           },
       .body = [&](const ibpm::plugin::CommonOptions& common) { return run(options, common); },
       .summary = "Compares the InfiniBand fabric with a baseline (nodes missing or new, links "
                  "lost, moved, new or degraded).",
       .icinga2_host_defaults = {{"baseline", "$ib_baseline$"}}});
}
