// SPDX-License-Identifier: MIT
// Where a port the SA says came into or went out of service (traps 64/65: its GID, whose
// interface ID is the port GUID) is cabled, from the topology the sweep saved: the LID of the
// switch that holds the port or sits at the far end of its cable, so that the listener re-polls
// that switch and its result says at once that the link came up or went down. The file is read
// again when it changes (the sweep rediscovers the fabric). A GUID it does not hold is a port the
// last discovery did not see: the caller says so; the next discovery adds it.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>

#include "fabric/types.hpp"

namespace ibpm::events {

class PortLocator {
 public:
  // `topology`: an ibnetdiscover dump or cache (STATE_DIR/topology.ibnetdiscover).
  explicit PortLocator(std::string topology) : path_(std::move(topology)) {}

  // The switch LID for port GUID `port_guid`; nullopt when the topology cannot be read (why in
  // problem()), does not hold that port, or the port's cable leads to no switch with a LID.
  std::optional<unsigned> switch_lid(Guid port_guid);

  // Why the topology could not be read the last time it was tried, empty when it could.
  const std::string& problem() const { return problem_; }
  const std::string& path() const { return path_; }

 private:
  void reload_if_changed();

  std::string path_;
  std::optional<std::filesystem::file_time_type> loaded_;
  std::unordered_map<Guid, unsigned> switch_of_port_;  // port GUID -> switch LID
  std::string problem_;
};

}  // namespace ibpm::events
