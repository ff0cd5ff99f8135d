// SPDX-License-Identifier: MIT

#include "mad/mad_link.hpp"

namespace ibpm::mad {

MadTap::MadTap(const std::string& record, const std::string& replay,
               const RecordRotation& rotation) {
  if (!record.empty() && !replay.empty())
    throw MadError("--record and --replay exclude each other");
  if (!record.empty()) {
    rotate_if_full(record, rotation);
    recorder_ = std::make_unique<PcapRecorder>(record);
  }
  if (!replay.empty()) replay_ = std::make_unique<ReplaySource>(replay);
}

MadLink::MadLink(const std::string& ca, int port, MadTap& tap) {
  if (tap.replaying()) {
    engine_ = std::make_unique<MadEngine>(*tap.replay());
    return;
  }
  port_ = std::make_unique<UmadPort>(ca, port);
  engine_ = std::make_unique<MadEngine>(*port_, tap.recorder());
}

}  // namespace ibpm::mad
