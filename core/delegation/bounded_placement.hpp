// SPDX-License-Identifier: MIT
// Rendezvous hashing with bounded loads ("Consistent Hashing with Bounded Loads", Mirrokni,
// Thorup, Zadimoghaddam 2018): each unit goes to the shard it ranks highest among those where it
// still fits under a cap a little above the fair share, so the split is even without a central
// plan and a change in the fabric moves few units.
#pragma once

#include <cstddef>
#include <vector>

#include "delegation/assignment_units.hpp"

namespace ibpm::delegation {

// The paper's epsilon, 0.1: no shard takes more than 110% of its fair share of ports while a
// unit fits elsewhere. Smaller evens the loads but moves more units on every change. In percent
// so the cap is integer arithmetic, exactly the same on every host.
inline constexpr std::size_t load_slack_percent = 10;

// ceil((1 + epsilon) * ports / count): the most ports a shard takes, unless a unit fits
// nowhere below it (a pin, a node too heavy for the slack, a nearest collector's own nodes).
std::size_t load_cap(std::size_t ports, unsigned count);

// The shard (1..count) of every unit. A pinned unit goes to its pin. Every other unit u goes to
// one of choices[u] (an empty list: any shard): straight there when there is only one, else to
// its highest-ranked choice with room under the cap. Units are placed heaviest size class first,
// each class under a cap computed from the ports placed by its end, so the light units placed
// last even out what the heavy ones leave (details in the .cpp).
std::vector<unsigned> place_units(const std::vector<Unit>& units,
                                  const std::vector<std::vector<unsigned>>& choices,
                                  unsigned count);

}  // namespace ibpm::delegation
