// SPDX-License-Identifier: MIT
// --record FILE: every MAD the engine sends and every packet it receives, with its time, appended
// to a pcap file through libpcap, as the frame travels (LRH, BTH, DETH, MAD) in an ERF record of
// type InfiniBand (ib_frame.hpp), so that Wireshark and tshark decode it and --replay can answer
// from it. The engine holds a pointer that is null when recording is off: one test per packet.
// libibnetdisc's discovery writes to the same recorder through umad_tap.hpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace ibpm::mad {

enum class Direction { sent, received };

class PcapRecorder {
 public:
  // Opens FILE for appending (made when missing): a run adds its MADs after the last run's.
  // Throws MadError with a one-line reason (a file of another link type, not pcap, unwritable).
  explicit PcapRecorder(const std::string& path);
  ~PcapRecorder();
  PcapRecorder(const PcapRecorder&) = delete;
  PcapRecorder& operator=(const PcapRecorder&) = delete;

  // A packet as umad gives it (umad header + MAD of `mad_length` bytes): sent from or received
  // at our port, whose LID is `local_lid`.
  void record(const std::uint8_t* umad_packet, std::size_t mad_length, Direction direction,
              unsigned local_lid, std::chrono::system_clock::time_point when);

  // Writes what libpcap buffers; throws MadError when the file cannot take it (disk full).
  void flush();

  std::size_t packets() const { return packets_; }
  const std::string& path() const { return path_; }

 private:
  struct Handles;
  std::unique_ptr<Handles> handles_;
  std::string path_;
  std::size_t packets_ = 0;
};

}  // namespace ibpm::mad
