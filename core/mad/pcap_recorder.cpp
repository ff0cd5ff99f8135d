// SPDX-License-Identifier: MIT

#include "mad/pcap_recorder.hpp"

#include <arpa/inet.h>
#include <infiniband/umad.h>
#include <pcap/pcap.h>

#include <cerrno>
#include <cstring>

#include "mad/dr_smp.hpp"
#include "mad/ib_frame.hpp"
#include "mad/pcap_library.hpp"
#include "mad/umad_port.hpp"

namespace ibpm::mad {

struct PcapRecorder::Handles {
  pcap_t* pcap = nullptr;
  pcap_dumper_t* dumper = nullptr;
  ~Handles() {
    if (dumper) pcap_library().dump_close(dumper);
    if (pcap) pcap_library().close(pcap);
  }
};

PcapRecorder::PcapRecorder(const std::string& path)
    : handles_(std::make_unique<Handles>()), path_(path) {
  // Nanosecond times: a replay's samples carry the times the live run gave them.
  handles_->pcap = pcap_library().open_dead_with_tstamp_precision(kLinktypeErf, kMaxFrameSize,
                                                                  PCAP_TSTAMP_PRECISION_NANO);
  if (!handles_->pcap) throw MadError("--record " + path + ": cannot start libpcap");
  // Appends to a pcap file of the same link type; refuses another link type or a file that is
  // not pcap (libpcap says which).
  handles_->dumper = pcap_library().dump_open_append(handles_->pcap, path.c_str());
  if (!handles_->dumper)
    throw MadError("--record " + path + ": " + pcap_library().geterr(handles_->pcap));
}

PcapRecorder::~PcapRecorder() = default;

void PcapRecorder::record(const std::uint8_t* umad_packet, std::size_t mad_length,
                          Direction direction, unsigned local_lid,
                          std::chrono::system_clock::time_point when) {
  auto* packet = const_cast<std::uint8_t*>(umad_packet);  // libibumad takes non-const pointers
  const auto* mad = static_cast<const std::uint8_t*>(umad_get_mad(packet));
  // Copied: the engine's packet buffers need not be aligned for ib_mad_addr_t.
  ib_mad_addr_t peer_address;
  std::memcpy(&peer_address, umad_get_mad_addr(packet), sizeof peer_address);
  const ib_mad_addr_t* peer = &peer_address;
  // Our end of the conversation: QP0 for SMPs (class 0x01 and 0x81), QP1 for the rest.
  const std::uint32_t local_qp = (mad[1] & 0x7f) == 0x01 ? 0 : 1;
  FrameAddress address;
  address.qkey = ntohl(peer->qkey);
  address.sl = peer->sl;
  if (direction == Direction::sent) {
    address.dlid = ntohs(peer->lid);
    address.slid = local_lid;
    address.dest_qp = ntohl(peer->qpn);
    address.src_qp = local_qp;
  } else {
    address.dlid = local_lid;
    address.slid = ntohs(peer->lid);
    address.dest_qp = local_qp;
    address.src_qp = ntohl(peer->qpn);
  }
  // A directed-route SMP routed by its path alone travels from and to the permissive LID, whatever
  // the umad address says (libibmad puts 0xffff there; what the transport hands back varies).
  if (is_directed_route(mad) && mad_length >= kDrSmpRequestSize && routed_by_path_alone(mad))
    address.dlid = address.slid = kPermissiveLid;
  const auto nanos =
      std::chrono::duration_cast<std::chrono::nanoseconds>(when.time_since_epoch()).count();
  Frame frame;
  const std::size_t size = build_frame(address, {mad, mad_length}, nanos, frame);
  pcap_pkthdr header{};
  header.ts.tv_sec = static_cast<time_t>(nanos / 1000000000);
  header.ts.tv_usec = static_cast<suseconds_t>(nanos % 1000000000);  // nanoseconds here
  header.caplen = header.len = static_cast<bpf_u_int32>(size);
  pcap_library().dump(reinterpret_cast<u_char*>(handles_->dumper), &header, frame.data());
  ++packets_;
}

void PcapRecorder::flush() {
  if (pcap_library().dump_flush(handles_->dumper) != 0)
    throw MadError("--record " + path_ + ": cannot write: " + std::strerror(errno));
}

}  // namespace ibpm::mad
