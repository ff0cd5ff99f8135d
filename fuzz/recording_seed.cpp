// SPDX-License-Identifier: MIT
// fuzz_recording_seed DIR: writes DIR/small.pcap, the seed of fuzz_recording: a recording as
// PcapRecorder writes it, of a PortCounters Get answered, a PortCountersExtended Get answered
// after a retry, a NodeInfo Get answered and a PortInfo Get that timed out.
#include <chrono>
#include <iostream>
#include <string>

#include "mad/mad_packet.hpp"
#include "mad/pcap_recorder.hpp"
#include "mad/pma.hpp"
#include "mad/smp.hpp"

using namespace ibpm::mad;

namespace {

constexpr unsigned kLocalLid = 1;

Packet request(const MadQuery& query, std::uint32_t tid) {
  Packet packet{};
  build_packet(query, packet);
  set_tid(packet, tid);
  return packet;
}

// The answer to `query`: method GetResp, attribute data filled with `fill`.
Packet response(const MadQuery& query, std::uint32_t tid, std::uint8_t fill) {
  Packet packet = request(query, tid);
  auto* mad = static_cast<std::uint8_t*>(umad_get_mad(packet.data()));
  mad[3] = 0x81;
  const std::size_t offset = data_offset(query.mgmt_class);
  for (std::size_t i = offset + 8; i < kMadSize; ++i) mad[i] = fill;
  return packet;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: fuzz_recording_seed DIR\n";
    return 2;
  }
  try {
    PcapRecorder recorder(std::string(argv[1]) + "/small.pcap");
    auto when = std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000));
    const auto write = [&](const Packet& packet, Direction direction) {
      when += std::chrono::milliseconds(1);
      recorder.record(packet.data(), kMadSize, direction, kLocalLid, when);
    };
    const MadQuery counters = port_counters_query(5, 1);
    const MadQuery extended = port_counters_extended_query(5, 1);
    const MadQuery node = node_info_query(5);
    const MadQuery port = port_info_query(5, 1);
    write(request(counters, 1), Direction::sent);
    write(request(extended, 2), Direction::sent);
    write(request(node, 3), Direction::sent);
    write(request(port, 4), Direction::sent);
    write(response(counters, 1, 0x11), Direction::received);
    write(request(extended, 5), Direction::sent);
    write(response(extended, 5, 0x22), Direction::received);
    write(response(node, 3, 0x33), Direction::received);
    recorder.flush();
  } catch (const MadError& e) {
    std::cerr << "fuzz_recording_seed: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
