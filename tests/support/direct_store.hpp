// SPDX-License-Identifier: MIT
// Store options that write the RRD files directly under a test's folder, whatever the
// environment says about rrdcached.
#pragma once

#include <cstdlib>

#include "state/port_store.hpp"
#include "support/temp_dir.hpp"

namespace ibpm::state::test {

inline StoreOptions direct_options(const ibpm::test::TempDir& dir) {
  ::unsetenv("RRDCACHED_ADDRESS");
  return StoreOptions{(dir.path() / "state").string(), "", RrdLayout{}};
}

}  // namespace ibpm::state::test
