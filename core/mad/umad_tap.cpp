// SPDX-License-Identifier: MIT
// The umad_* functions libibnetdisc and libibmad call, defined here (see umad_tap.hpp): tapped
// while a UmadTapScope lives, libibumad's own (found with dlsym(RTLD_NEXT)) otherwise.

#include "mad/umad_tap.hpp"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <infiniband/umad.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <vector>

#include "mad/dr_smp.hpp"
#include "mad/ib_frame.hpp"
#include "mad/mad_link.hpp"
#include "mad/pcap_recorder.hpp"
#include "mad/replay_source.hpp"

namespace ibpm::mad {

namespace {

// The umad header the MAD follows: umad_size(), which is shorter (no P_Key index) until libibumad
// has opened a port that takes the newer layout, as it never does in a replay.
std::size_t header_size() { return std::min(umad_size(), sizeof(ib_user_mad_t)); }
constexpr std::uint64_t kLast = std::numeric_limits<std::uint64_t>::max();

// libibumad's functions, as the libraries would have called them.
struct Libumad {
  decltype(&::umad_init) init = nullptr;
  decltype(&::umad_open_port) open_port = nullptr;
  decltype(&::umad_close_port) close_port = nullptr;
  decltype(&::umad_register) register_agent = nullptr;
  decltype(&::umad_send) send = nullptr;
  decltype(&::umad_recv) recv = nullptr;
  decltype(&::umad_poll) poll = nullptr;
};

template <typename Function>
void find_next(Function& function, const char* name) {
  function = reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

const Libumad& libumad() {
  static const Libumad functions = [] {
    Libumad found;
    find_next(found.init, "umad_init");
    find_next(found.open_port, "umad_open_port");
    find_next(found.close_port, "umad_close_port");
    find_next(found.register_agent, "umad_register");
    find_next(found.send, "umad_send");
    find_next(found.recv, "umad_recv");
    find_next(found.poll, "umad_poll");
    return found;
  }();
  return functions;
}

// A failure as libibumad gives one: errno set, its negation returned.
int fail(int error) {
  errno = error;
  return -error;
}

// An answer a replayed port has for its next umad_recv: umad header and MAD.
struct Pending {
  std::uint64_t order = 0;  // its place in the recording: the earliest is received first
  int agent = 0;
  std::vector<std::uint8_t> packet;
};

struct TappedPort {
  unsigned lid = 0;            // recording: the port's LID, the source of LID-routed requests
  int next_agent = 0;          // replay: the agent ids umad_register hands out
  std::vector<Pending> ready;  // replay: the answers to the requests sent
};

struct Tap {
  PcapRecorder* recorder = nullptr;
  ReplaySource* replay = nullptr;
  std::mutex mutex;
  std::map<int, TappedPort> ports;  // the ports opened under the scope, by descriptor
  std::string missing;
  std::string record_failure;
};

std::atomic<Tap*> active_tap{nullptr};

// The answer the recording holds for a LID-routed request (libibnetdisc sends these only when
// told to start from a LID): found by the MAD engine's key, made of the request's header with
// the recorded status and data. False: it timed out when recorded.
bool lid_routed_answer(ReplaySource& replay, const std::uint8_t* request, std::size_t length,
                       const ib_mad_addr_t& address, std::uint8_t* answer) {
  MadQuery query;
  query.lid = ntohs(address.lid);
  query.mgmt_class = static_cast<MgmtClass>(request[1]);
  query.method = static_cast<MadMethod>(request[3]);
  query.attribute = static_cast<std::uint16_t>(load_be16(request + 16));
  query.modifier = load_be32(request + 20);
  query.component_mask = length >= 56 ? load_be64(request + 48) : 0;
  const std::size_t offset = data_offset(query.mgmt_class);
  if (length > offset)
    std::copy_n(request + offset, std::min(query.data.size(), length - offset), query.data.begin());
  const MadReply reply = replay.answer(query);
  if (reply.status != ReplyStatus::answered) return false;
  std::copy_n(request, std::min(offset, length), answer);
  // GetResp answers a Get or a Set; GetTableResp a GetTable.
  answer[3] = request[3] == static_cast<std::uint8_t>(MadMethod::get_table) ? 0x92 : 0x81;
  answer[4] = static_cast<std::uint8_t>(reply.mad_status >> 8);
  answer[5] = static_cast<std::uint8_t>(reply.mad_status);
  std::copy_n(reply.data.begin(), std::min(reply.data.size(), kMadSize - offset), answer + offset);
  return true;
}

// A request sent on a replayed port: its answer made ready (or, as the kernel does when a
// request times out, the request handed back with status ETIMEDOUT: one recorded as timed out,
// or one the recording lacks).
int replay_send(Tap& tap, TappedPort& port, int agent, const std::uint8_t* packet, int length) {
  if (length < static_cast<int>(kMadHeaderSize) || length > static_cast<int>(kMadSize))
    return fail(EINVAL);
  const std::size_t header_bytes = header_size();
  const std::uint8_t* request = packet + header_bytes;
  const auto size = static_cast<std::size_t>(length);
  ib_user_mad_t header{};
  std::memcpy(&header, packet, header_bytes);
  Pending pending;
  pending.agent = agent;
  pending.packet.assign(header_bytes + kMadSize, 0);
  std::uint8_t* answer = pending.packet.data() + header_bytes;
  bool answered = false;
  try {
    if (is_directed_route(request)) {
      if (size < kDrSmpRequestSize) return fail(EINVAL);
      const ReplaySource::RecordedAnswer recorded = tap.replay->answer_smp(request);
      answered = recorded.answered;
      if (answered) {
        std::copy(recorded.mad.begin(), recorded.mad.end(), answer);
        pending.order = recorded.order;
        header.addr = ib_mad_addr_t{};
        header.addr.lid = htons(static_cast<std::uint16_t>(recorded.slid));
        header.addr.qpn = htonl(recorded.src_qp);
      }
    } else {
      answered = lid_routed_answer(*tap.replay, request, size, header.addr, answer);
      pending.order = 0;  // the engine's answers carry no order: at once
    }
  } catch (const ReplayMissing& e) {
    // Handed back as a timeout: libibnetdisc's discovery goes on without it (a failed send
    // would leave it freeing its queues twice), and the caller reports it when it ends.
    if (tap.missing.empty()) tap.missing = e.what();
    answered = false;
  }
  if (answered) {
    std::copy_n(request + 8, 8, answer + 8);  // the request's transaction id
  } else {
    std::copy_n(request, size, answer);
    pending.order = kLast;
  }
  header.agent_id = static_cast<std::uint32_t>(agent);
  header.status = answered ? 0 : ETIMEDOUT;
  header.length = static_cast<std::uint32_t>(header_bytes + kMadSize);
  std::memcpy(pending.packet.data(), &header, header_bytes);
  port.ready.push_back(std::move(pending));
  return 0;
}

// The next answer of a replayed port, in the order the recording received them.
int replay_recv(TappedPort& port, void* umad, int* length) {
  if (!umad || !length || *length < 0) return fail(EINVAL);
  // Every request sent has its answer ready: none left means none will come.
  if (port.ready.empty()) return fail(ETIMEDOUT);
  const auto next =
      std::min_element(port.ready.begin(), port.ready.end(),
                       [](const Pending& a, const Pending& b) { return a.order < b.order; });
  const std::size_t mad = std::min(static_cast<std::size_t>(*length), kMadSize);
  std::memcpy(umad, next->packet.data(), std::min(next->packet.size(), header_size() + mad));
  *length = static_cast<int>(mad);
  const int agent = next->agent;
  port.ready.erase(next);
  return agent;
}

// A packet of a recorded port written to the recording (under the tap's lock). A recording that
// fails (disk full) stops there and is reported when the scope ends: no exception may cross back
// into libibnetdisc's C.
void record(Tap& tap, const TappedPort& port, const void* umad, int length, Direction direction) {
  if (!tap.recorder || length <= 0) return;
  try {
    tap.recorder->record(static_cast<const std::uint8_t*>(umad), static_cast<std::size_t>(length),
                         direction, port.lid, std::chrono::system_clock::now());
  } catch (const std::exception& e) {
    tap.record_failure = e.what();
    tap.recorder = nullptr;
  }
}

// The tap and the port when `fd` was opened under the scope.
std::pair<Tap*, TappedPort*> tapped(int fd) {
  Tap* tap = active_tap.load(std::memory_order_acquire);
  if (!tap) return {nullptr, nullptr};
  std::lock_guard lock(tap->mutex);
  const auto port = tap->ports.find(fd);
  if (port == tap->ports.end()) return {tap, nullptr};
  return {tap, &port->second};
}

}  // namespace

UmadTapScope::UmadTapScope(MadTap* tap) {
  if (!tap || (!tap->recorder() && !tap->replay())) return;
  auto state = std::make_unique<Tap>();
  state->recorder = tap->recorder();
  state->replay = tap->replay();
  Tap* expected = nullptr;
  if (active_tap.compare_exchange_strong(expected, state.get(), std::memory_order_acq_rel)) {
    state.release();
    active_ = true;
  }
}

UmadTapScope::~UmadTapScope() {
  if (!active_) return;
  Tap* tap = active_tap.exchange(nullptr, std::memory_order_acq_rel);
  // A replayed port left open: its descriptor is ours to close (a recorded one is the caller's).
  if (tap->replay)
    for (const auto& port : tap->ports) ::close(port.first);
  delete tap;
}

std::string UmadTapScope::missing() const {
  if (!active_) return {};
  Tap* tap = active_tap.load(std::memory_order_acquire);
  std::lock_guard lock(tap->mutex);
  return tap->missing;
}

std::string UmadTapScope::record_failure() const {
  if (!active_) return {};
  Tap* tap = active_tap.load(std::memory_order_acquire);
  std::lock_guard lock(tap->mutex);
  return tap->record_failure;
}

}  // namespace ibpm::mad

using ibpm::mad::Tap;
using ibpm::mad::TappedPort;

extern "C" {

int umad_init(void) {
  const Tap* tap = ibpm::mad::active_tap.load(std::memory_order_acquire);
  if (tap && tap->replay) return 0;  // no device to look at
  if (!ibpm::mad::libumad().init) return -1;
  return ibpm::mad::libumad().init();
}

int umad_open_port(const char* ca_name, int portnum) {
  Tap* tap = ibpm::mad::active_tap.load(std::memory_order_acquire);
  if (!tap) {
    if (!ibpm::mad::libumad().open_port) return ibpm::mad::fail(ENOSYS);
    return ibpm::mad::libumad().open_port(ca_name, portnum);
  }
  try {
    TappedPort port;
    int fd = -1;
    if (tap->replay) {
      // A descriptor of our own stands for the port: nothing of the fabric is opened.
      fd = eventfd(0, EFD_CLOEXEC);
      if (fd < 0) return ibpm::mad::fail(errno);
    } else {
      if (!ibpm::mad::libumad().open_port) return ibpm::mad::fail(ENOSYS);
      fd = ibpm::mad::libumad().open_port(ca_name, portnum);
      if (fd < 0) return fd;
      umad_port_t info{};
      if (umad_get_port(ca_name, portnum, &info) == 0) {
        port.lid = info.base_lid;
        umad_release_port(&info);
      }
    }
    std::lock_guard lock(tap->mutex);
    tap->ports[fd] = std::move(port);
    return fd;
  } catch (...) {
    return ibpm::mad::fail(ENOMEM);
  }
}

int umad_close_port(int portid) {
  auto [tap, port] = ibpm::mad::tapped(portid);
  if (port) {
    const bool replayed = tap->replay != nullptr;
    {
      std::lock_guard lock(tap->mutex);
      tap->ports.erase(portid);
    }
    if (replayed) return ::close(portid) == 0 ? 0 : ibpm::mad::fail(errno);
  }
  if (!ibpm::mad::libumad().close_port) return ibpm::mad::fail(ENOSYS);
  return ibpm::mad::libumad().close_port(portid);
}

int umad_register(int portid, int mgmt_class, int mgmt_version, uint8_t rmpp_version,
                  long method_mask[16 / sizeof(long)]) {
  auto [tap, port] = ibpm::mad::tapped(portid);
  if (port && tap->replay) {
    std::lock_guard lock(tap->mutex);
    return port->next_agent++;
  }
  if (!ibpm::mad::libumad().register_agent) return ibpm::mad::fail(ENOSYS);
  return ibpm::mad::libumad().register_agent(portid, mgmt_class, mgmt_version, rmpp_version,
                                             method_mask);
}

int umad_send(int portid, int agentid, void* umad, int length, int timeout_ms, int retries) {
  auto [tap, port] = ibpm::mad::tapped(portid);
  if (port && tap->replay) {
    try {
      std::lock_guard lock(tap->mutex);
      return ibpm::mad::replay_send(*tap, *port, agentid, static_cast<std::uint8_t*>(umad), length);
    } catch (...) {
      return ibpm::mad::fail(ENOMEM);
    }
  }
  if (!ibpm::mad::libumad().send) return ibpm::mad::fail(ENOSYS);
  const int sent = ibpm::mad::libumad().send(portid, agentid, umad, length, timeout_ms, retries);
  if (port && sent >= 0) {
    std::lock_guard lock(tap->mutex);
    ibpm::mad::record(*tap, *port, umad, length, ibpm::mad::Direction::sent);
  }
  return sent;
}

int umad_recv(int portid, void* umad, int* length, int timeout_ms) {
  auto [tap, port] = ibpm::mad::tapped(portid);
  if (port && tap->replay) {
    std::lock_guard lock(tap->mutex);
    return ibpm::mad::replay_recv(*port, umad, length);
  }
  if (!ibpm::mad::libumad().recv) return ibpm::mad::fail(ENOSYS);
  const int agent = ibpm::mad::libumad().recv(portid, umad, length, timeout_ms);
  // What arrived (not the requests the transport hands back as timed out).
  if (port && agent >= 0 && umad_status(umad) == 0) {
    std::lock_guard lock(tap->mutex);
    ibpm::mad::record(*tap, *port, umad, *length, ibpm::mad::Direction::received);
  }
  return agent;
}

int umad_poll(int portid, int timeout_ms) {
  auto [tap, port] = ibpm::mad::tapped(portid);
  if (port && tap->replay) {
    std::lock_guard lock(tap->mutex);
    return port->ready.empty() ? ibpm::mad::fail(ETIMEDOUT) : 0;
  }
  if (!ibpm::mad::libumad().poll) return ibpm::mad::fail(ENOSYS);
  return ibpm::mad::libumad().poll(portid, timeout_ms);
}

}  // extern "C"
