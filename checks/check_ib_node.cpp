// SPDX-License-Identifier: MIT
// check_ib_node: every cabled port of a node (a switch, typically) in one run, one line per port
// in the long output, the worst state wins and the summary names the worst ports by both ends.
#include <CLI/CLI.hpp>
#include <algorithm>

#include "poll/port_check.hpp"

namespace {

using ibpm::plugin::Check;
using ibpm::plugin::State;
using ibpm::plugin::Subcheck;

struct PortLine {
  std::string cable;  // both ends, for the summary
  Subcheck check;
};

// "leaf01: 36 ports, 2 not OK; worst: leaf01[3] <-> spine02[1] rcv_errors 27/s (...)".
std::string summary(const std::string& node, const std::vector<PortLine>& ports, State worst,
                    std::size_t shown) {
  std::size_t bad = 0;
  for (const PortLine& p : ports) bad += effective_state(p.check) != State::ok;
  std::string text = node + ": " + std::to_string(ports.size()) + " ports";
  if (bad == 0) return text + ", all OK";
  text += ", " + std::to_string(bad) + " not OK; worst: ";
  std::size_t named = 0, more = 0;
  for (const PortLine& p : ports) {
    if (effective_state(p.check) != worst) continue;
    if (named == shown) {
      ++more;
      continue;
    }
    text += (named++ ? "; " : "") + p.cable;
    const auto why = ibpm::poll::port_reason(p.check, worst, p.cable);
    text += (why.from_children ? " " : ": ") + why.text;
  }
  if (more) text += "; and " + std::to_string(more) + " more";
  return text;
}

Check run(const ibpm::poll::PortCheckOptions& options, std::size_t shown,
          const ibpm::plugin::CommonOptions& common) {
  const ibpm::poll::NodePoll poll = ibpm::poll::poll_node(options, common, false);
  const auto settings = ibpm::poll::report_settings(options, poll.thresholds);
  Check check;
  State worst = State::ok;
  std::vector<PortLine> ports;
  for (const ibpm::poll::PortResult& result : poll.results) {
    Subcheck port = ibpm::poll::port_subcheck(result, settings);
    worst = ibpm::plugin::worst(worst, effective_state(port));
    const std::string prefix = "p" + std::to_string(result.target.port) + "_";
    for (auto& p : ibpm::poll::port_perfdata(result, poll.thresholds, prefix, options.ber))
      check.perfdata.push_back(std::move(p));
    ports.push_back({ibpm::poll::cable_name(result.target), std::move(port)});
  }
  // Whom the ports in trouble hurt (ports is still in poll.results order here).
  std::vector<Subcheck*> port_checks;
  for (PortLine& p : ports) port_checks.push_back(&p.check);
  const std::string routes_problem = ibpm::poll::add_route_impact(options, poll, port_checks);
  // Worst ports first, in the long output too.
  std::stable_sort(ports.begin(), ports.end(), [](const PortLine& a, const PortLine& b) {
    return ibpm::plugin::severity(effective_state(a.check)) >
           ibpm::plugin::severity(effective_state(b.check));
  });
  const ibpm::NodeNameMap* names = poll.names ? &*poll.names : nullptr;
  check.summary = summary(ibpm::display_name(*poll.node, names), ports, worst, shown);
  for (PortLine& p : ports) check.subchecks.push_back(std::move(p.check));
  if (!routes_problem.empty()) check.subchecks.push_back({State::ok, routes_problem, {}, {}});
  if (poll.rediscovered)
    check.subchecks.push_back({State::ok, "topology was stale: discovered again", {}, {}});
  if (common.verbosity > 0)
    check.subchecks.push_back({State::ok, ibpm::poll::describe(poll.mad_stats), {}, {}});
  return check;
}

}  // namespace

int main(int argc, char** argv) {
  ibpm::poll::PortCheckOptions options;
  std::size_t shown = 3;
  return ibpm::plugin::run_plugin(
      argc, argv,
      {.name = "check_ib_node",
       .prefix = "IB NODE",
       .description =
           "Reads the counters of every cabled port of an InfiniBand node (a switch, typically) "
           "in one parallel run and checks each port as check_ib_port does: error rates, "
           "utilization and XmitWait against thresholds, link state, width and speed. One line "
           "per port in the long output; the worst state wins and the summary names the worst "
           "ports with both cable ends. Perfdata labels are prefixed with the port (p3_...).",
       .add_options =
           [&](CLI::App& app) {
             ibpm::poll::add_port_check_options(app, options, false);
             app.add_option("--summary-ports", shown, "Worst ports named in the status line")
                 ->capture_default_str();
           },
       .body =
           [&](const ibpm::plugin::CommonOptions& common) { return run(options, shown, common); }});
}
