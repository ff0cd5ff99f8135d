// SPDX-License-Identifier: MIT
// Writes the cache layout field by field, little-endian, as libibnetdisc's cache writer does.
#include "support/ibnd_cache_bytes.hpp"

#include <cstdint>
#include <string>

namespace ibpm::test {
namespace {

constexpr std::size_t kSmpData = 64;

struct Writer {
  std::vector<unsigned char> bytes;
  void put(std::uint64_t value, int width) {
    for (int i = 0; i < width; ++i) bytes.push_back(static_cast<unsigned char>(value >> (8 * i)));
  }
  void zeros(std::size_t n) { bytes.insert(bytes.end(), n, 0); }
  void text(const std::string& s) {
    std::string padded = s;
    padded.resize(kSmpData, '\0');
    bytes.insert(bytes.end(), padded.begin(), padded.end());
  }
};

struct PortKey {
  std::uint64_t guid;
  unsigned number;
};

void node(Writer& w, std::uint16_t lid, std::uint64_t guid, unsigned type, unsigned ports,
          const std::string& description, const std::vector<PortKey>& stored) {
  w.put(lid, 2);
  w.put(0, 1);        // smalmc
  w.put(0, 1);        // smaenhsp0
  w.zeros(kSmpData);  // SwitchInfo
  w.put(guid, 8);
  w.put(type, 1);
  w.put(ports, 1);
  w.zeros(kSmpData);  // NodeInfo
  w.text(description);
  w.put(stored.size(), 1);
  for (const PortKey& key : stored) {
    w.put(key.guid, 8);
    w.put(key.number, 1);
  }
}

void port(Writer& w, PortKey key, std::uint16_t lid, std::uint64_t node_guid,
          const PortKey* remote) {
  w.put(key.guid, 8);
  w.put(key.number, 1);
  w.put(0, 1);  // external port number
  w.put(lid, 2);
  w.put(0, 1);        // LMC
  w.zeros(kSmpData);  // PortInfo
  w.put(node_guid, 8);
  w.put(remote ? 1 : 0, 1);
  w.put(remote ? remote->guid : 0, 8);
  w.put(remote ? remote->number : 0, 1);
}

}  // namespace

std::vector<unsigned char> small_ibnd_cache() {
  const PortKey sw0{0x0100, 0}, sw1{0x0100, 1}, sw2{0x0100, 2}, h1{0x0201, 1}, h2{0x0301, 1};
  Writer w;
  w.put(0x8FE7832B, 4);
  w.put(1, 4);
  w.put(3, 4);       // nodes
  w.put(5, 4);       // ports
  w.put(0x0200, 8);  // discovered from h1
  w.put(2, 4);       // hops
  node(w, 1, 0x0100, 2, 8, "sw1", {sw0, sw1, sw2});
  node(w, 0, 0x0200, 1, 1, "h1", {h1});
  node(w, 0, 0x0300, 1, 1, "h2", {h2});
  port(w, sw0, 1, 0x0100, nullptr);
  port(w, sw1, 1, 0x0100, &h1);
  port(w, sw2, 1, 0x0100, &h2);
  port(w, h1, 2, 0x0200, &sw1);
  port(w, h2, 3, 0x0300, &sw2);
  return w.bytes;
}

}  // namespace ibpm::test
