// SPDX-License-Identifier: MIT

#include "topology/ibnd_fabric.hpp"

#include <infiniband/ibnetdisc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "base/atomic_file.hpp"
#include "mad/mad_link.hpp"
#include "mad/port_info.hpp"
#include "mad/umad_tap.hpp"
#include "topology/ibnd_cache_check.hpp"

namespace ibpm::topology {
namespace {

// libibnetdisc's cache files start with this number, stored little-endian.
constexpr std::array<unsigned char, 4> kCacheMagic{0x2b, 0x83, 0xe7, 0x8f};

NodeType node_type(int ibnd_type) {
  switch (ibnd_type) {
    case IB_NODE_CA:
      return NodeType::ca;
    case IB_NODE_SWITCH:
      return NodeType::sw;
    case IB_NODE_ROUTER:
      return NodeType::router;
    default:
      return NodeType::unknown;
  }
}

std::string node_description(const ibnd_node_t* node) {
  // nodedesc is NUL-terminated by libibnetdisc but may hold any bytes before that.
  return std::string(node->nodedesc, strnlen(node->nodedesc, sizeof node->nodedesc));
}

void add_node(Fabric& fabric, ibnd_node_t* in) {
  Node& node = fabric.add_node(in->guid, node_type(in->type), node_description(in), in->numports);
  node.system_image_guid = mad_get_field64(in->info, 0, IB_NODE_SYSTEM_GUID_F);
  node.vendor_id = mad_get_field(in->info, 0, IB_NODE_VENDORID_F);
  node.device_id = mad_get_field(in->info, 0, IB_NODE_DEVID_F);
  // Switches report capabilities (extended speeds) on port 0 only.
  const ibnd_port_t* port0 = in->type == IB_NODE_SWITCH && in->ports ? in->ports[0] : nullptr;
  for (int i = 0; i <= in->numports; ++i) {
    const ibnd_port_t* p = in->ports ? in->ports[i] : nullptr;
    if (!p) continue;
    Port& port = fabric.port({in->guid, static_cast<PortNumber>(i)});
    if (p->guid) port.guid = p->guid;
    const bool switch_port = in->type == IB_NODE_SWITCH;
    std::uint16_t lid = switch_port ? in->smalid : p->base_lid;
    if (lid && (!switch_port || i == 0) && mad::is_unicast_lid(lid)) port.lid = lid;
    port.lmc = switch_port ? in->smalmc : p->lmc;
    mad::apply_port_info(port, p->info, p->ext_info, port0 ? port0->info : p->info);
  }
}

// The file's bytes, refusing files larger than any cache (read at most one byte past the limit).
std::vector<unsigned char> read_cache_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  std::vector<unsigned char> bytes;
  std::array<char, 1 << 16> chunk;
  while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
    bytes.insert(bytes.end(), chunk.data(), chunk.data() + in.gcount());
    if (bytes.size() > kMaxIbndCacheBytes)
      throw std::runtime_error(path + ": larger than any libibnetdisc cache file");
  }
  if (in.bad()) throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
  return bytes;
}

// The validated bytes as a file libibnetdisc can open: an anonymous memory file, named through
// /proc/self/fd.
class CheckedCopy {
 public:
  explicit CheckedCopy(const std::vector<unsigned char>& bytes)
      : fd_(memfd_create("ibpm-cache", MFD_CLOEXEC)) {
    if (fd_ < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
    for (std::size_t done = 0; done < bytes.size();) {
      const ssize_t n = write(fd_, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int error = errno;
        close(fd_);
        throw std::runtime_error(std::string("copying a cache file: ") + std::strerror(error));
      }
      done += static_cast<std::size_t>(n);
    }
  }
  ~CheckedCopy() { close(fd_); }
  CheckedCopy(const CheckedCopy&) = delete;
  CheckedCopy& operator=(const CheckedCopy&) = delete;
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

}  // namespace

void IbndFabric::Deleter::operator()(ibnd_fabric* fabric) const { ibnd_destroy_fabric(fabric); }

IbndFabric IbndFabric::discover(const DiscoveryOptions& options) {
  const mad::ReplaySource* replay = options.tap ? options.tap->replay() : nullptr;
  if (replay && !replay->holds_discovery())
    throw mad::MadError("--replay " + replay->path() +
                        ": the recording holds no fabric discovery (no directed-route SMPs); "
                        "record one with --record on a run that discovers the fabric");
  ibnd_config_t config{};
  config.timeout_ms = options.timeout_ms;
  config.retries = options.retries;
  std::string ca = options.ca;
  ibnd_fabric_t* fabric = nullptr;
  std::string missing, record_failure;
  {
    // libibnetdisc's MADs recorded or replayed while it discovers, and only then.
    const mad::UmadTapScope tap(options.tap);
    fabric = ibnd_discover_fabric(ca.empty() ? nullptr : ca.data(), options.port, nullptr, &config);
    missing = tap.missing();
    record_failure = tap.record_failure();
  }
  if (!missing.empty() || !record_failure.empty()) {
    if (fabric) ibnd_destroy_fabric(fabric);
    if (!missing.empty()) throw mad::ReplayMissing(missing);
    throw mad::MadError(record_failure);  // "--record FILE: cannot write: ..."
  }
  if (options.tap && options.tap->recorder()) options.tap->recorder()->flush();
  if (!fabric && replay)
    throw std::runtime_error("--replay " + replay->path() +
                             ": the recorded discovery did not replay to its end");
  if (!fabric) {
    throw std::runtime_error("fabric discovery failed through " +
                             (ca.empty() ? std::string("the first HCA") : "HCA " + ca) + " port " +
                             std::to_string(options.port) +
                             " (is the umad device readable? is an SM running?)");
  }
  IbndFabric result(fabric);
  return result;
}

IbndFabric IbndFabric::load_cache(const std::string& path) {
  const std::vector<unsigned char> bytes = read_cache_bytes(path);
  validate_ibnd_cache(bytes, path);
  // libibnetdisc reads the bytes just checked, not the file again (which may have changed since).
  CheckedCopy copy(bytes);
  ibnd_fabric_t* fabric = ibnd_load_fabric(copy.path().c_str(), 0);
  if (!fabric) throw std::runtime_error(path + ": cannot load libibnetdisc cache file");
  IbndFabric result(fabric);
  return result;
}

void IbndFabric::save_cache(const std::string& path) const {
  base::replace_file(path, [this](const std::string& tmp) {
    return ibnd_cache_fabric(fabric_.get(), tmp.c_str(), IBND_CACHE_FABRIC_FLAG_DEFAULT) == 0;
  });
}

Fabric IbndFabric::to_fabric() const {
  Fabric fabric;
  for (ibnd_node_t* node = fabric_->nodes; node; node = node->next) add_node(fabric, node);
  for (ibnd_node_t* node = fabric_->nodes; node; node = node->next) {
    for (int i = 1; node->ports && i <= node->numports; ++i) {
      const ibnd_port_t* p = node->ports[i];
      if (!p || !p->remoteport || !p->remoteport->node) continue;
      fabric.connect({node->guid, static_cast<PortNumber>(i)},
                     {p->remoteport->node->guid, static_cast<PortNumber>(p->remoteport->portnum)});
    }
  }
  return fabric;
}

unsigned IbndFabric::max_hops() const { return fabric_->maxhops_discovered; }

bool looks_like_ibnd_cache(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<unsigned char, 4> head{};
  in.read(reinterpret_cast<char*>(head.data()), head.size());
  return in.gcount() == static_cast<std::streamsize>(head.size()) && head == kCacheMagic;
}

}  // namespace ibpm::topology
