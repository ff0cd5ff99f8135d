// SPDX-License-Identifier: MIT
// ibsim serves at most 10 clients at once and turns the 11th away. A ClientSlot is one of
// kClientSlots places to run a client in, shared by every thread and process using the same
// simulation folder (flock on slot files), so parallel tests on one simulation wait instead
// of failing.
#pragma once

#include <filesystem>

namespace ibpm::sim {

// Two of ibsim's 10 stay free: for OpenSM next to running clients, and a tool run by hand.
inline constexpr int kClientSlots = 8;

class ClientSlot {
 public:
  // Blocks until one of the slot files in `slots_dir` (created as needed) is free.
  explicit ClientSlot(const std::filesystem::path& slots_dir);
  ~ClientSlot();
  ClientSlot(const ClientSlot&) = delete;
  ClientSlot& operator=(const ClientSlot&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace ibpm::sim
