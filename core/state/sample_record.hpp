// SPDX-License-Identifier: MIT
// What a polling run keeps for the next run of the same scope (the whole fabric, one shard, one
// node, one port), beside the RRD files: per port, the last sample exactly as written to the
// port's RRD, the PortInfo last read and how many runs ago, and the state last reported. The
// next run takes its previous samples from here, in one read, instead of opening every port's
// RRD file (which costs a dozen system calls and a mapping of the file per port).
//
// One file per scope, STATE_DIR/samples/NAME.rec: binary, versioned, with a checksum, replaced
// atomically (written under a temporary name and renamed), and read and written only while the
// run holds the locks of every node in it. A missing, foreign, corrupt or older-version file is
// an empty record (the RRD files answer instead, once); so is an entry older than the RRD
// heartbeat, since another run may have written that port's RRD since (a collector that takes
// over a shard goes on from the RRD's last sample, not from its own old one).
#pragma once

#include <cstdint>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <unordered_map>

#include "fabric/fabric.hpp"
#include "state/error_history.hpp"
#include "state/port_record.hpp"

namespace ibpm::state {

struct PortMemory {
  PortRecord sample;                     // the last sample, as written to the RRD
  std::optional<LinkState> live;         // PortInfo as last read (state, width, speed, enabled)
  std::uint16_t port_info_age = 0;       // runs since that PortInfo was read
  std::optional<std::uint8_t> reported;  // the state last reported (plugin::State's value)
  ErrorHistory errors;                   // the physical-layer errors of the last hours
};

class SampleRecord {
 public:
  // 3: the checksum is XXH3 (2: FNV-1a; an older record is read from the RRD files once).
  static constexpr std::uint32_t kVersion = 3;

  // STATE_DIR/samples/NAME.rec; NAME is made of [A-Za-z0-9._-] (anything else becomes '_').
  static std::string path_for(const std::string& state_dir, const std::string& name);

  // The record in `path`; empty when there is none. A file that is not a record of this version
  // or fails its checksum gives an empty record and `warning` ("PATH: reason: ..."), never an
  // exception: the RRD files hold the same samples.
  static SampleRecord load(const std::string& path, std::string& warning);

  // Replaces the file atomically (its folder made when missing). Throws StateError naming it.
  void save(const std::string& path) const;

  const PortMemory* find(Guid node, PortNumber port) const;
  PortMemory* find(Guid node, PortNumber port);
  // Returns the port's entry, which stays where it is until the port is dropped.
  PortMemory& put(Guid node, PortNumber port, PortMemory memory);
  // Drops every port for which keep(const PortRef&) is false.
  template <typename Keep>
  void retain(Keep&& keep) {
    std::erase_if(ports_->map, [&](const auto& entry) { return !keep(entry.first); });
  }
  std::size_t size() const { return ports_->map.size(); }
  // Every port's memory, in no particular order: fn(const PortRef&, const PortMemory&).
  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (const auto& [ref, memory] : ports_->map) fn(ref, memory);
  }

  // Runs of this scope so far (spreads the periodic PortInfo reads over the runs).
  std::uint64_t runs = 0;

 private:
  struct KeyHash {
    std::size_t operator()(const PortRef& ref) const {
      return std::hash<std::uint64_t>()(ref.node * 0x9e3779b97f4a7c15ULL ^ ref.port);
    }
  };
  // The entries come from one arena (a heap allocation per port was the sweep's most frequent):
  // a port dropped leaves its room there until the record goes. The arena and the map live
  // together in one place, so that a record moved never moves the map away from its arena.
  struct Ports {
    explicit Ports(std::size_t expected);
    std::pmr::monotonic_buffer_resource arena;
    std::pmr::unordered_map<PortRef, PortMemory, KeyHash> map{&arena};
  };
  std::unique_ptr<Ports> ports_ = std::make_unique<Ports>(0);
};

}  // namespace ibpm::state
