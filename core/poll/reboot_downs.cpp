// SPDX-License-Identifier: MIT

#include "poll/reboot_downs.hpp"

#include <cstdint>
#include <unordered_map>

namespace ibpm::poll {

namespace {

std::uint64_t key(PortRef ref) { return ref.node * 257 + ref.port; }

// The far end went away or came back from zero in this run.
bool rebooted(const PortResult& end) { return !end.sample.answered || end.rates.reset_seen != 0; }

}  // namespace

void forget_reboot_downs(std::vector<PortResult>& results) {
  std::unordered_map<std::uint64_t, std::size_t> index;
  index.reserve(results.size());
  for (std::size_t i = 0; i < results.size(); ++i)
    index.emplace(key({results[i].target.node, results[i].target.port}), i);
  for (PortResult& near : results) {
    if (!near.sample.answered || near.errors.intervals.empty()) continue;
    bool reboot = near.rates.reset_seen != 0;
    if (!reboot && near.target.remote)
      if (const auto far = index.find(key(*near.target.remote)); far != index.end())
        reboot = rebooted(results[far->second]);
    if (reboot) state::forget_downs(near.errors, near.record.time);
  }
}

}  // namespace ibpm::poll
