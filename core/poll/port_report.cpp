// SPDX-License-Identifier: MIT

#include "poll/port_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/number.hpp"
#include "thresholds/metrics.hpp"
#include "thresholds/rate_range.hpp"

namespace ibpm::poll {

namespace {

using plugin::Perfdata;
using plugin::State;
using plugin::Subcheck;

std::string percent(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", value);
  return text;
}

std::string link_text(const LinkState& live) {
  if (live.state != PortState::active) return "port " + std::string(to_string(live.state));
  std::string text;
  if (live.width) text += to_string(*live.width);
  if (live.speed) text += " " + std::string(to_string(*live.speed));
  return text.empty() ? "active" : text;
}

// Below what the topology saw when it was cached, or below the best the port enables.
std::string degradation(const PortTarget& target, const LinkState& live) {
  if (live.state != PortState::active) return "";
  auto below = [](auto live_value, auto reference) {
    return live_value && reference && static_cast<int>(*live_value) < static_cast<int>(*reference);
  };
  std::optional<LinkWidth> best_width;
  if (!live.widths_enabled.empty()) best_width = live.widths_enabled.max();
  std::optional<LinkWidth> expected_width = target.width;
  if (below(expected_width, best_width) || !expected_width) expected_width = best_width;
  const bool width = below(live.width, expected_width);
  const bool speed = below(live.speed, target.speed);
  if (!width && !speed) return "";
  std::string expected;
  if (expected_width) expected += to_string(*expected_width);
  if (target.speed) expected += " " + std::string(to_string(*target.speed));
  return "link degraded: " + link_text(live) + ", expected " + expected;
}

// "3600", "0.25": whole seconds from 10 s on.
std::string seconds_ahead(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, seconds >= 10 ? "%.0f" : "%.3g", seconds);
  return text;
}

// How a metric's value is written when it alerts.
enum class Shown { rate, percent };

// The value is formatted only when the metric alerts: a sweep judges every metric of every port.
void add_metric(Subcheck& port, State& worst, const thresholds::RateThresholds& thresholds,
                std::size_t metric, double value, Shown shown, bool bound) {
  const State state = thresholds.evaluate(metric, value);
  if (state == State::ok) return;
  worst = plugin::worst(worst, state);
  const std::string text = shown == Shown::rate ? format_rate(value) : percent(value);
  const std::string_view name = thresholds::threshold_metrics()[metric].name;
  port.children.push_back(Subcheck{state,
                                   std::string(name) + " " + (bound ? ">= " : "") + text + " (" +
                                       thresholds.describe(metric) + ")",
                                   {},
                                   {}});
}

// Each BER window judged on the ratio's lower confidence bound; windows that saw errors (all of
// them, for a port or node check) named in the long output, as are windows not covered yet.
void add_ber(Subcheck& port, State& worst, const PortResult& result,
             const ReportSettings& settings) {
  // A port without errors in its history (nearly every port of a sweep) has nothing to judge or
  // say: its ratios and their bounds are 0.
  if (result.errors.intervals.empty() && !settings.ber_coverage_notes) return;
  const thresholds::RateThresholds& thresholds = *settings.thresholds;
  for (const link_quality::BerWindow& w : port_ber(result, settings.ber)) {
    const std::string metric = link_quality::ber_metric(w.counter);
    if (!w.judged()) {
      if (settings.ber_coverage_notes || w.ber.errors > 0)
        port.children.push_back(Subcheck{State::ok, link_quality::describe_coverage(w), {}, {}});
      continue;
    }
    const State state = thresholds.evaluate(metric, w.ber.lower);
    if (state == State::ok && !(settings.ber_coverage_notes && w.ber.errors > 0)) continue;
    worst = plugin::worst(worst, state);
    port.children.push_back(Subcheck{state,
                                     link_quality::describe(w, settings.ber.confidence) + " (" +
                                         thresholds.describe(metric) + ", on the lower bound)",
                                     {},
                                     {}});
  }
}

// "symbol_ber_12m": minutes when the window is whole minutes, else seconds.
std::string ber_label(const link_quality::BerWindow& w) {
  const long seconds = std::lround(w.window);
  return link_quality::ber_metric(w.counter) + "_" +
         (seconds % 60 == 0 ? std::to_string(seconds / 60) + "m" : std::to_string(seconds) + "s");
}

}  // namespace

bool link_degraded(const PortTarget& target, const LinkState& live) {
  return !degradation(target, live).empty();
}

std::optional<Subcheck> flap_subcheck(const PortResult& near, const PortResult* far,
                                      const link_quality::FlapSettings& settings) {
  if (!near.sample.answered) return std::nullopt;
  // No down kept at either end (nearly every cable of a sweep): nothing to count.
  if (near.errors.intervals.empty() && (!far || far->errors.intervals.empty())) return std::nullopt;
  // The far node went away (powered off, or rebooted: its counters start again from zero).
  if (far && (!far->sample.answered || far->rates.reset_seen)) return std::nullopt;
  // Judged at the later of the two samples: the far end, read a moment after this one in the same
  // run, may have seen a down that this run must count already.
  const double now = far ? std::max(near.record->time, far->record->time) : near.record->time;
  const link_quality::FlapStatus status =
      link_quality::flap_status(near.errors, far ? &far->errors : nullptr, now, settings);
  if (!status.flapping) return std::nullopt;
  const bool between_switches =
      near.target->type == NodeType::sw && near.target->remote_type == NodeType::sw;
  const State state = between_switches ? settings.between_switches : settings.to_host;
  std::string text = link_quality::describe(status, settings);
  const auto& live = near.sample.live;
  const std::string degraded = live ? degradation(*near.target, *live) : "";
  if (live && live->state != PortState::active)
    text += "; down now";
  else if (!degraded.empty())
    text += "; came back below its rate (" + degraded + ")";
  else
    text += "; both ends up now";
  return Subcheck{state, text, {}, {}};
}

std::vector<link_quality::BerWindow> port_ber(const PortResult& result,
                                              const link_quality::BerSettings& ber) {
  const PortSample& sample = result.sample;
  if (!sample.answered || !sample.live || sample.live->state != PortState::active) return {};
  return link_quality::ber_windows(result.errors, result.record->time, sample.live->width,
                                   sample.live->speed, ber);
}

double reported_rate(counters::Counter counter, double per_second) {
  return spec(counter).data_words ? static_cast<double>(counters::to_octets(1)) * per_second
                                  : per_second;
}

std::string format_rate(double per_second) {
  if (per_second == 0) return "0/s";
  struct Unit {
    double factor;
    const char* suffix;
  };
  const Unit units[] = {{1, "/s"}, {60, "/min"}, {3600, "/h"}};
  for (const Unit& u : units) {
    const double value = per_second * u.factor;
    if (value >= 1 || u.factor == 3600) {
      char text[48];
      std::snprintf(text, sizeof text, value >= 100 ? "%.0f%s" : "%.3g%s", value, u.suffix);
      return text;
    }
  }
  return "0/s";  // not reached: the last unit always formats
}

std::string cable_name(const PortTarget& target) {
  return target.remote_name.empty() ? target.name : target.name + " <-> " + target.remote_name;
}

PortReason port_reason(const Subcheck& check, State state, const std::string& cable) {
  PortReason reason;
  for (const Subcheck& child : check.children)
    if (child.state && *child.state == state)
      reason.text += (reason.text.empty() ? "" : ", ") + child.output;
  reason.from_children = !reason.text.empty();
  if (!reason.from_children)
    reason.text = check.output.size() > cable.size() + 2 ? check.output.substr(cable.size() + 2)
                                                         : check.output;
  return reason;
}

namespace {

// "leaf01[3] <-> spine02[1]: 4x HDR, xmit 12.0 %, rcv 3.1 %": the port's line as check_ib_port
// and check_ib_node show it.
std::string port_line(const PortResult& result) {
  std::string line = cable_name(*result.target) + ": ";
  line += result.sample.live ? link_text(*result.sample.live) : "link state unknown";
  const PortRates& rates = result.rates;
  if (result.carried) {
    line += ", counters not read: link unchanged since the last read, reported OK then";
  } else if (rates.baseline) {
    if (result.clock_back > 0)
      line += ", clock stepped back: previous sample " + seconds_ahead(result.clock_back) +
              " s ahead, new baseline";
    else
      line += ", collecting baseline (first sample)";
  } else {
    if (rates.xmit_util_pct) line += ", xmit " + percent(*rates.xmit_util_pct);
    if (rates.rcv_util_pct) line += ", rcv " + percent(*rates.rcv_util_pct);
    if (rates.xmit_wait_pct) line += ", xmit wait " + percent(*rates.xmit_wait_pct);
  }
  return line;
}

// What is worth knowing of a port whatever its state: counters at their maximum, reset by
// someone else, or cleared by ibpm.
void add_counter_notes(Subcheck& port, const PortResult& result) {
  const PortRates& rates = result.rates;
  if (!rates.baseline) {
    if (rates.saturated)
      port.children.push_back(Subcheck{State::ok,
                                       "saturated counters (rates are lower bounds): " +
                                           counters::describe_counters(rates.saturated),
                                       {},
                                       {}});
    if (rates.reset_seen)
      port.children.push_back(Subcheck{State::ok,
                                       "reset by someone else since the last run "
                                       "(counted from zero): " +
                                           counters::describe_counters(rates.reset_seen),
                                       {},
                                       {}});
  }
  if (result.cleared)
    port.children.push_back(Subcheck{State::ok,
                                     "cleared by this run (close to their maximum): " +
                                         counters::describe_counters(result.cleared),
                                     {},
                                     {}});
  else if (result.record->last_reset)
    port.children.push_back(
        Subcheck{State::ok,
                 "last cleared by ibpm at " +
                     base::format_utc(*result.record->last_reset, "%Y-%m-%dT%H:%M:%SZ") + ": " +
                     counters::describe_counters(result.record->reset_mask),
                 {},
                 {}});
}

}  // namespace

Subcheck port_subcheck(const PortResult& result, const ReportSettings& settings) {
  Subcheck port;
  const PortSample& sample = result.sample;
  if (result.state_failed()) {
    port.state = State::unknown;
    port.output = cable_name(*result.target) + ": state file: " + result.state_error;
    return port;
  }
  if (sample.cut) {
    port.state = State::unknown;
    port.output = cable_name(*result.target) + ": not read: the run's time (-t) ran out first (" +
                  sample.error + ")";
    return port;
  }
  if (!sample.answered) {
    port.state = State::unknown;
    port.output = cable_name(*result.target) + ": unreachable at LID " +
                  std::to_string(result.target->lid) + " (" + sample.error + ")";
    return port;
  }
  State worst = State::ok;
  if (sample.live) {
    if (sample.live->state != PortState::active) {
      // Named first: it is what makes the port CRITICAL, whatever its counters say meanwhile.
      worst = settings.port_down;
      port.children.push_back(Subcheck{
          settings.port_down, "link " + std::string(to_string(sample.live->state)), {}, {}});
    }
    if (const std::string degraded = degradation(*result.target, *sample.live); !degraded.empty()) {
      worst = plugin::worst(worst, settings.degraded);
      port.children.push_back(Subcheck{settings.degraded, degraded, {}, {}});
    }
  }

  const PortRates& rates = result.rates;
  if (result.carried) {
    // Its error rates as the last run that read its counters reported them: OK.
  } else if (rates.baseline) {
    worst = plugin::worst(worst, settings.first_run);
  } else {
    const thresholds::RateThresholds& thresholds = *settings.thresholds;
    for (const counters::CounterSpec& s : counters::counter_specs()) {
      const auto r = rates.of(s.id);
      if (!r) continue;
      const double value = reported_rate(s.id, r->per_second);
      add_metric(port, worst, thresholds, thresholds::metric_index(s.id), value, Shown::rate,
                 r->lower_bound);
    }
    if (rates.xmit_util_pct)
      add_metric(port, worst, thresholds, thresholds::kXmitUtilIndex, *rates.xmit_util_pct,
                 Shown::percent, false);
    if (rates.rcv_util_pct)
      add_metric(port, worst, thresholds, thresholds::kRcvUtilIndex, *rates.rcv_util_pct,
                 Shown::percent, false);
    if (rates.xmit_wait_pct)
      add_metric(port, worst, thresholds, thresholds::kXmitWaitPctIndex, *rates.xmit_wait_pct,
                 Shown::percent, false);
    add_ber(port, worst, result, settings);
    if (settings.flap_per_port)
      if (auto flap = flap_subcheck(result, nullptr, settings.flap)) {
        worst = plugin::worst(worst, flap->state.value_or(State::ok));
        port.children.push_back(std::move(*flap));
      }
  }
  port.state = worst;
  // Every child that alerts raised `worst`: an OK port here has nothing to show.
  if (worst == State::ok && !settings.describe_ok_ports) return port;
  add_counter_notes(port, result);
  port.output = port_line(result);
  return port;
}

std::vector<Perfdata> port_perfdata(const PortResult& result,
                                    const thresholds::RateThresholds& thresholds,
                                    const std::string& prefix,
                                    const link_quality::BerSettings& ber) {
  std::vector<Perfdata> items;
  const PortRates& rates = result.rates;
  if (!result.sample.answered || rates.baseline) return items;
  auto item = [&](std::string_view metric, double value, std::string uom, std::optional<double> max,
                  bool rate) {
    Perfdata p{prefix + std::string(metric), value, std::move(uom), {}, {}, 0.0, max};
    if (const auto* t = thresholds.find(metric)) {
      auto convert = [rate](const thresholds::RateRange& r) {
        return rate ? to_per_second(r) : r.range;
      };
      if (t->warning) p.warn = convert(*t->warning);
      if (t->critical) p.crit = convert(*t->critical);
    }
    items.push_back(std::move(p));
  };
  for (const counters::CounterSpec& s : counters::counter_specs())
    if (const auto r = rates.of(s.id))
      item(s.key, reported_rate(s.id, r->per_second), "", {}, true);
  if (rates.xmit_util_pct) item("xmit_util", *rates.xmit_util_pct, "%", 100.0, false);
  if (rates.rcv_util_pct) item("rcv_util", *rates.rcv_util_pct, "%", 100.0, false);
  if (rates.xmit_wait_pct) item("xmit_wait_pct", *rates.xmit_wait_pct, "%", 100.0, false);
  for (const link_quality::BerWindow& w : port_ber(result, ber)) {
    if (!w.judged()) continue;
    item(link_quality::ber_metric(w.counter), w.ber.ratio, "", {}, false);
    items.back().label = prefix + ber_label(w);
  }
  return items;
}

}  // namespace ibpm::poll
