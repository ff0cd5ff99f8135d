// SPDX-License-Identifier: MIT
// The SA way in, for any subnet manager: the listener's port subscribes at the master SM's SA to
// traps 64, 65, 128, 144 and 145 (a SubnAdmSet(InformInfo) each, core/mad/inform_info.hpp), and
// every Report the SA then sends is answered (sa_report.hpp) and its trap handed on.
//
// A subscription lives as long as the master SM that holds it. Every check_interval, the port's
// own PortInfo says who the master is now (MasterSMLID: the port's LID in sysfs is a snapshot
// under the simulator); the master's InformInfoRecord table, asked for this port's GID, says what
// it still holds; whatever it does not list is subscribed again, and all of it when the master
// changed. That also covers ClientReregister, a kernel event umad does not show. The SA's answer
// to each Set confirms the subscription. Where the table arrives as one MAD (no RMPP under the
// simulator), it shows 3 records at most: the subscriptions it does not show are made again at
// each check (a Set of a subscription the SA holds changes nothing).
//
// One request is in flight at a time (a check is 7 MADs at most); nothing here blocks but
// unsubscribe(), on the way out.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "events/trap_record.hpp"
#include "mad/inform_info.hpp"
#include "mad/pcap_recorder.hpp"
#include "mad/umad_port.hpp"
#include "umad_reader.hpp"

namespace ibpm::events {

inline constexpr std::array<unsigned, 5> kSaTraps{64, 65, 128, 144, 145};

struct SaOptions {
  std::string ca;  // -C: empty, the first HCA
  int port = 0;    // -P: 0, the first active port
  std::chrono::seconds check_interval{60};
  std::chrono::milliseconds mad_timeout{1000};
  unsigned mad_tries = 3;
  // --record FILE: every MAD of the SA way in (the checks' requests and answers, the SA's
  // Reports and the ReportResps) appended to FILE as the checks' --record writes it; empty: none.
  std::string record;
};

// What the status file says of the SA way in.
struct SaHealth {
  bool subscribed = false;    // every trap subscribed with the master of the last check
  unsigned sm_lid = 0;        // that master
  double last_confirmed = 0;  // epoch seconds of the last check that confirmed all; 0: never
  std::uint64_t checks = 0;   // checks that confirmed all
  std::uint64_t failures = 0;
  std::string last_failure;  // why the last check that failed did
  double last_failure_at = 0;
  std::uint64_t master_changes = 0;
  std::uint64_t renewed = 0;    // subscriptions made again after the first
  std::uint64_t reports = 0;    // Reports received
  std::uint64_t answered = 0;   // ReportResps sent
  std::uint64_t malformed = 0;  // Reports (or MADs said to be) that could not be read
};

class SaSubscriber {
 public:
  using Clock = std::chrono::steady_clock;
  using Say = std::function<void(const std::string&)>;
  using OnTrap = std::function<void(const TrapRecord&)>;

  // Opens the port and registers for the SA's Reports; throws mad::MadError with a one-line
  // reason. The first check starts at the first tick().
  SaSubscriber(SaOptions options, Say say, OnTrap on_trap);

  // Readable when MADs arrived: then read().
  int fd() const { return reader_.fd(); }
  // Takes what arrived: answers to the check's requests, Reports (answered and handed on).
  void read(Clock::time_point now);
  // Starts a check when one is due, tries again a request whose time is up.
  void tick(Clock::time_point now);
  // When tick() has something to do.
  Clock::time_point next_wake() const;
  // On the way out: every subscription removed at the master (subscribe 0), waiting at most
  // `limit` for the SA's answers.
  void unsubscribe(std::chrono::milliseconds limit);

  const SaHealth& health() const { return health_; }
  std::string port_name() const { return port_->describe(); }

 private:
  enum class Step { port_info, table, subscribe, unsubscribe };
  struct Request {
    Step step;
    unsigned trap = 0;
  };
  struct InFlight {
    Request request;
    std::uint32_t tid = 0;
    unsigned tries = 0;
    Clock::time_point expires;
  };

  void start_check(Clock::time_point now);
  void send_next(Clock::time_point now);
  void send_try(Clock::time_point now);
  void take_packet(const std::vector<std::uint8_t>& packet, Clock::time_point now);
  // Writes a umad packet of `mad_length` bytes of MAD to the recording, if there is one; a
  // recording that fails (disk full) is said once and stopped, the subscription goes on.
  void record(const std::uint8_t* umad_packet, std::size_t mad_length, mad::Direction direction);
  void take_report(const std::vector<std::uint8_t>& packet);
  void take_answer(const std::uint8_t* mad, std::size_t length, Clock::time_point now);
  void take_port_info(const std::uint8_t* mad);
  void take_table(const std::uint8_t* mad, std::size_t length);
  void check_done(Clock::time_point now);
  void fail(const std::string& why, Clock::time_point now);
  std::string traps_text(const std::set<unsigned>& traps) const;

  SaOptions options_;
  Say say_;
  OnTrap on_trap_;
  std::shared_ptr<mad::UmadPort> port_;
  int sa_agent_ = -1;
  UmadReader reader_;
  std::unique_ptr<mad::PcapRecorder> recorder_;

  std::deque<Request> todo_;
  std::optional<InFlight> in_flight_;
  std::uint32_t last_tid_ = 0;
  bool checking_ = false;
  bool leaving_ = false;  // unsubscribing on the way out: no check starts
  Clock::time_point next_check_ = Clock::time_point::min();

  unsigned sm_lid_ = 0;
  mad::Gid gid_{};
  bool master_changed_ = false;    // this check found a new master
  bool table_may_be_cut_ = false;  // this check's table filled one MAD
  std::set<unsigned> set_now_;     // traps this check subscribed
  std::set<unsigned> removed_;     // traps unsubscribed on the way out
  bool said_cut_ = false;
  bool reader_failed_ = false;
  std::string said_failure_;  // the last failure said (the same one is not said again)
  std::set<std::string> said_malformed_;
  SaHealth health_;
};

}  // namespace ibpm::events
