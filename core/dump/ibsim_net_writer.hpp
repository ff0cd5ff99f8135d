// SPDX-License-Identifier: MIT
// Writes a Fabric as an ibsim net file, so a real topology can be simulated:
//   Switch 36 "name"   # "description"
//   [1] "peer"[3]      # "peer" lid 0 4xHDR
// ibsim takes each port's width and speed from such an ibnetdiscover-style trailer (it enables
// that width and all speeds up to that one; the link trains to what both ends enable).
//
// Notes on ibsim's limits:
//  - node ids are unique strings of at most 64 bytes (see ibsim_names.hpp); the real description
//    follows '#' (ibsim keeps 63 bytes of it as the NodeDescription);
//  - routers are written as switches, with a comment (ibsim models switches and HCAs; it accepts
//    "Rt" records but reads no width or speed for them);
//  - ports per node are 1..255: a node is written with max(port count, highest cabled port);
//  - ibsim reads lines of up to 255 bytes, which ids and descriptions of 64 bytes keep to;
//  - ibsim's default tables hold 2048 nodes, 256 switches and 13312 ports; the header comment
//    gives the -N/-S/-P options a larger fabric needs;
//  - vendid=/devid= are written per node (ibsim reports them; FDR10 only shows on Mellanox
//    vendor ids); see speed_cap for speeds ibsim does not know;
//  - LIDs are left to the SM (written as 0); GUIDs are ibsim's own unless keep_guids is set.
#pragma once

#include <optional>
#include <ostream>

#include "fabric/fabric.hpp"

namespace ibpm::dump {

struct IbsimNetOptions {
  // The node written first, where ibsim attaches the SM and clients by default. When unset: the
  // first CA (in Fabric::nodes() order) with a cabled port, else the first node written.
  std::optional<Guid> first_node = std::nullopt;
  // Write switchguid=/caguid=/sysimgguid= lines so simulated node GUIDs equal the model's. ibsim
  // derives a CA's port GUIDs as node GUID + port number, which may differ from the real ones or
  // collide with another node's GUIDs; hence off by default.
  bool keep_guids = false;
  // Faster speeds are written as this one. ibsim 0.10 (Debian 12) knows speeds up to HDR: NDR
  // and XDR trailers make it warn and fall back to SDR unless capped, e.g. at LinkSpeed::hdr.
  std::optional<LinkSpeed> speed_cap = std::nullopt;
};

// Throws std::invalid_argument if options.first_node is not a node of the fabric.
void write_ibsim_net(std::ostream& out, const Fabric& fabric, const IbsimNetOptions& options = {});

}  // namespace ibpm::dump
