// SPDX-License-Identifier: MIT
// Where a command's MADs go, as --record and --replay ask: the fabric through the local HCA port
// (each packet also written to a recording, or not), or a recording answering in its place.
//
// A MadTap lives for the whole command (the recording file is opened once, the replay's answers
// are read once and used up in order); a MadLink is one polling pass's engine on it, opening the
// HCA port only when the fabric is really asked. A command that needs to know its local port
// (its LID, where the SA answers) asks the link, which in a replay answers from the recording.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "mad/mad_engine.hpp"
#include "mad/pcap_recorder.hpp"
#include "mad/record_rotation.hpp"
#include "mad/replay_source.hpp"
#include "mad/umad_port.hpp"

namespace ibpm::mad {

class MadTap {
 public:
  // Empty paths: neither. The recording is rotated first when it is full (record_rotation.hpp).
  // Throws MadError (one line) when a file cannot be used.
  MadTap(const std::string& record, const std::string& replay, const RecordRotation& rotation = {});

  bool replaying() const { return replay_ != nullptr; }
  PcapRecorder* recorder() { return recorder_.get(); }
  ReplaySource* replay() { return replay_.get(); }
  const ReplaySource* replay() const { return replay_.get(); }

  // The time now as the command's results should carry it: the clock's, or in a replay the
  // recording's last packet's (the clock's for an empty recording).
  std::chrono::system_clock::time_point now() const;

 private:
  std::unique_ptr<PcapRecorder> recorder_;
  std::unique_ptr<ReplaySource> replay_;
};

// The port MADs leave from, as the HCA says, or as the recording shows it in a replay (there the
// CA is -C as given, "replay" when not, and the port -P; no GUID is recorded).
struct LocalPort {
  std::string ca_name;
  int port_number = 0;
  unsigned lid = 0;
  unsigned sm_lid = 0;      // where the SA answers (0: no SM known)
  std::string description;  // "mlx5_0 port 1", "of the recording (LID 3)"
};

class MadLink {
 public:
  // Opens the HCA port (-C/-P) unless the tap replays.
  MadLink(const std::string& ca, int port, MadTap& tap);

  MadEngine& engine() { return *engine_; }
  const LocalPort& local() const { return local_; }

 private:
  std::unique_ptr<UmadPort> port_;
  std::unique_ptr<MadEngine> engine_;
  LocalPort local_;
};

}  // namespace ibpm::mad
