// SPDX-License-Identifier: MIT
// MadEngine: a run of queries, each sent, retried on its schedule and matched to its answer.

#include "mad/mad_engine.hpp"

#include <infiniband/umad.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>

#include "mad/in_flight_table.hpp"
#include "mad/mad_packet.hpp"
#include "mad/pcap_recorder.hpp"
#include "mad/replay_source.hpp"

namespace ibpm::mad {

namespace {

using Clock = std::chrono::steady_clock;

// One query on its way: its packet and where it stands in its retry schedule (each try's wait is
// drawn when the try goes out: nearly every query is answered at its first).
struct Outstanding {
  std::size_t index = 0;  // into the caller's queries
  MgmtClass mgmt_class = MgmtClass::performance;
  Packet packet{};                // umad header + MAD, built once
  int length = 0;                 // MAD bytes to send
  Milliseconds wait{0};           // the try in flight waits this long
  Milliseconds used{0};           // what the tries before it waited
  Milliseconds total{0};          // what all tries may wait together
  std::size_t attempt = 0;        // the try in flight
  std::size_t send_failures = 0;  // tries the port refused to send
  bool clipped = false;           // the deadline shortened the schedule
  Clock::time_point expires;
};

int milliseconds_until(Clock::time_point when, Clock::time_point now) {
  if (when <= now) return 0;
  // Round up so a poll never returns just before the expiry it waits for.
  return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(when - now).count());
}

// One run of the engine: the queries, the tries in flight, and the steps that move them along.
class EngineRun {
 public:
  EngineRun(const UmadPort& port, PcapRecorder* recorder, const MadEngine::QuerySource& queries,
            const EngineOptions& options, const MadEngine::OnReply& on_reply, EngineStats& stats,
            std::uint32_t& last_tid)
      : port_(port),
        recorder_(recorder),
        queries_(queries),
        options_(options),
        on_reply_(on_reply),
        stats_(stats),
        window_(std::max<std::size_t>(1, options.window)),
        in_flight_(window_, last_tid),
        received_(umad_size() + kMadSize) {}

  void run();

 private:
  bool more_to_send() const { return next_ < queries_.count(); }
  bool window_open() const { return in_flight_.size() < window_; }
  bool past_deadline(Clock::time_point now) const {
    return options_.deadline && now >= *options_.deadline;
  }

  void finish(std::size_t index, ReplyStatus status, int tries);
  void cut_everything();
  void send_new_queries(Clock::time_point now);
  void start_query(Clock::time_point now);
  void send_try(std::size_t slot, Clock::time_point now);
  void end_unanswered_try(std::size_t slot, Clock::time_point now);
  Clock::time_point next_wake() const;
  void receive_until(Clock::time_point wake, Clock::time_point now);
  void take_reply(std::uint32_t tid, int umad_status_value, int length);
  void expire_tries(Clock::time_point now);

  const UmadPort& port_;
  PcapRecorder* const recorder_;  // null when not recording
  const MadEngine::QuerySource& queries_;
  const EngineOptions& options_;
  const MadEngine::OnReply& on_reply_;
  EngineStats& stats_;
  const std::size_t window_;
  std::size_t next_ = 0;                  // the first query not sent yet
  InFlightTable<Outstanding> in_flight_;  // the tries on their way, by transaction id
  PacketEncoder encoder_;
  // No try in flight expires before this. A lower bound (the try that set it may have been
  // answered since), so the table is scanned only when a try may really have expired, not once
  // per batch of replies: a poll that wakes early finds nothing and sets it again.
  Clock::time_point earliest_expiry_ = Clock::time_point::max();
  std::vector<std::uint8_t> received_;  // umad header + MAD
};

// Until every query has ended: send what the window allows, wait for replies or the first
// expiry, retry or end the tries that expired.
void EngineRun::run() {
  while (more_to_send() || !in_flight_.empty()) {
    const Clock::time_point now = Clock::now();
    if (past_deadline(now)) {
      cut_everything();
      return;
    }
    send_new_queries(now);
    if (in_flight_.empty()) continue;
    receive_until(next_wake(), now);
    expire_tries(Clock::now());
  }
}

// A query that ended: its reply goes to the caller (who may add queries).
void EngineRun::finish(std::size_t index, ReplyStatus status, int tries) {
  MadReply reply;
  reply.status = status;
  reply.tries = tries;
  on_reply_(index, reply);
}

// The deadline: everything still under way ends now, in query order; replies to these may add
// queries, which end too.
void EngineRun::cut_everything() {
  std::vector<std::pair<std::size_t, int>> cut;
  in_flight_.for_each([&cut](std::size_t, const Outstanding& item) {
    cut.emplace_back(item.index, static_cast<int>(item.attempt) + 1);
  });
  in_flight_.clear();
  std::sort(cut.begin(), cut.end());
  for (auto [index, tries] : cut) finish(index, ReplyStatus::cut, tries);
  while (more_to_send()) finish(next_++, ReplyStatus::cut, 0);
}

void EngineRun::send_new_queries(Clock::time_point now) {
  while (window_open() && more_to_send()) start_query(now);
}

// The next query: its packet, its retry schedule (what is left before the deadline) and its
// first try; a query that cannot be encoded fails, one the deadline leaves no time is cut.
void EngineRun::start_query(Clock::time_point now) {
  const std::size_t slot = in_flight_.acquire();
  Outstanding& item = in_flight_[slot];
  const std::size_t index = item.index = next_++;
  const MadQuery query = queries_.at(index);
  item.mgmt_class = query.mgmt_class;
  try {
    item.length = encoder_.build(query, item.packet);
  } catch (const MadError&) {
    in_flight_.release(slot);
    finish(index, ReplyStatus::failed, 0);
    return;
  }
  std::optional<Milliseconds> budget;
  if (options_.deadline)
    budget = std::chrono::duration_cast<Milliseconds>(*options_.deadline - now);
  item.total = schedule_total(options_.backoff, budget);
  // A schedule always fills timeout x retries unless the deadline leaves less.
  item.clipped = item.total < schedule_total(options_.backoff, std::nullopt);
  const auto first = next_wait(options_.backoff, 0, Milliseconds{0}, item.total, options_.jitter);
  if (!first) {
    in_flight_.release(slot);
    finish(index, ReplyStatus::cut, 0);
    return;
  }
  item.wait = *first;
  send_try(slot, now);
}

// Puts the slot's next try on the wire under a fresh transaction id.
void EngineRun::send_try(std::size_t slot, Clock::time_point now) {
  Outstanding& item = in_flight_[slot];
  set_tid(item.packet, in_flight_.assign_tid(slot));
  const Milliseconds wait = item.wait;
  if (item.attempt > 0) ++stats_.retries;
  // The kernel keeps its own timer for the try (and reports ETIMEDOUT); ours covers transports
  // that never report one. A send the port refuses is a lost try: the next one goes out on
  // schedule.
  if (umad_send(port_.fd(), port_.agent(item.mgmt_class), item.packet.data(), item.length,
                static_cast<int>(wait.count()), 0) < 0)
    ++item.send_failures;
  else {
    ++stats_.sent;
    if (recorder_)
      recorder_->record(item.packet.data(), static_cast<std::size_t>(item.length), Direction::sent,
                        port_.lid(), std::chrono::system_clock::now());
  }
  item.expires = now + wait;
  earliest_expiry_ = std::min(earliest_expiry_, item.expires);
}

// A try is over without an answer: the next try, or the end of its query.
void EngineRun::end_unanswered_try(std::size_t slot, Clock::time_point now) {
  Outstanding& item = in_flight_[slot];
  item.used += item.wait;
  ++item.attempt;
  const auto wait = next_wait(options_.backoff, static_cast<int>(item.attempt), item.used,
                              item.total, options_.jitter);
  const bool more = wait.has_value();
  if (more && !past_deadline(now)) {
    item.wait = *wait;
    send_try(slot, now);
    return;
  }
  // The deadline, not the schedule, ended it when tries were left or the schedule was clipped:
  // nothing is known about the node.
  const ReplyStatus status = more || item.clipped                 ? ReplyStatus::cut
                             : item.send_failures == item.attempt ? ReplyStatus::failed
                                                                  : ReplyStatus::timed_out;
  const std::size_t index = item.index;
  const int tries = static_cast<int>(item.attempt);
  in_flight_.release(slot);
  finish(index, status, tries);
}

// When the poll must return: the first try's expiry (or sooner, see earliest_expiry_), or the
// deadline if sooner.
Clock::time_point EngineRun::next_wake() const {
  Clock::time_point wake = earliest_expiry_;
  if (options_.deadline) wake = std::min(wake, *options_.deadline);
  return wake;
}

// Waits for replies until `wake`, then takes every reply that is ready before looking at the
// clock again, unless a reply added queries that the window has room for.
void EngineRun::receive_until(Clock::time_point wake, Clock::time_point now) {
  if (umad_poll(port_.fd(), milliseconds_until(wake, now)) != 0) return;
  for (;;) {
    int length = kMadSize;
    if (umad_recv(port_.fd(), received_.data(), &length, 0) < 0) break;
    take_reply(tid_of(received_.data()), umad_status(received_.data()), length);
    if (window_open() && more_to_send()) break;
    if (umad_poll(port_.fd(), 0) != 0) break;
  }
}

// A received packet: the answer to a try in flight ends its query. A loss the transport reports
// (ETIMEDOUT) leaves the try to its timer; anything else (late, duplicate, for another agent's
// query, not a response) is counted and dropped.
void EngineRun::take_reply(std::uint32_t tid, int umad_status_value, int length) {
  const auto now = std::chrono::system_clock::now();
  // What arrived (not the sends the transport hands back as lost).
  if (recorder_ && umad_status_value == 0 && length > 0)
    recorder_->record(received_.data(), static_cast<std::size_t>(length), Direction::received,
                      port_.lid(), now);
  const std::optional<std::size_t> slot = in_flight_.find(tid);
  if (!slot) {
    ++stats_.ignored;
    return;
  }
  // The try is lost, but the next one still waits for its turn in the backoff schedule:
  // transports that report losses at once (ibsim) must not spend the schedule in a burst.
  if (umad_status_value == ETIMEDOUT) return;
  if (!is_response(received_.data()) || umad_status_value != 0) {
    ++stats_.ignored;  // not an answer to anything we sent
    return;
  }
  MadReply reply;
  reply.status = ReplyStatus::answered;
  read_answer(received_.data(), reply);
  reply.received = now;
  reply.tries = static_cast<int>(in_flight_[*slot].attempt) + 1;
  const std::size_t index = in_flight_[*slot].index;
  in_flight_.release(*slot);
  on_reply_(index, reply);
}

// Every try whose time is up: retried or ended.
void EngineRun::expire_tries(Clock::time_point now) {
  if (now < earliest_expiry_) return;
  // Found again on the way; a retry (send_try) lowers it for itself. A retry stays in its slot,
  // which for_each has passed: each try is looked at once.
  earliest_expiry_ = Clock::time_point::max();
  in_flight_.for_each([&](std::size_t slot, const Outstanding& item) {
    if (item.expires <= now)
      end_unanswered_try(slot, now);
    else
      earliest_expiry_ = std::min(earliest_expiry_, item.expires);
  });
}

// A run on a recording: each query in turn takes its recorded outcome (replies may add queries).
void replay_run(ReplaySource& replay, const MadEngine::QuerySource& queries,
                const MadEngine::OnReply& on_reply, EngineStats& stats) {
  for (std::size_t index = 0; index < queries.count(); ++index) {
    const MadReply reply = replay.answer(queries.at(index));
    stats.sent += static_cast<std::size_t>(reply.tries);
    if (reply.tries > 1) stats.retries += static_cast<std::size_t>(reply.tries - 1);
    on_reply(index, reply);
  }
}

}  // namespace

std::vector<MadReply> MadEngine::run(const std::vector<MadQuery>& queries,
                                     const EngineOptions& options) {
  std::vector<MadReply> replies(queries.size());
  std::vector<MadQuery> copy = queries;
  run(copy, options, [&](std::size_t index, const MadReply& reply) { replies[index] = reply; });
  return replies;
}

void MadEngine::run(std::vector<MadQuery>& queries, const EngineOptions& options,
                    const OnReply& on_reply) {
  run(QuerySource{[&queries] { return queries.size(); },
                  [&queries](std::size_t index) { return queries[index]; }},
      options, on_reply);
}

void MadEngine::run(const QuerySource& queries, const EngineOptions& options,
                    const OnReply& on_reply) {
  const auto start = Clock::now();
  if (replay_)
    replay_run(*replay_, queries, on_reply, stats_);
  else
    EngineRun(*port_, recorder_, queries, options, on_reply, stats_, last_tid_).run();
  if (recorder_) recorder_->flush();
  stats_.seconds += std::chrono::duration<double>(Clock::now() - start).count();
}

std::string describe_failure(const MadReply& reply) {
  switch (reply.status) {
    case ReplyStatus::timed_out:
      return "no answer after " + std::to_string(reply.tries) +
             (reply.tries == 1 ? " try" : " tries");
    case ReplyStatus::failed:
      return "MAD could not be sent";
    case ReplyStatus::cut:
      return "not answered before the deadline (-t)";
    case ReplyStatus::answered:
      break;
  }
  char text[32];
  std::snprintf(text, sizeof text, "MAD status 0x%04x", reply.mad_status);
  return text;
}

}  // namespace ibpm::mad
