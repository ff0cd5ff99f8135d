// SPDX-License-Identifier: MIT

#include "poll/discovery_tap.hpp"

#include <stdexcept>

#include "poll/poll_options.hpp"

namespace ibpm::poll {

mad::MadTap discovery_tap(const plugin::FabricOptions& options) {
  if (!options.cache.empty() && (!options.record.empty() || !options.replay.empty()))
    throw std::invalid_argument(
        "--record and --replay record and replay a discovery: not with --cache");
  return mad::MadTap(options.record, options.replay, record_rotation(options));
}

}  // namespace ibpm::poll
