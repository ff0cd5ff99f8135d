// SPDX-License-Identifier: MIT
// The record the OpenSM event plugin (events/opensm-plugin) sends for each trap OpenSM forwards:
// one AF_UNIX datagram of exactly kTrapRecordSize bytes. Every integer is big-endian (network
// order, as in the IBA Notice it comes from); offsets in bytes:
//
//   offset size  field
//        0    8  magic "IBPMTRAP"
//        8    2  version, 1
//       10    2  record size, 112
//       12    1  flags: bit 0 set for a generic notice (IsGeneric); bit 1 set for a heartbeat,
//                which carries no trap (trap number 0) but says the plugin is loaded and its
//                interval in seconds in details bytes 0-1; other bits 0
//       13    1  notice type (IBA Type, 7 bits: 0 fatal, 1 urgent, 2 security, 3 subnet
//                management, 4 informational)
//       14    2  trap number (generic notice) or device ID (vendor notice)
//       16    4  producer type (generic: low 24 bits, 1 CA, 2 switch, 3 router, 4 class
//                manager) or vendor ID (vendor notice: low 24 bits); high byte 0
//       20    2  issuer LID
//       22    2  NoticeToggle (bit 15) and NoticeCount (bits 0-14), as the Notice has them
//       24    8  send time: CLOCK_REALTIME in nanoseconds since the epoch, when the plugin sent it
//       32    4  sequence: traps the plugin was handed since OpenSM loaded it, this one included
//                (a gap means datagrams were lost)
//       36    4  dropped: datagrams the plugin could not send before this one (no listener,
//                queue full), since it was loaded
//       40   16  issuer GID (raw, as in the Notice)
//       56   54  data details (raw, as in the Notice: for trap 128 the switch's LID in bytes 0-1)
//      110    2  reserved, 0
//      112       end
//
// The plugin is C; this header is the layout's reference for C++ and decode_trap_record its reader.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace ibpm::events {

inline constexpr std::string_view kTrapMagic = "IBPMTRAP";
inline constexpr std::uint16_t kTrapRecordVersion = 1;
inline constexpr std::size_t kTrapRecordSize = 112;
inline constexpr std::size_t kTrapDetailsSize = 54;

struct TrapRecord {
  bool generic = true;              // a generic notice (else vendor: trap_number is a device ID)
  bool heartbeat = false;           // no trap: the plugin says it is there (details_u16(0): s)
  std::uint8_t type = 0;            // the notice's Type (7 bits)
  std::uint16_t trap_number = 0;    // or the vendor notice's device ID
  std::uint32_t producer_type = 0;  // or the vendor notice's vendor ID (24 bits)
  std::uint16_t issuer_lid = 0;
  std::uint16_t toggle_count = 0;  // NoticeToggle (bit 15), NoticeCount (bits 0-14)
  std::uint64_t sent_ns = 0;       // CLOCK_REALTIME at the plugin's send
  std::uint32_t sequence = 0;      // 1 for the first trap the plugin saw
  std::uint32_t dropped = 0;       // what the plugin could not send before this one
  std::array<std::uint8_t, 16> issuer_gid{};
  std::array<std::uint8_t, kTrapDetailsSize> details{};

  // The big-endian 16 bits at `offset` (0 to 52) of the details: 0 for trap 128's switch LID,
  // 2 for the LID of traps 129-131, 144 and 145.
  std::uint16_t details_u16(std::size_t offset) const;
  bool operator==(const TrapRecord&) const = default;
};

// The record in `datagram`; nullopt for anything else: another magic, another version, another
// size field, a datagram shorter or longer than kTrapRecordSize, flag bits or reserved bytes set.
std::optional<TrapRecord> decode_trap_record(std::span<const std::uint8_t> datagram);

// The record as the plugin writes it (for tests and tools that stand in for the plugin).
std::array<std::uint8_t, kTrapRecordSize> encode_trap_record(const TrapRecord& record);

}  // namespace ibpm::events
