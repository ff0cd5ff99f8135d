// SPDX-License-Identifier: MIT
// The directed-route SMPs of a discovery recorded and replayed without a fabric: a DR SMP's key
// (what it asks, never its transaction id) and description, its frame (the permissive LID both
// ways), a recording's DR SMPs filed apart from the engine's queries, and the umad tap answering
// libibumad's calls from them as libibnetdisc makes them: the request's transaction id written
// in, answers in the recorded order, a recorded timeout or a request the recording lacks handed
// back as a timeout (the latter named).
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <vector>

#include "mad/dr_smp.hpp"
#include "mad/ib_frame.hpp"
#include "mad/mad_link.hpp"
#include "mad/mad_packet.hpp"
#include "mad/pcap_library.hpp"
#include "mad/pcap_recorder.hpp"
#include "mad/replay_source.hpp"
#include "mad/smp.hpp"
#include "mad/umad_tap.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;
using namespace ibpm::mad;

namespace umad_tap_test {

using TapTime = std::chrono::system_clock::time_point;

TapTime tap_time(long ms) { return TapTime(std::chrono::milliseconds(1'800'000'000'000 + ms)); }

// A directed-route Get along `path` (the ports out of each hop), as libibnetdisc builds it
// (libibmad's mad_build_pkt), with transaction id `tid`.
Packet dr_request(const std::vector<int>& path, unsigned attribute, unsigned modifier,
                  std::uint64_t tid) {
  Packet packet{};
  ib_portid_t portid{};
  portid.drpath.cnt = static_cast<int>(path.size());
  for (std::size_t hop = 0; hop < path.size(); ++hop)
    portid.drpath.p[hop + 1] = static_cast<std::uint8_t>(path[hop]);
  ib_rpc_t rpc{};
  rpc.mgtclass = IB_SMI_DIRECT_CLASS;
  rpc.method = IB_MAD_METHOD_GET;
  rpc.attr.id = attribute;
  rpc.attr.mod = modifier;
  rpc.datasz = IB_SMP_DATA_SIZE;
  rpc.dataoffs = IB_SMP_DATA_OFFS;
  rpc.trid = tid;
  REQUIRE(mad_build_pkt(packet.data(), &rpc, &portid, nullptr, nullptr) > 0);
  return packet;
}

std::uint8_t* mad_of(Packet& packet) {
  return static_cast<std::uint8_t*>(umad_get_mad(packet.data()));
}

// Its answer as umad hands it over: GetResp, the direction bit set, the kernel's high TID bits,
// `fill` in the SMP data.
Packet dr_answer(Packet request, std::uint8_t fill) {
  std::uint8_t* mad = mad_of(request);
  mad[3] = 0x81;
  mad[4] |= 0x80;
  mad[11] = 0x01;
  std::fill(mad + 64, mad + 128, fill);
  return request;
}

std::uint64_t tid_of_mad(const std::uint8_t* mad) { return load_be64(mad + 8); }

void record_packet(PcapRecorder& recorder, const Packet& packet, Direction direction,
                   TapTime when) {
  recorder.record(packet.data(), kMadSize, direction, 0, when);
}

// A packet as the tap's umad_recv hands it over.
struct Received {
  int agent = -1;
  int status = 0;
  std::uint64_t tid = 0;
  std::uint8_t fill = 0;
  unsigned attribute = 0;
};

Received receive(int fd) {
  Packet packet{};
  int length = kMadSize;
  Received got;
  got.agent = umad_recv(fd, packet.data(), &length, 0);
  if (got.agent < 0) return got;
  const std::uint8_t* mad = mad_of(packet);
  got.status = umad_status(packet.data());
  got.tid = tid_of_mad(mad);
  got.fill = mad[64];
  got.attribute = load_be16(mad + 16);
  return got;
}

}  // namespace umad_tap_test

using namespace umad_tap_test;

TEST_CASE("A directed-route SMP is keyed by what it asks and named by its path") {
  Packet a = dr_request({1, 3}, IB_ATTR_NODE_INFO, 0, 100);
  Packet b = dr_request({1, 3}, IB_ATTR_NODE_INFO, 0, 0x55555555);
  Packet other_path = dr_request({1, 4}, IB_ATTR_NODE_INFO, 0, 100);
  Packet port = dr_request({2}, IB_ATTR_PORT_INFO, 5, 100);
  REQUIRE(is_directed_route(mad_of(a)));
  CHECK(routed_by_path_alone(mad_of(a)));  // libibmad writes the permissive DrSLID and DrDLID
  const DrSmpKey key = dr_smp_key(mad_of(a));
  CHECK(key.hops == 2);
  CHECK(key.path[1] == 1);
  CHECK(key.path[2] == 3);
  CHECK(key == dr_smp_key(mad_of(b)));  // the transaction id is not part of it
  CHECK_FALSE(key == dr_smp_key(mad_of(other_path)));
  CHECK(describe_dr_smp(key) == "NodeInfo Get by directed route 0,1,3");
  CHECK(describe_dr_smp(dr_smp_key(mad_of(port))) == "PortInfo Get by directed route 0,2, port 5");
  Packet description = dr_request({}, IB_ATTR_NODE_DESC, 0, 1);
  CHECK(describe_dr_smp(dr_smp_key(mad_of(description))) ==
        "NodeDescription Get by directed route 0");
}

TEST_CASE("A directed-route SMP is recorded from and to the permissive LID on QP0") {
  test::TempDir dir("umad-tap");
  const std::string path = dir / "dr.pcap";
  Packet request = dr_request({1}, IB_ATTR_NODE_INFO, 0, 7);
  // Whatever the umad address says (here LID 0), the frame holds the permissive LID.
  umad_set_addr(request.data(), 0, 0, 0, 0);
  {
    PcapRecorder recorder(path);
    record_packet(recorder, request, Direction::sent, tap_time(0));
  }
  char error[PCAP_ERRBUF_SIZE] = "";
  pcap_t* pcap = pcap_library().open_offline_with_tstamp_precision(
      path.c_str(), PCAP_TSTAMP_PRECISION_NANO, error);
  REQUIRE(pcap);
  pcap_pkthdr* header = nullptr;
  const u_char* bytes = nullptr;
  REQUIRE(pcap_library().next_ex(pcap, &header, &bytes) == 1);
  // The frame is a view into libpcap's buffer: read before the file is closed.
  const auto frame = parse_frame({bytes, header->caplen});
  REQUIRE(frame);
  CHECK(frame->address.dlid == kPermissiveLid);
  CHECK(frame->address.slid == kPermissiveLid);
  CHECK(frame->address.dest_qp == 0);
  CHECK(frame->address.src_qp == 0);
  CHECK(frame->mad[1] == kDirectedRouteClass);
  pcap_library().close(pcap);
}

TEST_CASE("A recorded discovery replays through the umad tap in the recorded order") {
  test::TempDir dir("umad-tap");
  const std::string path = dir / "discovery.pcap";
  const Packet self = dr_request({}, IB_ATTR_NODE_INFO, 0, 100);
  const Packet next = dr_request({1}, IB_ATTR_NODE_INFO, 0, 101);
  const Packet silent = dr_request({2}, IB_ATTR_NODE_INFO, 0, 102);
  const MadQuery counters = port_info_query(4, 1);
  {
    PcapRecorder recorder(path);
    // Two in flight, answered in the other order; one timed out after a second try under the
    // same transaction id; then a LID-routed query of the MAD engine from LID 3.
    record_packet(recorder, self, Direction::sent, tap_time(0));
    record_packet(recorder, next, Direction::sent, tap_time(1));
    record_packet(recorder, dr_answer(next, 0xbb), Direction::received, tap_time(2));
    record_packet(recorder, dr_answer(self, 0xaa), Direction::received, tap_time(3));
    record_packet(recorder, silent, Direction::sent, tap_time(4));
    record_packet(recorder, silent, Direction::sent, tap_time(5));
    Packet engine{};
    build_packet(counters, engine);
    set_tid(engine, 9);
    recorder.record(engine.data(), kMadSize, Direction::sent, 3, tap_time(6));
  }
  MadTap tap("", path);
  REQUIRE(tap.replay()->holds_discovery());
  CHECK(tap.replay()->local_lid() == 3);  // the engine's request, not a DR SMP's permissive LID

  UmadTapScope scope(&tap);
  const int fd = umad_open_port("mlx5_9", 1);  // no such HCA: nothing is opened in a replay
  REQUIRE(fd >= 0);
  CHECK(umad_register(fd, IB_SMI_CLASS, 1, 0, nullptr) == 0);
  const int agent = umad_register(fd, IB_SMI_DIRECT_CLASS, 1, 0, nullptr);
  CHECK(agent == 1);
  CHECK(umad_poll(fd, 0) < 0);  // nothing sent, nothing to receive

  // Other transaction ids than recorded (libibmad picks them at random).
  Packet ask_self = dr_request({}, IB_ATTR_NODE_INFO, 0, 0x1234000000007000);
  Packet ask_next = dr_request({1}, IB_ATTR_NODE_INFO, 0, 7001);
  CHECK(umad_send(fd, agent, ask_self.data(), kMadSize, 100, 0) == 0);
  CHECK(umad_send(fd, agent, ask_next.data(), kMadSize, 100, 0) == 0);
  CHECK(umad_poll(fd, 0) == 0);
  const Received first = receive(fd);
  const Received second = receive(fd);
  CHECK(first.agent == agent);
  CHECK(first.status == 0);
  CHECK(first.tid == 7001);  // answered first when recorded
  CHECK(first.fill == 0xbb);
  CHECK(second.tid == 0x1234000000007000);
  CHECK(second.fill == 0xaa);
  CHECK(receive(fd).agent < 0);  // nothing left

  // The recorded timeout: the request handed back with ETIMEDOUT, as the kernel does.
  Packet ask_silent = dr_request({2}, IB_ATTR_NODE_INFO, 0, 7002);
  CHECK(umad_send(fd, agent, ask_silent.data(), kMadSize, 100, 0) == 0);
  const Received timed_out = receive(fd);
  CHECK(timed_out.status == ETIMEDOUT);
  CHECK(timed_out.tid == 7002);
  CHECK(scope.missing().empty());

  // Asked again, the last answer stands.
  Packet again = dr_request({}, IB_ATTR_NODE_INFO, 0, 7003);
  CHECK(umad_send(fd, agent, again.data(), kMadSize, 100, 0) == 0);
  CHECK(receive(fd).fill == 0xaa);

  // A request nobody recorded: a timeout too, and named.
  Packet unknown = dr_request({1, 7}, IB_ATTR_PORT_INFO, 2, 7004);
  CHECK(umad_send(fd, agent, unknown.data(), kMadSize, 100, 0) == 0);
  CHECK(receive(fd).status == ETIMEDOUT);
  CHECK(scope.missing() == "--replay " + path +
                               ": the recording has no answer to PortInfo Get by directed route "
                               "0,1,7, port 2");
  CHECK(umad_close_port(fd) == 0);
}

TEST_CASE("Outside a tap's scope, and on ports opened before it, umad calls reach libibumad") {
  test::TempDir dir("umad-tap");
  const std::string path = dir / "empty.pcap";
  { PcapRecorder recorder(path); }
  MadTap tap("", path);
  CHECK_FALSE(tap.replay()->holds_discovery());
  Packet request = dr_request({}, IB_ATTR_NODE_INFO, 0, 1);
  {
    UmadTapScope scope(&tap);
    // A descriptor the scope did not open goes to libibumad, which knows no such port.
    CHECK(umad_send(100000, 0, request.data(), kMadSize, 100, 0) < 0);
  }
  // No scope: libibumad's umad_open_port, which finds no such HCA here.
  CHECK(umad_open_port("no-such-hca-for-the-tap", 1) < 0);
  // A tap that neither records nor replays taps nothing.
  MadTap idle("", "");
  UmadTapScope idle_scope(&idle);
  CHECK(umad_open_port("no-such-hca-for-the-tap", 1) < 0);
  CHECK(idle_scope.missing().empty());
}
