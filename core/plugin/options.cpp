// SPDX-License-Identifier: MIT

#include "plugin/options.hpp"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace ibpm::plugin {

void add_local_port_options(CLI::App& app, std::string& ca, int& port, const std::string& group) {
  app.add_option("-C,--Ca", ca, "InfiniBand device (HCA) to use")->type_name("CA")->group(group);
  app.add_option("-P,--Port", port, "HCA port to use (0: the first active port)")
      ->type_name("PORT")
      ->check(CLI::Range(0, 254))
      ->group(group);
}

void add_node_name_map_option(CLI::App& app, std::string& file, const std::string& group) {
  app.add_option("--node-name-map", file, "Node name map file")->type_name("FILE")->group(group);
}

void add_state_dir_option(CLI::App& app, std::string& dir, const std::string& group) {
  app.add_option("--state-dir", dir, "Directory for state kept between runs")
      ->type_name("DIR")
      ->capture_default_str()
      ->group(group);
}

OptionRef add_jobs_option(CLI::App& app, std::string& file, const std::string& use) {
  return app
      .add_option("--jobs", file,
                  "Jobs file (JOBID HOSTLIST lines, as squeue -h -o \"%A %N\" prints them): " + use)
      ->type_name("FILE");
}

OptionRef add_rrdcached_option(CLI::App& app, std::string& address, const std::string& use) {
  return app
      .add_option("--rrdcached", address, "rrdcached address (unix:PATH or HOST[:PORT]): " + use)
      ->type_name("ADDR");
}

OptionRef add_top_option(CLI::App& app, std::size_t& top, const std::string& use) {
  return app.add_option("--top", top, "Only the first N " + use + " (0: all)")
      ->type_name("N")
      // Else "-1" would wrap around to every entry.
      ->check(CLI::Validator(
          [](const std::string& text) {
            return text.find_first_not_of("0123456789") == std::string::npos && !text.empty()
                       ? std::string()
                       : "'" + text + "' is not a count (0, 1, 2, ...)";
          },
          "", "count"))
      ->capture_default_str();
}

OptionRef add_sort_option(CLI::App& app, std::string& sort, const std::vector<std::string>& keys,
                          const std::string& use) {
  return app.add_option("--sort", sort, use)->check(CLI::IsMember(keys))->capture_default_str();
}

OptionRef add_xmit_wait_tick_option(CLI::App& app, std::optional<double>& nanoseconds) {
  return add_xmit_wait_tick_option(app, nanoseconds,
                                   "Nanoseconds per PortXmitWait tick for xmit_wait_pct (default: "
                                   "the time the link takes to send 4 octets)");
}

OptionRef add_xmit_wait_tick_option(CLI::App& app, std::optional<double>& nanoseconds,
                                    const std::string& description) {
  // Described as CLI::PositiveNumber is ("POSITIVE" in the help), with a reason of its own.
  const CLI::Validator positive_tick(
      [](const std::string& text) {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (!text.empty() && *end == '\0' && value > 0) return std::string();
        return "'" + text +
               "' is not a tick length: give the nanoseconds of one PortXmitWait tick, above 0";
      },
      "POSITIVE", "xmit_wait_tick");
  return app.add_option("--xmit-wait-tick", nanoseconds, description)
      ->check(positive_tick)
      ->type_name("NS");
}

OptionRef add_output_option(CLI::App& app, std::string& path, const std::string& description) {
  return app.add_option("-o,--output", path, description);
}

template <class Level>
OptionRef add_verbose_flag(CLI::App& app, Level& verbose, const std::string& description) {
  return app.add_flag("-v,--verbose", verbose, description);
}
template OptionRef add_verbose_flag(CLI::App&, bool&, const std::string&);
template OptionRef add_verbose_flag(CLI::App&, int&, const std::string&);

template <class Seconds>
OptionRef add_timeout_option(CLI::App& app, Seconds& seconds, const std::string& description,
                             const std::string& names) {
  return app.add_option(names, seconds, description)->capture_default_str();
}
template OptionRef add_timeout_option(CLI::App&, unsigned&, const std::string&, const std::string&);
template OptionRef add_timeout_option(CLI::App&, long&, const std::string&, const std::string&);
template OptionRef add_timeout_option(CLI::App&, double&, const std::string&, const std::string&);

OptionRef add_no_history_flag(CLI::App& app, bool& no_history, const std::string& description) {
  return app.add_flag("--no-history", no_history, description);
}

OptionRef add_baseline_option(CLI::App& app, std::string& file, const std::string& description) {
  return app.add_option("--baseline", file, description);
}

OptionRef add_summary_ports_option(CLI::App& app, std::size_t& ports) {
  return app.add_option("--summary-ports", ports, "Worst ports named in the status line")
      ->capture_default_str();
}

OptionRef add_refresh_routes_flag(CLI::App& app, bool& refresh, const std::string& description) {
  return app.add_flag("--refresh", refresh, description);
}

OptionRef add_graph_format_option(CLI::App& app, std::string& format,
                                  const std::vector<std::string>& formats,
                                  const std::string& description) {
  return app.add_option("--graph-format", format, description)
      ->check(CLI::IsMember(formats))
      ->capture_default_str();
}

OptionRef add_fold_option(CLI::App& app, std::string& mode, const std::string& description) {
  return app.add_option("--fold", mode, description)
      ->check(CLI::IsMember({"auto", "hosts", "pods", "none"}))
      ->capture_default_str();
}

OptionRef add_delegation_option(CLI::App& app, std::string& file, const std::string& description) {
  return app.add_option("--delegation", file, description);
}

OptionRef add_assign_option(CLI::App& app, std::function<void(const std::string&)> assign,
                            const std::string& description) {
  return app.add_option_function<std::string>("--assign", std::move(assign), description)
      ->check(CLI::IsMember({"even", "nearest"}))
      ->default_str("even");
}

namespace {
const char* const kFabricGroup = "Fabric";
}  // namespace

void add_fabric_options(CLI::App& app, FabricOptions& options) {
  add_local_port_options(app, options.ca, options.port, kFabricGroup);
  add_saved_fabric_options(app, options);
}

void add_saved_fabric_options(CLI::App& app, FabricOptions& options) {
  const std::string group = kFabricGroup;
  app.add_option("--cache", options.cache, "Read the fabric from this ibnetdiscover cache file")
      ->type_name("FILE")
      ->group(group);
  add_node_name_map_option(app, options.node_name_map, group);
  add_state_dir_option(app, options.state_dir, group);
}

OptionRef add_range_option(CLI::App& app, const std::string& name, std::optional<Range>& target,
                           const std::string& description) {
  // The validator makes CLI11 name the option in the error ("--warning: invalid range ...");
  // the callback then parses text that is known to be valid.
  const CLI::Validator valid_range(
      [](std::string& text) {
        try {
          parse_range(text);
          return std::string();
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
      },
      "");
  return app
      .add_option_function<std::string>(
          name, [&target](const std::string& text) { target = parse_range(text); }, description)
      ->type_name("RANGE")
      ->check(valid_range);
}

void add_threshold_options(CLI::App& app, Thresholds& thresholds) {
  add_range_option(app, "-w,--warning", thresholds.warning,
                   "WARNING when the value alerts this range");
  add_range_option(app, "-c,--critical", thresholds.critical,
                   "CRITICAL when the value alerts this range");
}

}  // namespace ibpm::plugin
