// SPDX-License-Identifier: MIT

#include "topology/ibnd_cache_check.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "fabric/types.hpp"

namespace ibpm::topology {
namespace {

// The layout libibnetdisc writes (rdma-core libibnetdisc/ibnetdisc_cache.c), all little-endian:
// a header, the nodes (a fixed part, then one key per port stored), the ports (fixed size).
constexpr std::uint32_t kMagic = 0x8FE7832B;
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kSmpData = 64;
constexpr std::size_t kHeaderLen = 28;
constexpr std::size_t kNodeFixedLen = 15 + 3 * kSmpData;
constexpr std::size_t kPortKeyLen = 9;
constexpr std::size_t kPortLen = 31 + kSmpData;
// Offsets inside a node's fixed part and inside a port.
constexpr std::size_t kNodeSmaLmc = 2, kNodeGuid = 4 + kSmpData, kNodeType = kNodeGuid + 8,
                      kNodeNumPorts = kNodeType + 1, kNodeStored = kNodeFixedLen - 1;
constexpr std::size_t kPortNum = 8, kPortLmc = 12, kPortNodeGuid = 13 + kSmpData,
                      kPortRemoteFlag = kPortNodeGuid + 8, kPortRemoteGuid = kPortRemoteFlag + 1,
                      kPortRemoteNum = kPortRemoteGuid + 8;
constexpr unsigned kMaxLmc = 7;  // LMC is a 3-bit field of PortInfo

using Key = std::pair<std::uint64_t, unsigned>;  // (port GUID, port number)

std::uint64_t le(std::span<const unsigned char> bytes, std::size_t at, int width) {
  std::uint64_t value = 0;
  for (int i = width - 1; i >= 0; --i) value = value << 8 | bytes[at + static_cast<std::size_t>(i)];
  return value;
}

std::string key_name(const Key& key) {
  return format_guid(key.first) + " port " + std::to_string(key.second);
}

struct NodeEntry {
  std::uint64_t guid;
  unsigned port_count;
};

}  // namespace

void validate_ibnd_cache(std::span<const unsigned char> bytes, const std::string& name) {
  auto fail = [&](const std::string& reason) {
    return std::runtime_error(name + ": corrupt libibnetdisc cache file: " + reason);
  };
  if (bytes.size() < kHeaderLen || le(bytes, 0, 4) != kMagic)
    throw std::runtime_error(name + ": not a libibnetdisc cache file");
  if (const auto version = le(bytes, 4, 4); version != kVersion)
    throw std::runtime_error(name + ": libibnetdisc cache version " + std::to_string(version) +
                             " (only version 1 is known)");
  if (bytes.size() > kMaxIbndCacheBytes)
    throw fail(std::to_string(bytes.size()) + " bytes, more than any fabric's cache");
  const std::uint64_t node_count = le(bytes, 8, 4), port_count = le(bytes, 12, 4);
  const std::uint64_t from_guid = le(bytes, 16, 8);
  const std::size_t body = bytes.size() - kHeaderLen;
  // Counts first, so nothing below is sized by a number the file's length cannot back.
  if (node_count == 0) throw fail("no nodes");
  if (node_count > body / kNodeFixedLen || port_count > body / kPortLen ||
      node_count * kNodeFixedLen + port_count * kPortLen > body)
    throw fail("says " + std::to_string(node_count) + " nodes and " + std::to_string(port_count) +
               " ports, more than its " + std::to_string(bytes.size()) + " bytes can hold");

  std::vector<NodeEntry> nodes;
  std::map<std::uint64_t, std::size_t> node_by_guid;
  std::map<Key, std::size_t> owner;  // every port key a node lists, and that node
  std::size_t at = kHeaderLen;
  for (std::uint64_t n = 0; n < node_count; ++n) {
    const std::string which = "node " + std::to_string(n + 1);
    if (bytes.size() - at < kNodeFixedLen) throw fail("cut short in " + which);
    const std::uint64_t guid = le(bytes, at + kNodeGuid, 8);
    const unsigned type = bytes[at + kNodeType], ports = bytes[at + kNodeNumPorts];
    const unsigned stored = bytes[at + kNodeStored];
    if (type < 1 || type > 3) throw fail(which + " has node type " + std::to_string(type));
    if (bytes[at + kNodeSmaLmc] > kMaxLmc) throw fail(which + " has an LMC over 7");
    if (!node_by_guid.emplace(guid, nodes.size()).second)
      throw fail("node GUID " + format_guid(guid) + " twice");
    if (stored > ports + 1)
      throw fail(which + " lists " + std::to_string(stored) + " ports but has " +
                 std::to_string(ports));
    at += kNodeFixedLen;
    if (bytes.size() - at < stored * kPortKeyLen) throw fail("cut short in " + which);
    for (unsigned k = 0; k < stored; ++k, at += kPortKeyLen) {
      const Key key{le(bytes, at, 8), bytes[at + 8]};
      if (key.second > ports)
        throw fail(which + " lists port " + std::to_string(key.second) + " but has " +
                   std::to_string(ports));
      if (!owner.emplace(key, nodes.size()).second) throw fail(key_name(key) + " listed twice");
    }
    nodes.push_back({guid, ports});
  }
  if (bytes.size() - at != port_count * kPortLen)
    throw fail("says " + std::to_string(port_count) + " ports, its " +
               std::to_string(bytes.size() - at) + " remaining bytes hold " +
               std::to_string((bytes.size() - at) / kPortLen) +
               ((bytes.size() - at) % kPortLen ? " and a part" : ""));
  if (!node_by_guid.contains(from_guid))
    throw fail("the discovering node " + format_guid(from_guid) + " is not in it");

  std::set<Key> ports;
  std::vector<Key> remotes;
  for (std::uint64_t p = 0; p < port_count; ++p, at += kPortLen) {
    const Key key{le(bytes, at, 8), bytes[at + kPortNum]};
    if (!ports.insert(key).second) throw fail(key_name(key) + " twice");
    if (bytes[at + kPortLmc] > kMaxLmc) throw fail(key_name(key) + " has an LMC over 7");
    const auto listed = owner.find(key);
    const auto node = node_by_guid.find(le(bytes, at + kPortNodeGuid, 8));
    if (node == node_by_guid.end()) throw fail(key_name(key) + " belongs to no node in the file");
    if (listed == owner.end() || listed->second != node->second)
      throw fail(key_name(key) + " is not listed by its node " + format_guid(node->first));
    const unsigned flag = bytes[at + kPortRemoteFlag];
    if (flag > 1) throw fail(key_name(key) + " has remote flag " + std::to_string(flag));
    if (flag) remotes.push_back({le(bytes, at + kPortRemoteGuid, 8), bytes[at + kPortRemoteNum]});
  }
  if (ports.size() != owner.size()) throw fail("a node lists a port that is not in the file");
  for (const Key& remote : remotes)
    if (!ports.contains(remote)) throw fail("remote port " + key_name(remote) + " is not in it");
}

}  // namespace ibpm::topology
