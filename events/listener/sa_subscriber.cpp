// SPDX-License-Identifier: MIT

#include "sa_subscriber.hpp"

#include <endian.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <infiniband/umad_sa.h>
#include <infiniband/umad_types.h>
#include <poll.h>

#include <algorithm>
#include <array>
#include <cstdio>

#include "mad/mad_packet.hpp"
#include "mad/port_info.hpp"
#include "mad/smp.hpp"
#include "sa_report.hpp"

namespace ibpm::events {

namespace {

using Clock = SaSubscriber::Clock;

// A failed check is tried again this soon (a master that just died, a new one sweeping).
constexpr std::chrono::seconds kRetryAfterFailure{5};

// Where the SA's header says how long a record is (AttributeOffset, in 8-byte words), and where
// its records start.
constexpr std::size_t kSaAttributeOffset = 44;
constexpr std::size_t kSaData = 56;
constexpr std::size_t kSmpData = 64;  // a LID-routed SMP's attribute

double epoch_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// An SA agent that is also sent the SA's Reports (method 0x06: without the bit in the mask the
// kernel drops them) and with RMPP, so that the kernel reassembles a table longer than one MAD.
// The kernel gives each method of a class to one agent of the port.
int register_for_reports(const mad::UmadPort& port) {
  long methods[16 / sizeof(long)] = {};
  methods[0] = 1L << UMAD_METHOD_REPORT;
  const int agent = umad_register(port.fd(), UMAD_CLASS_SUBN_ADM, UMAD_SA_CLASS_VERSION,
                                  UMAD_RMPP_VERSION, methods);
  if (agent < 0)
    throw mad::MadError("cannot register for the SA's Reports on " + port.describe() +
                        ": another program on this port takes them (an OpenSM or srp_daemon "
                        "on this port?)");
  return agent;
}

std::string step_text(unsigned sa_lid, unsigned trap, bool subscribe) {
  return std::string(subscribe ? "subscribing" : "unsubscribing") + " to trap " +
         std::to_string(trap) + " at the SA (SM LID " + std::to_string(sa_lid) + ")";
}

std::string status_text(unsigned status) {
  char text[32];
  std::snprintf(text, sizeof text, "MAD status 0x%04x", status);
  return text;
}

}  // namespace

SaSubscriber::SaSubscriber(SaOptions options, Say say, OnTrap on_trap)
    : options_(std::move(options)),
      say_(std::move(say)),
      on_trap_(std::move(on_trap)),
      port_(std::make_shared<mad::UmadPort>(options_.ca, options_.port)),
      sa_agent_(register_for_reports(*port_)),
      reader_(port_),
      recorder_(options_.record.empty() ? nullptr
                                        : std::make_unique<mad::PcapRecorder>(options_.record)) {}

void SaSubscriber::record(const std::uint8_t* umad_packet, std::size_t mad_length,
                          mad::Direction direction) {
  if (!recorder_) return;
  // On the wire a MAD is 256 bytes; umad may hand back less (an SA answer without RMPP, its data
  // only), which tshark does not decode: recorded as it travelled, zeros after the data.
  std::vector<std::uint8_t> padded;
  if (mad_length < mad::kMadSize) {
    padded.assign(umad_size() + mad::kMadSize, 0);
    std::copy_n(umad_packet, umad_size() + mad_length, padded.begin());
    umad_packet = padded.data();
    mad_length = mad::kMadSize;
  }
  try {
    recorder_->record(umad_packet, mad_length, direction, port_->lid(),
                      std::chrono::system_clock::now());
    recorder_->flush();  // a listener runs for weeks: each MAD on disk as it comes
  } catch (const mad::MadError& e) {
    say_(std::string("recording stopped: ") + e.what());
    recorder_.reset();
  }
}

void SaSubscriber::start_check(Clock::time_point now) {
  checking_ = true;
  master_changed_ = false;
  table_may_be_cut_ = false;
  set_now_.clear();
  todo_ = {Request{Step::port_info}};
  send_next(now);
}

void SaSubscriber::send_next(Clock::time_point now) {
  if (todo_.empty()) {
    if (checking_) check_done(now);
    return;
  }
  in_flight_ = InFlight{todo_.front(), 0, 0, Clock::time_point()};
  todo_.pop_front();
  send_try(now);
}

// The request in flight, under a fresh transaction ID. A send the port refuses is a lost try.
void SaSubscriber::send_try(Clock::time_point now) {
  InFlight& request = *in_flight_;
  mad::MadQuery query;
  switch (request.request.step) {
    case Step::port_info:
      query = mad::port_info_query(port_->lid(), static_cast<unsigned>(port_->port_number()));
      break;
    case Step::table:
      query = mad::inform_info_records_query(sm_lid_, gid_);
      break;
    case Step::subscribe:
    case Step::unsubscribe:
      query = mad::subscription_query(sm_lid_, request.request.trap,
                                      request.request.step == Step::subscribe);
      break;
  }
  request.tid = ++last_tid_ ? last_tid_ : ++last_tid_;
  ++request.tries;
  request.expires = now + options_.mad_timeout;
  mad::Packet packet{};
  const int length = mad::build_packet(query, packet);
  mad::set_tid(packet, request.tid);
  const int agent =
      request.request.step == Step::port_info ? port_->agent(mad::MgmtClass::subnet) : sa_agent_;
  if (umad_send(port_->fd(), agent, packet.data(), length,
                static_cast<int>(options_.mad_timeout.count()), 0) >= 0)
    record(packet.data(), static_cast<std::size_t>(length), mad::Direction::sent);
}

void SaSubscriber::read(Clock::time_point now) {
  for (const std::vector<std::uint8_t>& packet : reader_.take()) take_packet(packet, now);
  if (!reader_failed_) {
    const std::string error = reader_.error();
    if (!error.empty()) {
      reader_failed_ = true;  // nothing arrives any more: every check fails from now on
      health_.subscribed = false;
      fail(error, now);
    }
  }
  tick(now);
}

void SaSubscriber::take_packet(const std::vector<std::uint8_t>& packet, Clock::time_point now) {
  if (packet.size() < umad_size() + kSaData) return;  // no MAD we sent or the SA sends
  const std::uint8_t* mad = packet.data() + umad_size();
  const std::size_t length = packet.size() - umad_size();
  const int status = umad_status(const_cast<std::uint8_t*>(packet.data()));
  if (status == 0) record(packet.data(), length, mad::Direction::received);
  if (status == 0 && mad[1] == UMAD_CLASS_SUBN_ADM && mad[3] == UMAD_METHOD_REPORT) {
    take_report(packet);
    return;
  }
  if (!in_flight_ || mad::tid_of(packet.data()) != in_flight_->tid) return;  // late, not ours
  if (status != 0) {  // the kernel's timeout (ETIMEDOUT), or a send that failed: the try is over
    in_flight_->expires = now;
    return;
  }
  if (!mad::is_response(packet.data())) return;
  take_answer(mad, length, now);
}

void SaSubscriber::take_report(const std::vector<std::uint8_t>& packet) {
  ++health_.reports;
  const std::span<const std::uint8_t> mad(packet.data() + umad_size(), packet.size() - umad_size());
  const ReportHandling handling = handle_report(mad);
  if (handling.response) {
    // Back where it came from (the received address), through the agent it came to.
    std::vector<std::uint8_t> out(umad_size() + mad::kMadSize);
    std::copy_n(packet.begin(), umad_size(), out.begin());
    std::copy(handling.response->begin(), handling.response->end(), out.begin() + umad_size());
    umad_get_mad_addr(out.data())->qkey = htobe32(IB_DEFAULT_QP1_QKEY);
    if (umad_send(port_->fd(), sa_agent_, out.data(), static_cast<int>(mad::kMadSize), 0, 0) >= 0) {
      ++health_.answered;
      record(out.data(), mad::kMadSize, mad::Direction::sent);
    }
  }
  if (!handling.trap) {
    ++health_.malformed;
    if (said_malformed_.insert(handling.error).second)
      say_("a Report from the SA could not be read (" + handling.error +
           "): " + (handling.response ? "answered, " : "") + "ignored (said once per reason)");
    return;
  }
  on_trap_(*handling.trap);
}

void SaSubscriber::take_answer(const std::uint8_t* mad, std::size_t length, Clock::time_point now) {
  const Request request = in_flight_->request;
  in_flight_.reset();
  const unsigned status = (unsigned{mad[4]} << 8) | mad[5];
  switch (request.step) {
    case Step::port_info:
      if (status != 0) return fail("reading the port's PortInfo: " + status_text(status), now);
      take_port_info(mad);
      break;
    case Step::table:
      if (status != 0)
        return fail("asking the SA (SM LID " + std::to_string(sm_lid_) +
                        ") for its InformInfoRecords: " + status_text(status),
                    now);
      take_table(mad, length);
      break;
    case Step::subscribe:
      if (status != 0) {
        health_.subscribed = false;
        return fail(step_text(sm_lid_, request.trap, true) + ": " + status_text(status), now);
      }
      set_now_.insert(request.trap);
      break;
    case Step::unsubscribe:
      if (status == 0) removed_.insert(request.trap);
      break;
  }
  if (checking_ || leaving_) send_next(now);
}

// Who the master is now, and this port's GID (the SA lists subscriptions by it).
void SaSubscriber::take_port_info(const std::uint8_t* mad) {
  std::array<std::uint8_t, mad::kMadSize - kSmpData> info{};
  std::copy_n(mad + kSmpData, info.size(), info.begin());
  const unsigned master = mad_get_field(info.data(), 0, IB_PORT_SMLID_F);
  if (!mad::is_unicast_lid(master)) {
    todo_.clear();
    return fail("the port knows no master SM (PortInfo:MasterSMLID " + std::to_string(master) +
                    "): is a subnet manager running?",
                Clock::now());
  }
  gid_ = mad::make_gid(mad_get_field64(info.data(), 0, IB_PORT_GID_PREFIX_F), port_->port_guid());
  if (master != sm_lid_) {
    if (sm_lid_ != 0) {
      say_("the master SM is now LID " + std::to_string(master) + " (was " +
           std::to_string(sm_lid_) + "): subscribing with it");
      ++health_.master_changes;
    }
    master_changed_ = true;
    health_.subscribed = false;
    sm_lid_ = health_.sm_lid = master;
  }
  todo_.push_back(Request{Step::table});
}

// What the master's SA still holds of ours; the rest (all of it after a master change) is
// subscribed again.
void SaSubscriber::take_table(const std::uint8_t* mad, std::size_t length) {
  const std::size_t record_size =
      ((std::size_t{mad[kSaAttributeOffset]} << 8) | mad[kSaAttributeOffset + 1]) * 8;
  const std::vector<mad::InformInfoRecord> records = mad::decode_inform_info_records(
      std::span<const std::uint8_t>(mad + kSaData, length - kSaData), record_size);
  table_may_be_cut_ = length <= mad::kMadSize && record_size > 0 &&
                      records.size() == (mad::kMadSize - kSaData) / record_size;
  for (unsigned trap : kSaTraps)
    if (master_changed_ ||
        !mad::lists_subscription(records, gid_, mad::generic_trap_subscription(trap, true)))
      todo_.push_back(Request{Step::subscribe, trap});
}

void SaSubscriber::check_done(Clock::time_point now) {
  checking_ = false;
  next_check_ = now + options_.check_interval;
  const std::string sa = "the SA (SM LID " + std::to_string(sm_lid_) + ")";
  if (!set_now_.empty()) {
    if (master_changed_)
      say_("subscribed at " + sa + " from " + port_->describe() + ": " + traps_text(set_now_));
    else if (!table_may_be_cut_)
      say_(sa + " no longer listed " + traps_text(set_now_) + ": subscribed again");
    else if (!said_cut_)
      say_(sa + " listed this port's subscriptions in one MAD (3 at most: no RMPP here): what " +
           "it did not show (" + traps_text(set_now_) + ") is subscribed again at each check");
    said_cut_ = said_cut_ || (table_may_be_cut_ && !master_changed_);
    if (health_.checks > 0) health_.renewed += set_now_.size();
  }
  if (!said_failure_.empty()) say_(sa + " answers again: every subscription confirmed");
  said_failure_.clear();
  health_.subscribed = true;
  health_.sm_lid = sm_lid_;
  health_.last_confirmed = epoch_now();
  ++health_.checks;
}

void SaSubscriber::fail(const std::string& why, Clock::time_point now) {
  ++health_.failures;
  health_.last_failure = why;
  health_.last_failure_at = epoch_now();
  in_flight_.reset();
  todo_.clear();
  if (leaving_) return;
  checking_ = false;
  const auto retry = std::min<std::chrono::seconds>(options_.check_interval, kRetryAfterFailure);
  next_check_ = now + retry;
  if (why != said_failure_)
    say_("SA: " + why + (health_.subscribed ? "" : " (not subscribed)") + "; again in " +
         std::to_string(retry.count()) + " s (said again when the reason changes)");
  said_failure_ = why;
}

void SaSubscriber::tick(Clock::time_point now) {
  if (in_flight_ && now >= in_flight_->expires) {
    const Request request = in_flight_->request;
    if (in_flight_->tries < options_.mad_tries) {
      send_try(now);
    } else if (request.step == Step::unsubscribe) {
      in_flight_.reset();  // on the way out: the next one all the same
      send_next(now);
    } else {
      const unsigned lid = request.step == Step::port_info ? port_->lid() : sm_lid_;
      const std::string what = request.step == Step::port_info ? "reading the port's PortInfo"
                               : request.step == Step::table
                                   ? "asking the SA for its InformInfoRecords"
                                   : step_text(sm_lid_, request.trap, true);
      if (request.step == Step::subscribe) health_.subscribed = false;
      fail(what + ": no answer from LID " + std::to_string(lid) + " after " +
               std::to_string(options_.mad_tries) + " tries",
           now);
    }
  }
  if (!checking_ && !leaving_ && now >= next_check_) start_check(now);
}

Clock::time_point SaSubscriber::next_wake() const {
  if (in_flight_) return in_flight_->expires;
  return checking_ ? Clock::time_point::max() : next_check_;
}

void SaSubscriber::unsubscribe(std::chrono::milliseconds limit) {
  if (sm_lid_ == 0 || health_.checks == 0) return;  // nothing was subscribed
  leaving_ = true;
  checking_ = false;
  in_flight_.reset();
  todo_.clear();
  removed_.clear();
  for (unsigned trap : kSaTraps) todo_.push_back(Request{Step::unsubscribe, trap});
  const Clock::time_point end = Clock::now() + limit;
  send_next(Clock::now());
  while (in_flight_ && Clock::now() < end) {
    pollfd ready{fd(), POLLIN, 0};
    const auto wait = std::min(end, in_flight_->expires) - Clock::now();
    ::poll(&ready, 1,
           static_cast<int>(
               std::max<long long>(0, std::chrono::ceil<std::chrono::milliseconds>(wait).count())));
    read(Clock::now());
  }
  std::set<unsigned> kept(kSaTraps.begin(), kSaTraps.end());
  for (unsigned trap : removed_) kept.erase(trap);
  say_(kept.empty() ? "unsubscribed at the SA (SM LID " + std::to_string(sm_lid_) +
                          "): " + traps_text(removed_)
                    : "not unsubscribed at the SA (SM LID " + std::to_string(sm_lid_) + ") from " +
                          traps_text(kept) +
                          " (no answer, or refused): the SA keeps them until its master changes");
  health_.subscribed = false;
}

std::string SaSubscriber::traps_text(const std::set<unsigned>& traps) const {
  std::string text = traps.size() == 1 ? "trap " : "traps ";
  bool first = true;
  for (unsigned trap : traps) {
    text += (first ? "" : ", ") + std::to_string(trap);
    first = false;
  }
  return text;
}

}  // namespace ibpm::events
