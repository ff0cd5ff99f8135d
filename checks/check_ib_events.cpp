// SPDX-License-Identifier: MIT
// check_ib_events: whether the subnet manager's traps can reach ibpm, from the status file
// ibpm-events keeps. A dead event path must never look like a quiet fabric: CRITICAL when the
// listener is not running, has no status, or has not heard the OpenSM plugin (its heartbeat or a
// trap) for --stale seconds; with --sa (the SA way in), CRITICAL instead when it is not
// subscribed at the SA or has not confirmed the subscription for three of its checks, and the
// plugin, if it was ever heard, only WARNING when silent; WARNING when traps were lost or dropped
// within --drop-window, or the last re-poll could not judge its switches.
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "plugin/add_option.hpp"
#include "plugin/cli.hpp"

namespace {

using ibpm::plugin::Check;
using ibpm::plugin::Perfdata;
using ibpm::plugin::State;
using ibpm::plugin::Subcheck;

struct Options {
  std::string status_file = "/run/ibpm-events/events.json";
  unsigned stale = 0;  // 0: three heartbeat intervals, as the plugin announces them
  unsigned drop_window = 3600;
};

double epoch_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string seconds(double s) { return std::to_string(static_cast<long long>(s)) + " s"; }

// The listener's status; nullopt when there is none (it never ran). Throws for a file that is
// not one (UNKNOWN: bad input).
std::optional<nlohmann::json> read_status(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > 65536) throw std::runtime_error(path + ": not a listener's status");
  nlohmann::json status = nlohmann::json::parse(text.str(), nullptr, false);
  if (!status.is_object() || !status.contains("pid") || !status.contains("last_heard"))
    throw std::runtime_error(path + ": not a listener's status");
  return status;
}

// The SA way in: CRITICAL when the listener is not subscribed, or has not confirmed it for three
// of its checks (the SA does not answer, the master is gone), naming why.
void judge_sa(const nlohmann::json& sa, double now, Check& check,
              std::vector<std::string>& problems) {
  const double confirmed = sa.value("last_confirmed", 0.0);
  const double check_s = std::max(1.0, sa.value("check_s", 60.0));
  const std::string failure = sa.value("last_failure", std::string());
  const std::string why = failure.empty() ? "" : ": " + failure;
  if (!sa.value("subscribed", false)) {
    check.state = State::critical;
    problems.push_back("not subscribed at the SA" + (why.empty() ? std::string(" yet") : why) +
                       ": traps cannot arrive, links that go down wait for the next sweep");
  } else if (now - confirmed > 3 * check_s) {
    check.state = State::critical;
    problems.push_back("the SA subscription (SM LID " + std::to_string(sa.value("sm_lid", 0)) +
                       ") not confirmed for " + seconds(now - confirmed) + " (a check every " +
                       seconds(check_s) + ")" + why);
  }
}

Check run(const Options& options) {
  Check check;
  const std::optional<nlohmann::json> found = read_status(options.status_file);
  if (!found) {
    check.state = State::critical;
    check.summary = "no status from ibpm-events in " + options.status_file +
                    ": the listener is not running (ibpm-events.service), links that go down "
                    "wait for the next sweep";
    return check;
  }
  const nlohmann::json& status = *found;
  const double now = epoch_now();
  const auto number = [&](const char* key) { return status.value(key, 0.0); };
  const long pid = status.value("pid", 0L);
  if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) {
    check.state = State::critical;
    check.summary = "ibpm-events (pid " + std::to_string(pid) +
                    ") is not running: traps reach no one, links that go down wait for the "
                    "next sweep";
    return check;
  }
  const double heartbeat = number("heartbeat_s");
  const double stale = options.stale ? options.stale : 3 * (heartbeat > 0 ? heartbeat : 30);
  const double heard = number("last_heard");
  const double age = heard > 0 ? now - heard : now - number("started");
  std::vector<std::string> problems;
  const bool sa = status.contains("sa") && status["sa"].is_object();
  if (sa) {
    judge_sa(status["sa"], now, check, problems);
    if (heard > 0 && age > stale) {  // a plugin beside the SA: the SA still brings the traps
      problems.push_back("not heard from the OpenSM plugin for " + seconds(age) +
                         " (the SA still brings the traps)");
      check.subchecks.push_back(Subcheck{State::warning, problems.back(), {}, {}});
    }
  } else if (heard <= 0 && age > stale) {
    check.state = State::critical;
    problems.push_back("never heard from the OpenSM plugin since the listener started " +
                       seconds(age) +
                       " ago: is event_plugin_name ibpm_event_plugin in "
                       "opensm.conf, and OpenSM running?");
  } else if (age > stale) {
    check.state = State::critical;
    problems.push_back("not heard from the OpenSM plugin for " + seconds(age) +
                       " (a heartbeat every " + seconds(heartbeat) +
                       "): OpenSM stopped, or the plugin cannot reach " +
                       status.value("socket", std::string("the socket")));
  }
  const double last_drop = number("last_drop");
  if (last_drop > 0 && now - last_drop < options.drop_window) {
    problems.push_back("traps lost " + seconds(now - last_drop) + " ago (" +
                       std::to_string(status.value("plugin_dropped", 0)) + " by the plugin, " +
                       std::to_string(status.value("dropped", 0)) +
                       " past the re-poll budget): the next sweep is the backstop");
    check.subchecks.push_back(Subcheck{State::warning, problems.back(), {}, {}});
  }
  if (status.value("last_repoll_exit", -1) == 3)
    check.subchecks.push_back(Subcheck{
        State::warning, "the last re-poll could not judge its switches (UNKNOWN)", {}, {}});
  if (check.state == State::critical) {
    check.summary = problems.front();
  } else {
    std::ostringstream summary;
    summary << "listening: ";
    if (sa)
      summary << "subscribed at the SA (SM LID " << status["sa"].value("sm_lid", 0)
              << "), confirmed " << seconds(now - status["sa"].value("last_confirmed", 0.0))
              << " ago, "
              << (heard > 0 ? "the OpenSM plugin heard " + seconds(age) + " ago, " : "");
    else
      summary << "the OpenSM plugin heard " << seconds(age) << " ago, ";
    summary << status.value("traps", 0) << " traps, " << status.value("repolls", 0) << " re-polls";
    check.summary = summary.str();
  }
  check.perfdata = {Perfdata{"heard_age", age, "s", {}, {}, 0, {}},
                    Perfdata{"traps", number("traps"), "c", {}, {}, 0, {}},
                    Perfdata{"repolls", number("repolls"), "c", {}, {}, 0, {}},
                    Perfdata{"dropped", number("dropped"), "c", {}, {}, 0, {}},
                    Perfdata{"plugin_dropped", number("plugin_dropped"), "c", {}, {}, 0, {}}};
  if (sa) {
    const nlohmann::json& s = status["sa"];
    const double confirmed = s.value("last_confirmed", 0.0);
    check.perfdata.push_back(
        Perfdata{"sa_confirmed_age", confirmed > 0 ? now - confirmed : 0, "s", {}, {}, 0, {}});
    check.perfdata.push_back(Perfdata{"sa_reports", s.value("reports", 0.0), "c", {}, {}, 0, {}});
  }
  return check;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return ibpm::plugin::run_plugin(
      argc, argv,
      {.name = "check_ib_events",
       .prefix = "IB EVENTS",
       .description =
           "Whether the subnet manager's traps can reach ibpm, from the status file ibpm-events "
           "keeps: CRITICAL when the listener is not running or has no status, or has not heard "
           "the OpenSM plugin (its heartbeat, every 30 s, or a trap) for --stale seconds, or, "
           "when it subscribes at the SA (ibpm-events --sa), is not subscribed or has not "
           "confirmed the subscription for three of its checks; "
           "WARNING when traps were lost by the plugin or dropped past the re-poll budget "
           "within --drop-window, or the last re-poll was UNKNOWN. Run it on the host of "
           "ibpm-events.",
       .add_options =
           [&](CLI::App& app) {
             ibpm::plugin::add_option(app, "--status-file", options.status_file,
                                      "ibpm-events' status file (its --status-file)")
                 .show_default();
             ibpm::plugin::add_option(app, "--stale", options.stale,
                                      "Seconds without a word from the plugin before CRITICAL "
                                      "(0: three of its heartbeat intervals, 90 s)")
                 .show_default()
                 .in_range(0u, 86400u);
             ibpm::plugin::add_option(app, "--drop-window", options.drop_window,
                                      "Seconds a lost or dropped trap keeps the check WARNING")
                 .show_default()
                 .in_range(0u, 7u * 86400u);
           },
       .body = [&](const ibpm::plugin::CommonOptions&) { return run(options); },
       .summary = "Whether the subnet manager's traps reach ibpm: the listener, the OpenSM "
                  "plugin or the SA subscription.",
       .icinga2_host_defaults = {}});
}
