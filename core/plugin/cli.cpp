// SPDX-License-Identifier: MIT

#include "plugin/cli.hpp"

#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <stdexcept>

#include "plugin/icinga2_command.hpp"
#include "plugin/timeout.hpp"

#ifndef IBPM_VERSION
#define IBPM_VERSION "0.1.0"
#endif

namespace ibpm::plugin {
namespace {

constexpr int kUnknown = exit_code(State::unknown);

constexpr std::string_view kFooter =
    "Thresholds use the Monitoring Plugins range syntax: N (alert outside 0..N), N: (below N),\n"
    "~:N (above N), N:M (outside N..M), @N:M (inside N..M); endpoints are inclusive.\n"
    "Exit codes: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (also for --help, --version and\n"
    "usage errors).";

void print(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

// The options every plugin has; parsing fills common and format_name.
void add_common_options(CLI::App& app, const PluginSpec& spec, CommonOptions& common,
                        std::string& format_name) {
  app.set_help_flag("-h,--help", "Print this help and exit (exit code 3)");
  app.set_version_flag("-V,--version", spec.name + " " + std::string(version()),
                       "Print the version and exit (exit code 3)");
  add_verbose_flag(app, common.verbosity, "More detail (repeatable: -vv, -vvv)");
  add_timeout_option(app, common.timeout, "Give up with UNKNOWN after SECONDS (0: never)")
      .type_name("SECONDS")
      .in_range(0u, 86400u);
  app.add_option("--output-format", format_name, "Output as text or json")
      ->type_name("FORMAT")
      ->capture_default_str()
      ->check(CLI::IsMember({"text", "json"}));
  app.footer(std::string(kFooter));
}

// One line even when the reason spans lines (render_text passes it through one_line).
int usage_error(const PluginSpec& spec, std::string_view reason) {
  print(render_text(unknown_check(std::string(reason)), spec.prefix));
  return kUnknown;
}

// A failure that ran into the open-file limit says which limit and how to raise it.
std::string with_limit_hint(std::string reason) {
  if (reason.find(std::strerror(EMFILE)) == std::string::npos) return reason;
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  return reason + " (the open-file limit is " + std::to_string(limit.rlim_cur) +
         ": raise it with `ulimit -n`, or LimitNOFILE= in the service's systemd unit)";
}

int run_body(const PluginSpec& spec, const CommonOptions& common) {
  Check check;
  try {
    const std::string timeout_message =
        render(unknown_check("timed out after " + std::to_string(common.timeout) + " s"),
               spec.prefix, common.format);
    Timeout timeout(common.timeout, timeout_message);
    if (!spec.body) throw std::logic_error("no check body");
    check = spec.body(common);
  } catch (const std::exception& e) {
    check = unknown_check(with_limit_hint(e.what()));
  } catch (...) {
    check = unknown_check("unknown error");
  }
  print(render(check, spec.prefix, common.format));
  const int code = exit_code(effective_state(check));
  return code >= 0 && code <= kUnknown ? code : kUnknown;
}

// Under `ulimit -f`, a write past the limit raises SIGXFSZ, which kills the process without a
// word (exit 153 to the shell, no output for Nagios). Ignored, the write fails with EFBIG and the
// command reports it like any other failed write.
void ignore_file_size_signal() { std::signal(SIGXFSZ, SIG_IGN); }

}  // namespace

std::string_view version() { return IBPM_VERSION; }

int run_plugin(int argc, const char* const* argv, const PluginSpec& spec) {
  ignore_file_size_signal();
  CommonOptions common;
  std::string format_name = "text";
  try {
    CLI::App app(spec.description, spec.name);
    add_common_options(app, spec, common, format_name);
    if (spec.add_options) spec.add_options(app);
    // Asked before parsing: the check's required options are not given then.
    app.add_flag("--icinga2-check-command")->group("");
    if (std::find(argv + 1, argv + argc, std::string_view("--icinga2-check-command")) !=
        argv + argc) {
      print(icinga2_check_command(app, {spec.name, spec.summary, spec.icinga2_host_defaults}));
      return 0;
    }
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      print(app.help());
      return kUnknown;
    } catch (const CLI::CallForAllHelp&) {
      print(app.help("", CLI::AppFormatMode::All));
      return kUnknown;
    } catch (const CLI::CallForVersion& e) {
      print(std::string(e.what()) + "\n");
      return kUnknown;
    }
  } catch (const std::exception& e) {
    // CLI::ParseError, and anything thrown while the check registered its options.
    return usage_error(spec, e.what());
  }
  common.format = format_name == "json" ? OutputFormat::json : OutputFormat::text;
  return run_body(spec, common);
}

int run_tool(int argc, const char* const* argv, const ToolSpec& spec) {
  CLI::App app(spec.description, spec.name);
  if (spec.add_options) spec.add_options(app);
  return run_tool(app, argc, argv, spec.run);
}

int run_tool(CLI::App& app, int argc, const char* const* argv, const std::function<void()>& run) {
  ignore_file_size_signal();
  app.set_version_flag("-V,--version", std::string(version()));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    // An option's own parser refused its value (--shard x): said as CLI11 says a bad value.
    return app.exit(CLI::ValidationError(e.what()));
  }
  try {
    run();
  } catch (const std::exception& e) {
    std::cerr << app.get_name() << ": " << with_limit_hint(e.what()) << "\n";
    return 1;
  }
  return 0;
}

}  // namespace ibpm::plugin
