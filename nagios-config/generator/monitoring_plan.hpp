// SPDX-License-Identifier: MIT
// What the configuration holds, whatever its format: one host per switch (and per host CA when
// asked), its parents one level closer to the core, its host groups, and the satellite zone
// that polls it. Everything is ordered by object name so that a new run after a topology change
// changes only what changed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/node_name_map.hpp"

namespace ibpm::nagios_config {

struct ZoneOptions {
  unsigned count = 0;  // 0: no zones (one master polls everything)
  std::string zone_prefix = "ib-zone-";
  std::string endpoint_prefix = "ib-satellite-";
  unsigned endpoints = 1;       // per zone: 1 (PREFIXK) or 2 (PREFIXKa, PREFIXKb: HA)
  std::string delegation_file;  // as check_ib_fabric --delegation
  bool nearest = false;         // as check_ib_fabric --assign nearest
};

struct PlanOptions {
  bool cas = false;  // a host per host CA (not aggregation nodes)
  std::string fabric_host = "ib-fabric";
  ZoneOptions zones;
};

struct PlannedHost {
  Guid guid = 0;
  bool is_switch = false;
  std::string name;                  // object name: safe and unique
  std::string display;               // the node's display name, untrusted text
  std::string description;           // its NodeDescription, untrusted text
  std::string level;                 // "leaf", "spine", ... (empty: no level)
  std::vector<std::string> parents;  // object names, sorted
  std::vector<std::string> groups;   // host group names, sorted
  unsigned zone = 0;                 // 1..N, 0: the master
};

struct PlannedGroup {
  std::string name;
  std::string alias;  // untrusted text (a leaf's display name)
};

struct PlannedZone {
  unsigned index = 0;  // K of --shard K/N
  std::string zone;
  std::vector<std::string> endpoints;  // one, or two that share the zone's checks (HA)
  std::string shard_host;              // the host that carries the zone's check_ib_fabric shard
  std::size_t ports = 0;               // ports its check_ib_fabric shard polls
};

struct MonitoringPlan {
  std::string fabric_host;
  std::vector<PlannedHost> hosts;    // by name
  std::vector<PlannedGroup> groups;  // by name
  std::vector<PlannedZone> zones;    // by index
  std::size_t switches = 0, cas = 0;
};

// Names the generated templates take: no host may be called so.
bool is_reserved_name(const std::string& name);

// Throws std::runtime_error with a one-line reason (a bad delegation file, zones for a fabric
// with fewer ports than zones, ...).
MonitoringPlan plan_monitoring(const Fabric& fabric, const NodeNameMap* names,
                               const PlanOptions& options);

}  // namespace ibpm::nagios_config
