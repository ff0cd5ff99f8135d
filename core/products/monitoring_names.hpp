// SPDX-License-Identifier: MIT
// The names the monitoring configuration gives the fabric's nodes (ibpm-nagios-config writes a
// host per switch, and per host CA when asked), so that a sweep submitting passive results names
// the same hosts. Node descriptions are untrusted: a name is made safe first.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "fabric/fabric.hpp"
#include "fabric/node_name_map.hpp"

namespace ibpm::products {

// A name for a host or group object, valid in Nagios 4 and Icinga 2: whitespace becomes '_';
// removed are the characters Nagios forbids in object names by default (`~!$%^&*|'"<>?,()=),
// ';' (starts a Nagios comment), '#' and '\', and everything that is not printable ASCII.
// May be empty.
std::string object_name(std::string_view text);

// Names the generated templates take: no host may be called so.
bool is_reserved_name(const std::string& name);

// Whether the configuration has a host for the node: every switch; a host CA (not an
// aggregation node) when `cas`.
bool has_host(const Node& node, bool cas);

// The host object name of every node that has one: the display name made safe; names that
// collide (with each other, with the fabric host or with a template) get the GUID appended, and
// a number after that when even that is taken, so a name never depends on which node happens to
// come first and always resolves.
std::map<Guid, std::string> host_names(const Fabric& fabric, const NodeNameMap* names, bool cas,
                                       const std::string& fabric_host);

}  // namespace ibpm::products
