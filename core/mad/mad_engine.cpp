#include "mad/mad_engine.hpp"

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <unordered_map>

namespace ibpm::mad {

namespace {

using Clock = std::chrono::steady_clock;

// One query on its way: its packet, its retry schedule and where it stands in it.
struct Outstanding {
  std::size_t index = 0;                 // into the caller's queries
  std::vector<std::uint8_t> packet;      // umad header + MAD, built once
  int length = 0;                        // MAD bytes to send
  std::vector<Milliseconds> schedule;    // each try's wait
  std::size_t attempt = 0;               // the try in flight
  std::size_t send_failures = 0;         // tries the port refused to send
  Clock::time_point expires;
};

int data_size(MgmtClass mgmt_class) {
  return mgmt_class == MgmtClass::subnet ? IB_SMP_DATA_SIZE : IB_PC_DATA_SZ;
}

// Encodes the query with libibmad's packet builder; the transaction id is set per try.
std::vector<std::uint8_t> build_packet(const MadQuery& query, int& length) {
  std::vector<std::uint8_t> packet(umad_size() + kMadSize, 0);
  ib_rpc_t rpc{};
  rpc.mgtclass = static_cast<int>(query.mgmt_class);
  rpc.method = static_cast<int>(query.method);
  rpc.attr.id = query.attribute;
  rpc.attr.mod = query.modifier;
  rpc.dataoffs = kMadDataOffset;
  rpc.datasz = data_size(query.mgmt_class);
  rpc.trid = 1;  // replaced before each send; nonzero keeps libibmad's own counter untouched

  ib_portid_t destination{};
  destination.lid = static_cast<int>(query.lid);
  if (query.mgmt_class == MgmtClass::performance) {
    destination.qp = 1;
    destination.qkey = IB_DEFAULT_QP1_QKEY;
  }
  MadData data = query.data;
  length = mad_build_pkt(packet.data(), &rpc, &destination, nullptr, data.data());
  if (length < 0) throw MadError("cannot encode a MAD for LID " + std::to_string(query.lid));
  return packet;
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
  std::deque<std::size_t> waiting;
  for (std::size_t i = 0; i < queries.size(); ++i) waiting.push_back(i);
  std::unordered_map<std::uint32_t, Outstanding> in_flight;  // by transaction id (low 32 bits)
  const std::size_t window = std::max<std::size_t>(1, options.window);
  std::vector<std::uint8_t> received(umad_size() + kMadSize);

  auto send_try = [&](Outstanding&& item, Clock::time_point now) {
    const std::uint32_t tid = ++next_tid_ == 0 ? ++next_tid_ : next_tid_;
    void* mad = umad_get_mad(item.packet.data());
    mad_set_field64(mad, 0, IB_MAD_TRID_F, tid);
    const Milliseconds wait = item.schedule[item.attempt];
    const MadQuery& query = queries[item.index];
    ++replies[item.index].tries;
    if (item.attempt > 0) ++stats_.retries;
    // The kernel keeps its own timer for the try (and reports ETIMEDOUT); ours covers
    // transports that never report one. A send the port refuses is a lost try: the next one
    // goes out on schedule.
    if (umad_send(port_.fd(), port_.agent(query.mgmt_class), item.packet.data(), item.length,
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
    if (++item.attempt < item.schedule.size() &&
        (!options.deadline || now < *options.deadline)) {
      send_try(std::move(item), now);
    } else {
      replies[item.index].status =
          item.send_failures == item.attempt ? ReplyStatus::failed : ReplyStatus::timed_out;
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
    MadReply& reply = replies[it->second.index];
    reply.status = ReplyStatus::answered;
    reply.mad_status = static_cast<std::uint16_t>(mad_get_field(mad, 0, IB_MAD_STATUS_F));
    std::memcpy(reply.data.data(), static_cast<std::uint8_t*>(mad) + kMadDataOffset,
                reply.data.size());
    reply.received = std::chrono::system_clock::now();
    in_flight.erase(it);
  };

  while (!waiting.empty() || !in_flight.empty()) {
    Clock::time_point now = Clock::now();
    if (options.deadline && now >= *options.deadline) {
      for (auto& [tid, item] : in_flight) replies[item.index].status = ReplyStatus::timed_out;
      for (std::size_t index : waiting) replies[index].status = ReplyStatus::timed_out;
      in_flight.clear();
      waiting.clear();
      break;
    }
    while (in_flight.size() < window && !waiting.empty()) {
      Outstanding item;
      item.index = waiting.front();
      waiting.pop_front();
      try {
        item.packet = build_packet(queries[item.index], item.length);
      } catch (const MadError&) {
        replies[item.index].status = ReplyStatus::failed;
        continue;
      }
      std::optional<Milliseconds> budget;
      if (options.deadline)
        budget = std::chrono::duration_cast<Milliseconds>(*options.deadline - now);
      item.schedule = backoff_schedule(options.backoff, options.jitter, budget);
      if (item.schedule.empty()) {
        replies[item.index].status = ReplyStatus::timed_out;
        continue;
      }
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
  return replies;
}

std::string describe_failure(const MadReply& reply) {
  switch (reply.status) {
    case ReplyStatus::timed_out:
      return "no answer after " + std::to_string(reply.tries) +
             (reply.tries == 1 ? " try" : " tries");
    case ReplyStatus::failed:
      return "MAD could not be sent";
    case ReplyStatus::answered:
      break;
  }
  char text[32];
  std::snprintf(text, sizeof text, "MAD status 0x%04x", reply.mad_status);
  return text;
}

}  // namespace ibpm::mad
