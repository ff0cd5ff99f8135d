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

std::chrono::system_clock::time_point MadTap::now() const {
  if (replay_)
    if (const auto last = replay_->last_time()) return *last;
  return std::chrono::system_clock::now();
}

MadLink::MadLink(const std::string& ca, int port, MadTap& tap) {
  if (tap.replaying()) {
    engine_ = std::make_unique<MadEngine>(*tap.replay());
    const ReplaySource& replay = *tap.replay();
    local_ = {.ca_name = ca.empty() ? "replay" : ca,
              .port_number = port,
              .lid = replay.local_lid(),
              .sm_lid = replay.sa_lid(),
              .description =
                  "of the recording" + (replay.local_lid() == 0
                                            ? std::string()
                                            : " (LID " + std::to_string(replay.local_lid()) + ")")};
    return;
  }
  port_ = std::make_unique<UmadPort>(ca, port);
  engine_ = std::make_unique<MadEngine>(*port_, tap.recorder());
  local_ = {.ca_name = port_->ca_name(),
            .port_number = port_->port_number(),
            .lid = port_->lid(),
            .sm_lid = port_->sm_lid(),
            .description = port_->describe()};
}

}  // namespace ibpm::mad
