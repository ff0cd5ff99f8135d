// SPDX-License-Identifier: MIT
// Where the per-port state lives and how it is written (state/port_store.hpp): for the options
// that carry it without the store itself.
#pragma once

#include <string>

#include "state/rrd_layout.hpp"

namespace ibpm::state {

struct StoreOptions {
  std::string state_dir;
  // rrdcached address ("unix:/path" or host[:port]); empty: RRDCACHED_ADDRESS when set, else the
  // files are written directly. A unix socket: the daemon sees state_dir under the same path. A
  // TCP address: a central store, files named relative to the daemon's base directory.
  std::string rrdcached;
  RrdLayout layout;
};

}  // namespace ibpm::state
