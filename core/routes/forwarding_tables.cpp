// SPDX-License-Identifier: MIT

#include "routes/forwarding_tables.hpp"

namespace ibpm::routes {

const SwitchTable* ForwardingTables::find(Guid node) const {
  const auto it = switches.find(node);
  return it == switches.end() ? nullptr : &it->second;
}

}  // namespace ibpm::routes
