// SPDX-License-Identifier: MIT
#include "events/trap_record.hpp"

#include <algorithm>
#include <stdexcept>

namespace ibpm::events {

namespace {

std::uint64_t get_be(std::span<const std::uint8_t> bytes, std::size_t offset, std::size_t size) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < size; ++i) value = (value << 8) | bytes[offset + i];
  return value;
}

void put_be(std::span<std::uint8_t> bytes, std::size_t offset, std::size_t size,
            std::uint64_t value) {
  for (std::size_t i = size; i-- > 0; value >>= 8) bytes[offset + i] = value & 0xff;
}

}  // namespace

std::uint16_t TrapRecord::details_u16(std::size_t offset) const {
  if (offset + 2 > details.size()) throw std::out_of_range("trap details offset past 54 bytes");
  return static_cast<std::uint16_t>(get_be(details, offset, 2));
}

std::optional<TrapRecord> decode_trap_record(std::span<const std::uint8_t> datagram) {
  if (datagram.size() != kTrapRecordSize) return std::nullopt;
  if (!std::equal(kTrapMagic.begin(), kTrapMagic.end(), datagram.begin())) return std::nullopt;
  if (get_be(datagram, 8, 2) != kTrapRecordVersion) return std::nullopt;
  if (get_be(datagram, 10, 2) != kTrapRecordSize) return std::nullopt;
  if ((datagram[12] & ~3u) != 0 || (datagram[13] & 0x80) != 0 || datagram[16] != 0 ||
      get_be(datagram, 110, 2) != 0)
    return std::nullopt;
  TrapRecord r;
  r.generic = datagram[12] & 1;
  r.heartbeat = (datagram[12] & 2) != 0;
  r.type = datagram[13];
  r.trap_number = static_cast<std::uint16_t>(get_be(datagram, 14, 2));
  r.producer_type = static_cast<std::uint32_t>(get_be(datagram, 16, 4));
  r.issuer_lid = static_cast<std::uint16_t>(get_be(datagram, 20, 2));
  r.toggle_count = static_cast<std::uint16_t>(get_be(datagram, 22, 2));
  r.sent_ns = get_be(datagram, 24, 8);
  r.sequence = static_cast<std::uint32_t>(get_be(datagram, 32, 4));
  r.dropped = static_cast<std::uint32_t>(get_be(datagram, 36, 4));
  std::copy_n(datagram.begin() + 40, r.issuer_gid.size(), r.issuer_gid.begin());
  std::copy_n(datagram.begin() + 56, r.details.size(), r.details.begin());
  return r;
}

std::array<std::uint8_t, kTrapRecordSize> encode_trap_record(const TrapRecord& r) {
  std::array<std::uint8_t, kTrapRecordSize> out{};
  std::copy(kTrapMagic.begin(), kTrapMagic.end(), out.begin());
  put_be(out, 8, 2, kTrapRecordVersion);
  put_be(out, 10, 2, kTrapRecordSize);
  out[12] = static_cast<std::uint8_t>((r.generic ? 1 : 0) | (r.heartbeat ? 2 : 0));
  out[13] = r.type & 0x7f;
  put_be(out, 14, 2, r.trap_number);
  put_be(out, 16, 4, r.producer_type & 0xffffff);
  put_be(out, 20, 2, r.issuer_lid);
  put_be(out, 22, 2, r.toggle_count);
  put_be(out, 24, 8, r.sent_ns);
  put_be(out, 32, 4, r.sequence);
  put_be(out, 36, 4, r.dropped);
  std::copy(r.issuer_gid.begin(), r.issuer_gid.end(), out.begin() + 40);
  std::copy(r.details.begin(), r.details.end(), out.begin() + 56);
  return out;
}

}  // namespace ibpm::events
