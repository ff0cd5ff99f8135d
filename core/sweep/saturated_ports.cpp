// SPDX-License-Identifier: MIT

#include "sweep/saturated_ports.hpp"

#include "base/number.hpp"
#include "poll/port_report.hpp"

namespace ibpm::sweep {

namespace {

// What a PortXmitWait at its maximum still says: the share its last change covers, a lower
// bound of the time the port waited (nothing when it was full before this interval).
std::string xmit_wait_text(const poll::PortResult& result) {
  const poll::PortRates& rates = result.rates;
  const auto wait = counters::counter_bit(counters::Counter::xmit_wait);
  std::string text = "; xmit_wait at its maximum: ";
  const std::string interval = base::format_fixed(rates.interval, 0) + " s";
  if (rates.baseline)
    text += "the port waited, how long is not counted (no earlier sample)";
  else if (rates.xmit_wait_pct && *rates.xmit_wait_pct > 0)
    text += "waited at least " + base::format_fixed(*rates.xmit_wait_pct, 1) + " % of the last " +
            interval + " (its last change)";
  else
    text += "full before the last " + interval + ", its waiting since not counted";
  if (result.cleared & wait) return text + "; cleared by this run, counted again from now";
  return text + "; counted again once cleared (--reset-counters)";
}

}  // namespace

std::string saturated_port_line(const poll::PortResult& result) {
  const counters::CounterMask saturated = result.rates.saturated;
  std::string line =
      poll::cable_name(*result.target) +
      ": saturated counters (rates are lower bounds): " + counters::describe_counters(saturated);
  if (saturated & counters::counter_bit(counters::Counter::xmit_wait))
    line += xmit_wait_text(result);
  return line;
}

void add_saturated_lines(plugin::Check& check, const std::vector<PortVerdict>& verdicts,
                         std::size_t worst) {
  std::size_t named = 0, more = 0;
  for (const PortVerdict& v : verdicts) {
    const poll::PortResult& r = *v.result;
    // A port not OK says it in its own line.
    if (v.state != plugin::State::ok || !r.sample.answered || r.sample.cut || !r.rates.saturated)
      continue;
    if (named < worst) {
      check.subchecks.push_back({plugin::State::ok, saturated_port_line(r), {}, {}});
      ++named;
    } else {
      ++more;
    }
  }
  if (more > 0)
    check.subchecks.push_back(
        {plugin::State::ok,
         std::to_string(more) + " more ports with saturated counters (--worst N shows more)",
         {},
         {}});
}

}  // namespace ibpm::sweep
