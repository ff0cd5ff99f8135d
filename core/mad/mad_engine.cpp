// SPDX-License-Identifier: MIT

#include "mad/mad_engine.hpp"

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unordered_map>

namespace ibpm::mad {

namespace {

using Clock = std::chrono::steady_clock;

// A umad header and a MAD: held in place, so a query costs no allocation of its own.
using Packet = std::array<std::uint8_t, sizeof(ib_user_mad_t) + kMadSize>;

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

int data_size(MgmtClass mgmt_class) {
  switch (mgmt_class) {
    case MgmtClass::subnet:
      return IB_SMP_DATA_SIZE;
    case MgmtClass::subnet_admin:
      return IB_SA_DATA_SIZE;
    case MgmtClass::performance:
      break;
  }
  return IB_PC_DATA_SZ;
}

// Encodes the query with libibmad's packet builder; the transaction id is set per try.
void build_packet(const MadQuery& query, Packet& packet, int& length) {
  packet.fill(0);
  ib_rpc_t rpc{};
  rpc.mgtclass = static_cast<int>(query.mgmt_class);
  rpc.method = static_cast<int>(query.method);
  rpc.attr.id = query.attribute;
  rpc.attr.mod = query.modifier;
  rpc.dataoffs = static_cast<int>(data_offset(query.mgmt_class));
  rpc.datasz = data_size(query.mgmt_class);
  rpc.mask = query.component_mask;
  rpc.trid = 1;  // replaced before each send; nonzero keeps libibmad's own counter untouched

  ib_portid_t destination{};
  destination.lid = static_cast<int>(query.lid);
  if (query.mgmt_class != MgmtClass::subnet) {
    destination.qp = 1;
    destination.qkey = IB_DEFAULT_QP1_QKEY;
  }
  // libibmad copies rpc.datasz bytes from here: the SA's data area (200 bytes from byte 56) is
  // longer than a MadData, so the query's data goes into a buffer of a whole MAD.
  std::array<std::uint8_t, kMadSize> data{};
  std::copy(query.data.begin(), query.data.end(), data.begin());
  length = mad_build_pkt(packet.data(), &rpc, &destination, nullptr, data.data());
  if (length < 0) throw MadError("cannot encode a MAD for LID " + std::to_string(query.lid));
}

int milliseconds_until(Clock::time_point when, Clock::time_point now) {
  if (when <= now) return 0;
  // Round up so a poll never returns just before the expiry it waits for.
  return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(when - now).count());
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
  std::size_t next = 0;                                      // the first query not sent yet
  std::unordered_map<std::uint32_t, Outstanding> in_flight;  // by transaction id (low 32 bits)
  const std::size_t window = std::max<std::size_t>(1, options.window);
  std::vector<std::uint8_t> received(umad_size() + kMadSize);

  // A query that ended: its reply goes to the caller (who may add queries).
  auto finish = [&](std::size_t index, ReplyStatus status, int tries) {
    MadReply reply;
    reply.status = status;
    reply.tries = tries;
    on_reply(index, reply);
  };

  auto send_try = [&](Outstanding&& item, Clock::time_point now) {
    const std::uint32_t tid = ++next_tid_ == 0 ? ++next_tid_ : next_tid_;
    void* mad = umad_get_mad(item.packet.data());
    mad_set_field64(mad, 0, IB_MAD_TRID_F, tid);
    const Milliseconds wait = item.wait;
    if (item.attempt > 0) ++stats_.retries;
    // The kernel keeps its own timer for the try (and reports ETIMEDOUT); ours covers
    // transports that never report one. A send the port refuses is a lost try: the next one
    // goes out on schedule.
    if (umad_send(port_.fd(), port_.agent(item.mgmt_class), item.packet.data(), item.length,
                  static_cast<int>(wait.count()), 0) < 0)
      ++item.send_failures;
    else
      ++stats_.sent;
    item.expires = now + wait;
    in_flight.emplace(tid, std::move(item));
  };

  // A try is over without an answer: the next try, or the end of this query.
  auto give_up_try = [&](std::unordered_map<std::uint32_t, Outstanding>::iterator it,
                         Clock::time_point now) {
    Outstanding item = std::move(it->second);
    in_flight.erase(it);
    item.used += item.wait;
    ++item.attempt;
    const auto wait = next_wait(options.backoff, static_cast<int>(item.attempt), item.used,
                                item.total, options.jitter);
    const bool more = wait.has_value();
    if (more && (!options.deadline || now < *options.deadline)) {
      item.wait = *wait;
      send_try(std::move(item), now);
    } else if (more || item.clipped) {
      // The deadline, not the schedule, ended it: nothing is known about the node.
      finish(item.index, ReplyStatus::cut, static_cast<int>(item.attempt));
    } else {
      finish(item.index,
             item.send_failures == item.attempt ? ReplyStatus::failed : ReplyStatus::timed_out,
             static_cast<int>(item.attempt));
    }
  };

  auto take_reply = [&](std::uint32_t tid, int umad_status_value) {
    auto it = in_flight.find(tid);
    if (it == in_flight.end()) {
      ++stats_.ignored;
      return;
    }
    if (umad_status_value == ETIMEDOUT) {
      // The try is lost, but the next one still waits for its turn in the backoff schedule:
      // transports that report losses at once (ibsim) must not spend the schedule in a burst.
      return;
    }
    void* mad = umad_get_mad(received.data());
    if (!mad_get_field(mad, 0, IB_MAD_RESPONSE_F) || umad_status_value != 0) {
      ++stats_.ignored;  // not an answer to anything we sent
      return;
    }
    MadReply reply;
    reply.status = ReplyStatus::answered;
    reply.mad_status = static_cast<std::uint16_t>(mad_get_field(mad, 0, IB_MAD_STATUS_F));
    const auto klass = static_cast<MgmtClass>(mad_get_field(mad, 0, IB_MAD_MGMTCLASS_F));
    std::memcpy(reply.data.data(), static_cast<std::uint8_t*>(mad) + data_offset(klass),
                reply.data.size());
    reply.received = std::chrono::system_clock::now();
    reply.tries = static_cast<int>(it->second.attempt) + 1;
    const std::size_t index = it->second.index;
    in_flight.erase(it);
    on_reply(index, reply);
  };

  while (next < queries.count() || !in_flight.empty()) {
    Clock::time_point now = Clock::now();
    if (options.deadline && now >= *options.deadline) {
      // Everything still under way ends now; replies to these may add queries, which end too.
      std::vector<std::pair<std::size_t, int>> cut;
      for (auto& [tid, item] : in_flight) cut.emplace_back(item.index, item.attempt + 1);
      in_flight.clear();
      std::sort(cut.begin(), cut.end());
      for (auto [index, tries] : cut) finish(index, ReplyStatus::cut, tries);
      while (next < queries.count()) finish(next++, ReplyStatus::cut, 0);
      break;
    }
    while (in_flight.size() < window && next < queries.count()) {
      Outstanding item;
      item.index = next++;
      const MadQuery query = queries.at(item.index);
      item.mgmt_class = query.mgmt_class;
      try {
        build_packet(query, item.packet, item.length);
      } catch (const MadError&) {
        finish(item.index, ReplyStatus::failed, 0);
        continue;
      }
      std::optional<Milliseconds> budget;
      if (options.deadline)
        budget = std::chrono::duration_cast<Milliseconds>(*options.deadline - now);
      item.total = schedule_total(options.backoff, budget);
      // A schedule always fills timeout x retries unless the deadline leaves less.
      item.clipped = item.total < schedule_total(options.backoff, std::nullopt);
      const auto first = next_wait(options.backoff, 0, Milliseconds{0}, item.total, options.jitter);
      if (!first) {
        finish(item.index, ReplyStatus::cut, 0);
        continue;
      }
      item.wait = *first;
      send_try(std::move(item), now);
    }
    if (in_flight.empty()) continue;

    auto first = std::min_element(in_flight.begin(), in_flight.end(), [](auto& a, auto& b) {
      return a.second.expires < b.second.expires;
    });
    Clock::time_point wake = first->second.expires;
    if (options.deadline) wake = std::min(wake, *options.deadline);
    if (umad_poll(port_.fd(), milliseconds_until(wake, now)) == 0) {
      // Drain everything that is ready before looking at the clock again.
      for (;;) {
        int length = kMadSize;
        const int agent = umad_recv(port_.fd(), received.data(), &length, 0);
        if (agent < 0) break;
        void* mad = umad_get_mad(received.data());
        const auto tid = static_cast<std::uint32_t>(mad_get_field64(mad, 0, IB_MAD_TRID_F));
        take_reply(tid, umad_status(received.data()));
        // Queries a reply added go out before we wait again.
        if (in_flight.size() < window && next < queries.count()) break;
        if (umad_poll(port_.fd(), 0) != 0) break;
      }
    }
    now = Clock::now();
    // Collected first: a retry inserts into in_flight, which may rehash it.
    std::vector<std::uint32_t> expired;
    for (const auto& [tid, item] : in_flight)
      if (item.expires <= now) expired.push_back(tid);
    for (std::uint32_t tid : expired) give_up_try(in_flight.find(tid), now);
  }
}

std::size_t data_offset(MgmtClass mgmt_class) {
  return mgmt_class == MgmtClass::subnet_admin ? IB_SA_DATA_OFFS : kMadDataOffset;
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
