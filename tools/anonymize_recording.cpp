// SPDX-License-Identifier: MIT

#include "anonymize_recording.hpp"

#include <pcap/pcap.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>

#include "mad/ib_frame.hpp"
#include "mad/mad_engine.hpp"

namespace ibpm::tools {

namespace {

using mad::load_be16;
using mad::load_be64;

constexpr std::uint8_t kSubnetLid = 0x01;
constexpr std::uint8_t kSubnetDirected = 0x81;
constexpr std::uint8_t kSubnetAdmin = 0x03;
constexpr std::size_t kSmpData = 64;
constexpr std::size_t kSaData = 56;
constexpr std::size_t kDescriptionSize = 64;
constexpr std::uint16_t kNodeDescription = 0x0010;
constexpr std::uint16_t kNodeInfo = 0x0011;  // NodeRecord in the SA's class
constexpr std::uint16_t kSmInfo = 0x0020;
constexpr std::uint16_t kSmInfoRecord = 0x0018;
// In NodeInfo: SystemImageGUID, NodeGUID, PortGUID; NodeType at 1.
constexpr std::array<std::size_t, 3> kNodeInfoGuids{4, 12, 20};

struct PcapCloser {
  void operator()(pcap_t* pcap) const { pcap_close(pcap); }
};

void store_be64(std::uint8_t* at, std::uint64_t value) {
  for (int i = 7; i >= 0; --i, value >>= 8) at[i] = static_cast<std::uint8_t>(value);
}

std::string description_at(const std::uint8_t* at) {
  const auto* end = std::find(at, at + kDescriptionSize, std::uint8_t{0});
  return {reinterpret_cast<const char*>(at), static_cast<std::size_t>(end - at)};
}

NodeType node_type(std::uint8_t value) {
  return value >= 1 && value <= 3 ? static_cast<NodeType>(value) : NodeType::unknown;
}

// Where a MAD of 256 bytes keeps GUIDs and descriptions we know the place of: `guid(offset)`
// for each GUID, `description(offset, type)` for each 64-byte NodeDescription.
struct Places {
  std::function<void(std::size_t)> guid;
  std::function<void(std::size_t, NodeType)> description;
};

void visit_places(std::span<const std::uint8_t> mad, const Places& places) {
  if (mad.size() < mad::kMadSize) return;
  const std::uint8_t klass = mad[1];
  const std::uint8_t method = mad[3];
  const unsigned attribute = load_be16(mad.data() + 16);
  if ((method & 0x80) == 0) return;  // requests select, answers carry
  if (klass == kSubnetLid || klass == kSubnetDirected) {
    if (attribute == kNodeInfo)
      for (const std::size_t at : kNodeInfoGuids) places.guid(kSmpData + at);
    else if (attribute == kSmInfo)
      places.guid(kSmpData);
    else if (attribute == kNodeDescription)
      places.description(kSmpData, NodeType::unknown);
    return;
  }
  if (klass != kSubnetAdmin) return;
  // SA records, each AttributeOffset 8-byte words long, one after another in the data.
  const std::size_t record = std::size_t{load_be16(mad.data() + 44)} * 8;
  if (record == 0) return;
  for (std::size_t at = kSaData; at + record <= mad.size(); at += record) {
    if (attribute == kNodeInfo && record >= 4 + 40 + kDescriptionSize) {
      for (const std::size_t guid : kNodeInfoGuids) places.guid(at + 4 + guid);
      places.description(at + 4 + 40, node_type(mad[at + 4 + 1]));
    } else if (attribute == kSmInfoRecord && record >= 12) {
      places.guid(at + 4);
    }
  }
}

// Calls `packet(number, time in nanoseconds, frame)` for each packet of a recording; throws
// std::runtime_error naming the file and the packet when it is not a --record recording.
template <typename Packet>
void read_recording(const std::string& path, Packet&& packet) {
  char error[PCAP_ERRBUF_SIZE] = "";
  const std::unique_ptr<pcap_t, PcapCloser> pcap(
      pcap_open_offline_with_tstamp_precision(path.c_str(), PCAP_TSTAMP_PRECISION_NANO, error));
  if (!pcap) throw std::runtime_error(path + ": " + error);
  if (pcap_datalink(pcap.get()) != mad::kLinktypeErf)
    throw std::runtime_error(path + ": link type " + std::to_string(pcap_datalink(pcap.get())) +
                             ", not ERF (" + std::to_string(mad::kLinktypeErf) +
                             "): not a --record recording");
  for (std::size_t number = 1;; ++number) {
    pcap_pkthdr* header = nullptr;
    const u_char* bytes = nullptr;
    const int read = pcap_next_ex(pcap.get(), &header, &bytes);
    if (read == PCAP_ERROR_BREAK) return;
    const std::string at = path + ": packet " + std::to_string(number);
    if (read != 1) throw std::runtime_error(at + ": " + pcap_geterr(pcap.get()));
    if (header->caplen != header->len) throw std::runtime_error(at + " was cut when recorded");
    const auto frame = mad::parse_frame({bytes, header->caplen});
    if (!frame)
      throw std::runtime_error(at + " is not an InfiniBand MAD (ERF record, LRH, BTH, DETH)");
    const std::int64_t when =
        std::int64_t{header->ts.tv_sec} * 1000000000 + header->ts.tv_usec;  // nanoseconds
    packet(when, *frame);
  }
}

}  // namespace

void learn_recording(const std::string& path, AnonymousNames& names) {
  read_recording(path, [&](std::int64_t, const mad::ParsedFrame& frame) {
    const std::uint8_t* mad = frame.mad.data();
    visit_places(frame.mad, {.guid = [&](std::size_t at) { names.add_guid(load_be64(mad + at)); },
                             .description =
                                 [&](std::size_t at, NodeType type) {
                                   names.add_description(description_at(mad + at), type);
                                 }});
  });
}

std::size_t anonymize_recording(const std::string& path, const std::string& out_path,
                                const AnonymousNames& names) {
  const std::string temporary = out_path + ".partial";
  const std::unique_ptr<pcap_t, PcapCloser> dead(pcap_open_dead_with_tstamp_precision(
      mad::kLinktypeErf, mad::kMaxFrameSize, PCAP_TSTAMP_PRECISION_NANO));
  if (!dead) throw std::runtime_error(out_path + ": cannot start libpcap");
  pcap_dumper_t* dumper = pcap_dump_open(dead.get(), temporary.c_str());
  if (!dumper) throw std::runtime_error(out_path + ": " + pcap_geterr(dead.get()));
  std::size_t packets = 0;
  try {
    read_recording(path, [&](std::int64_t when, const mad::ParsedFrame& frame) {
      std::array<std::uint8_t, mad::kMadSize> mad{};
      std::copy(frame.mad.begin(), frame.mad.end(), mad.begin());
      const std::span<std::uint8_t> bytes(mad.data(), frame.mad.size());
      // Every GUID learnt, wherever it stands aligned after the common header.
      for (std::size_t at = mad::kMadHeaderSize; at + 8 <= bytes.size(); at += 4) {
        const std::optional<Guid> guid = names.guid(load_be64(bytes.data() + at));
        if (guid && *guid != 0) store_be64(bytes.data() + at, *guid);
      }
      visit_places(bytes, {.guid = [](std::size_t) {},
                           .description =
                               [&](std::size_t at, NodeType) {
                                 const auto name = names.name(description_at(&mad[at]));
                                 std::fill_n(&mad[at], kDescriptionSize, std::uint8_t{0});
                                 if (name)
                                   std::copy_n(name->data(),
                                               std::min(name->size(), kDescriptionSize - 1),
                                               &mad[at]);
                               }});
      mad::Frame out;
      const std::size_t size = mad::build_frame(frame.address, bytes, when, out);
      pcap_pkthdr header{};
      header.ts.tv_sec = static_cast<time_t>(when / 1000000000);
      header.ts.tv_usec = static_cast<suseconds_t>(when % 1000000000);  // nanoseconds here
      header.caplen = header.len = static_cast<bpf_u_int32>(size);
      pcap_dump(reinterpret_cast<u_char*>(dumper), &header, out.data());
      ++packets;
    });
  } catch (...) {
    pcap_dump_close(dumper);
    std::filesystem::remove(temporary);
    throw;
  }
  const bool flushed = pcap_dump_flush(dumper) == 0;
  const int flush_errno = errno;
  pcap_dump_close(dumper);
  if (!flushed) {
    std::filesystem::remove(temporary);
    throw std::runtime_error(out_path + ": cannot write: " + std::strerror(flush_errno));
  }
  std::filesystem::rename(temporary, out_path);
  return packets;
}

}  // namespace ibpm::tools
