// SPDX-License-Identifier: MIT
// libibnetdisc as a topology source: live discovery through the local HCA, and its cache files
// (the infiniband-diags --load-cache habit). The discovered data is kept so it can be cached as is.
#pragma once

#include <memory>
#include <string>

#include "fabric/fabric.hpp"
#include "mad/mad_tap_fwd.hpp"

struct ibnd_fabric;

namespace ibpm::topology {

struct DiscoveryOptions {
  std::string ca{};            // local HCA name, empty: the first one
  int port = 0;                // local HCA port, 0: the first active one
  unsigned timeout_ms = 0;     // per-SMP timeout, 0: libibmad's default
  unsigned retries = 0;        // 0: libibmad's default
  mad::MadTap* tap = nullptr;  // --record / --replay: the discovery's MADs too (umad_tap.hpp)
};

class IbndFabric {
 public:
  // Discovers the fabric through the local port, or replays a recorded discovery; throws
  // std::runtime_error with the reason (mad::ReplayMissing: a request the recording lacks).
  static IbndFabric discover(const DiscoveryOptions& options);
  // Loads a libibnetdisc cache file (as written by `ibnetdiscover --cache`).
  static IbndFabric load_cache(const std::string& path);

  // Writes the libibnetdisc cache file atomically (temporary file, then rename).
  void save_cache(const std::string& path) const;

  // The fabric model of what libibnetdisc found.
  Fabric to_fabric() const;

  unsigned max_hops() const;

 private:
  struct Deleter {
    void operator()(ibnd_fabric* fabric) const;
  };
  explicit IbndFabric(ibnd_fabric* fabric) : fabric_(fabric, Deleter{}) {}
  std::shared_ptr<ibnd_fabric> fabric_;
};

// True when the first bytes of a file are a libibnetdisc cache file's magic number.
bool looks_like_ibnd_cache(const std::string& path);

}  // namespace ibpm::topology
