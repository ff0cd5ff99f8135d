// SPDX-License-Identifier: MIT

#include "state/store_check.hpp"

#include <algorithm>
#include <cmath>

namespace ibpm::state {

void StoreLoss::add(std::optional<std::time_t> last, std::time_t recorded) {
  if (last && *last >= recorded) return;  // ahead: another collector's sample, not a loss
  ++ports;
  if (!last)
    ++missing;
  else
    longest = std::max(longest, recorded - *last);
}

std::string StoreLoss::describe() const {
  std::string text = "the store lost samples it had taken for " + std::to_string(ports) +
                     (ports == 1 ? " port" : " ports");
  if (longest > 0) text += " (up to " + std::to_string(longest) + " s of history)";
  if (missing > 0) text += ", " + std::to_string(missing) + " of them with the whole file";
  return text +
         ": their history has a hole there (its daemon killed before its journal reached the "
         "disk? see docs/operators.md); rates go on from the sample it kept";
}

std::vector<StoreDifference> judge_against_store(
    const PortStore& store, const std::vector<PortRef>& ports, const std::vector<double>& recorded,
    const std::vector<std::optional<std::time_t>>& last, double now, StoreLoss& loss) {
  std::vector<StoreDifference> differences;
  const double ahead = now + kClockToleranceSeconds;
  const std::time_t step = store.layout().step.count();
  for (std::size_t i = 0; i < last.size() && i < ports.size(); ++i) {
    // rrdcached's LAST answers the last update rounded down to the file's step.
    const auto sample = static_cast<std::time_t>(std::floor(recorded[i]));
    const std::time_t rounded = sample - sample % step;
    if (last[i] && *last[i] == rounded) continue;
    loss.add(last[i], rounded);
    StoreDifference difference;
    difference.index = i;
    difference.last = last[i];
    difference.updated_since = last[i] && *last[i] > rounded;
    if (last[i] && static_cast<double>(*last[i]) > ahead)
      difference.ahead_of_clock = ahead_of_clock(store.rrd_name(ports[i].node, ports[i].port),
                                                 static_cast<double>(*last[i]), now);
    differences.push_back(std::move(difference));
  }
  return differences;
}

}  // namespace ibpm::state
