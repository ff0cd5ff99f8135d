// SPDX-License-Identifier: MIT
// --replay FILE: the answers of a --record recording, given back to the MAD engine in place of
// the fabric's.
//
// The recording is read whole when opened: each request the engine sent is paired with its
// answer by transaction id, and the answers are kept by what was asked (destination LID, class,
// method, attribute, modifier and the payload that selects, such as a PMA Get's PortSelect), in
// the order they were given. A query takes the next answer recorded for what it asks (the last
// one again when they are used up), with the recording's time as its time of arrival, so rates
// follow the recording's clock; a request recorded without an answer replays as a timeout. A
// query nothing in the recording asked is an error naming it: the replay cannot go on without
// inventing the fabric.
//
// The directed-route SMPs of a recorded discovery (libibnetdisc's, through umad_tap.hpp) are
// filed apart, by what they ask (dr_smp.hpp), each with its whole answer as received and its
// place in the recording, so that a replayed discovery gets its answers in the order it got them.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>

#include "mad/dr_smp.hpp"
#include "mad/mad_engine.hpp"

namespace ibpm::mad {

// A query the recording has no answer for; what() names it in one line.
class ReplayMissing : public MadError {
 public:
  using MadError::MadError;
};

class ReplaySource {
 public:
  // Reads FILE. Throws MadError with one line naming the file and the fault: not pcap, another
  // link type, cut short, a packet that is no InfiniBand MAD.
  explicit ReplaySource(const std::string& path);

  // The recorded outcome of `query`: answered (mad_status, data, received at the recording's
  // time) or timed out. Throws ReplayMissing when the recording never asked it.
  MadReply answer(const MadQuery& query);

  // A directed-route SMP's recorded outcome: its answer as it arrived, or a timeout.
  struct RecordedAnswer {
    bool answered = false;
    std::array<std::uint8_t, kMadSize> mad{};  // the answer, zero-filled past its length
    unsigned slid = 0;                         // who sent it, as its LRH says
    std::uint32_t src_qp = 0;
    // Its packet number in the recording; a timeout's is the largest there is (it came last).
    std::uint64_t order = 0;
  };
  // The recorded outcome of the directed-route SMP `request` (at least kDrSmpRequestSize bytes),
  // in the order they were recorded, the last again when used up. Throws ReplayMissing naming it
  // when the recording never sent it.
  RecordedAnswer answer_smp(const std::uint8_t* request);
  // Whether the recording holds a discovery (directed-route SMPs).
  bool holds_discovery() const { return !smp_outcomes_.empty(); }

  std::size_t requests() const { return requests_; }
  std::size_t answers() const { return answers_; }
  const std::string& path() const { return path_; }

  // The local port as the recording saw it: the source LID of its first request, and where its
  // first SA request went (the port's master SM LID then); 0 when it holds none.
  unsigned local_lid() const { return local_lid_; }
  unsigned sa_lid() const { return sa_lid_; }
  // The time of its last packet (the end of the recorded run); nullopt for an empty recording.
  std::optional<std::chrono::system_clock::time_point> last_time() const { return last_time_; }

  // What a query asks, as the recording's requests are filed.
  struct Key {
    unsigned lid = 0;
    std::uint8_t mgmt_class = 0;
    std::uint8_t method = 0;
    std::uint16_t attribute = 0;
    std::uint32_t modifier = 0;
    std::uint64_t component_mask = 0;
    std::array<std::uint8_t, kMadRequestSize> payload{};  // the selecting bytes, others zero
    auto operator<=>(const Key&) const = default;
  };

 private:
  std::string path_;
  std::map<Key, std::deque<MadReply>> outcomes_;
  std::map<DrSmpKey, std::deque<RecordedAnswer>> smp_outcomes_;
  std::size_t requests_ = 0;
  std::size_t answers_ = 0;
  unsigned local_lid_ = 0;
  unsigned sa_lid_ = 0;
  std::optional<std::chrono::system_clock::time_point> last_time_;
};

// The key of a query: its class, method, attribute and modifier, and of its payload what selects
// the answer (a PMA Get: PortSelect; an SMP Get: nothing; a Set or an SA query: all of it).
ReplaySource::Key replay_key(unsigned lid, MgmtClass mgmt_class, std::uint8_t method,
                             std::uint16_t attribute, std::uint32_t modifier,
                             std::uint64_t component_mask, const std::uint8_t* payload);

// "PortCounters Get to LID 5, port 3", for messages.
std::string describe_query(const MadQuery& query);

}  // namespace ibpm::mad
