// SPDX-License-Identifier: MIT
// A store that fails is one event when it starts failing and one when it answers again, not one
// per port (the ports keep their own states: poll/store_trouble.hpp). What is remembered in
// between is STATE_DIR/samples/SCOPE.store-failed, there only while the store fails: since when,
// and why.
#pragma once

#include <optional>
#include <string>

#include "plugin/state.hpp"
#include "poll/store_trouble.hpp"

namespace ibpm::products {

struct StoreEvent {
  plugin::State state = plugin::State::ok;
  std::string message;
};

// The event this run's store gives against what `path` remembers, and `path` updated: made when
// the store starts failing (its failure set), removed when it answers again. Nothing else changes
// it, so a store that keeps failing logs nothing more. Throws std::runtime_error naming the file
// when it cannot be written or removed.
std::optional<StoreEvent> store_change(const std::string& path, const poll::StoreTrouble& store,
                                       double now);

}  // namespace ibpm::products
