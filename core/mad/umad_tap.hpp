// SPDX-License-Identifier: MIT
// libibnetdisc's discovery under --record and --replay.
//
// libibnetdisc (and libibmad, with which it first asks the local port who it is) talk to
// libibumad directly, not through our MAD engine. umad_tap.cpp defines the umad_* functions they
// call (umad_init, umad_open_port, umad_close_port, umad_register, umad_send, umad_recv,
// umad_poll), exported from every executable (umad_tap.dynamic-list), so that the dynamic linker
// binds the libraries' calls to them. While a UmadTapScope lives, the ports opened under it are
// tapped: recorded (each MAD sent, and each received, written to the command's recorder, beside
// what its MAD engine writes) or replayed (no device opened: each request is answered from the
// recording, found by what it asks, with the request's transaction id, in the order the recording
// received the answers). Every other call, and every call while no scope lives (the engine's own,
// the checks' normal path, libumad2sim under ibsim), goes straight to libibumad's function.
#pragma once

#include <string>

namespace ibpm::mad {

class MadTap;

class UmadTapScope {
 public:
  // Taps as `tap` asks; with no tap, or one that neither records nor replays, taps nothing.
  // Scopes do not nest (a second one while the first lives taps nothing).
  explicit UmadTapScope(MadTap* tap);
  ~UmadTapScope();
  UmadTapScope(const UmadTapScope&) = delete;
  UmadTapScope& operator=(const UmadTapScope&) = delete;

  // The first request the replay had no answer for, in one line ("--replay FILE: the recording
  // has no answer to NodeInfo Get by directed route 0,1"); empty when none. Such a request
  // replays as a timeout, which libibnetdisc survives; the caller reports it.
  std::string missing() const;
  // Why the recording stopped (it could not be written: a full disk), in one line; empty when it
  // did not. The discovery went on without it.
  std::string record_failure() const;

 private:
  bool active_ = false;
};

}  // namespace ibpm::mad
