// SPDX-License-Identifier: MIT
// ibsim net files: writing one from a NetTopology, and sizing one against ibsim's limits.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dump/ibsim_net_syntax.hpp"
#include "sim/net_topology.hpp"

namespace ibpm::sim {

// Net file text. Nodes come in topology order: ibsim attaches the SM and every client to the
// first node, so it should be a CA. Every cabled port gets a line with an ibnetdiscover-style
// trailer, `[1]	"leaf01"[3]	# "leaf01" lid 0 4xHDR`, which ibsim reads as that port's
// enabled width and speed (without it every link comes up 4x SDR). `comment` lines go on top as "#
// ...". Throws std::invalid_argument for a speed ibsim does not know (XDR).
std::string to_ibsim_net(const NetTopology& topology, std::string_view comment = {});

using NetSize = dump::IbsimNetSize;

// Counts the node header lines ("Switch 36 ...", "Hca 1 ...", "Ca 2 ...") of a net file.
NetSize measure_net(std::string_view text);
NetSize measure_net(const NetTopology& topology);

// The -N / -S / -P arguments a fabric of this size needs; empty when the defaults suffice.
std::vector<std::string> ibsim_capacity_args(const NetSize& size);

}  // namespace ibpm::sim
