// SPDX-License-Identifier: MIT

#include "state/sample_record.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_INLINE_ALL  // the hash compiled in: no library to load, and inlined on the hot path
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/byte_stream.hpp"
#include "base/regular_file.hpp"
#include "layout/state_layout.hpp"
#include "state/directories.hpp"
#include "state/state_error.hpp"

namespace ibpm::state {

namespace {

// The layout, little-endian (base::ByteWriter: on a little-endian host, the bytes its own order
// gave before, so those records still read; a big-endian host's older record shows another
// version):
//   header: "IBPMSREC" u32 version, u32 entry size, u64 runs, u64 entry count
//   entries (kEntrySize bytes each), each ending with its error history's start and interval count,
//   then the error intervals of every entry in entry order (kIntervalSize bytes each),
//   then u64 XXH3 (64 bits) of everything before it.
constexpr char kMagic[8] = {'I', 'B', 'P', 'M', 'S', 'R', 'E', 'C'};
constexpr std::size_t kHeaderSize = 8 + 4 + 4 + 8 + 8;

enum Flag : std::uint8_t {
  kExtended = 1,
  kHasCapMask = 2,
  kHasLastReset = 4,
  kHasLive = 8,
  kHasReported = 16,
  kHasWidth = 32,
  kHasSpeed = 64,
  kAllExtended = 128,  // with kExtended
};

// The checksum: XXH3's 64 bits of the bytes, taken in pieces as they are written. It reads
// words, not bytes: FNV-1a a byte at a time (version 2) cost some 28 M instructions per load and
// per save at 23,328 ports, more than the record's own decoding.
class Checksum {
 public:
  Checksum() { XXH3_64bits_reset(&state_); }
  void add(std::string_view bytes) { XXH3_64bits_update(&state_, bytes.data(), bytes.size()); }
  std::uint64_t value() const { return XXH3_64bits_digest(&state_); }

 private:
  XXH3_state_t state_;
};

void put_entry(base::ByteWriter& w, const PortRef& ref, const PortMemory& m) {
  const PortRecord& r = m.sample;
  std::uint8_t flags = 0;
  if (r.extended || r.all_extended) flags |= kExtended;
  if (r.all_extended) flags |= kAllExtended;
  if (r.pma_cap_mask) flags |= kHasCapMask;
  if (r.last_reset) flags |= kHasLastReset;
  if (m.live) flags |= kHasLive;
  if (m.reported) flags |= kHasReported;
  if (m.live && m.live->width) flags |= kHasWidth;
  if (m.live && m.live->speed) flags |= kHasSpeed;
  std::uint32_t read_mask = 0;
  for (std::size_t i = 0; i < counters::kCounterCount; ++i)
    if (r.raw[i]) read_mask |= 1u << i;
  w.put<std::uint64_t>(ref.node);
  w.put<std::uint8_t>(ref.port);
  w.put<std::uint8_t>(flags);
  w.put<std::uint16_t>(m.port_info_age);
  w.put<std::uint32_t>(read_mask);
  w.put<std::uint32_t>(r.saturated);
  w.put<std::uint32_t>(r.reset_mask);
  w.put<std::uint32_t>(r.pma_cap_mask.value_or(0));
  w.put_double(r.time);
  w.put_double(r.last_reset.value_or(0));
  for (std::size_t i = 0; i < counters::kCounterCount; ++i)
    w.put<std::uint64_t>(r.raw[i].value_or(0));
  const LinkState live = m.live.value_or(LinkState{});
  w.put<std::uint8_t>(static_cast<std::uint8_t>(live.state));
  w.put<std::uint8_t>(live.width ? static_cast<std::uint8_t>(*live.width) : 0);
  w.put<std::uint8_t>(live.speed ? static_cast<std::uint8_t>(*live.speed) : 0);
  w.put<std::uint8_t>(m.reported.value_or(0));
  w.put<std::uint32_t>(live.widths_enabled.bits());
  w.put<std::uint32_t>(live.speeds_enabled.bits());
  w.put_double(m.errors.since);
  w.put<std::uint32_t>(static_cast<std::uint32_t>(m.errors.intervals.size()));
}

constexpr std::size_t kEntrySize =
    8 + 1 + 1 + 2 + 4 * 4 + 8 * 2 + 8 * counters::kCounterCount + 4 + 4 * 2 + 8 + 4;
constexpr std::size_t kIntervalSize = 8 + 8 + 4 * kHistoryCounterCount;

void put_intervals(base::ByteWriter& w, const ErrorHistory& history) {
  for (const ErrorInterval& i : history.intervals) {
    w.put_double(i.end);
    w.put_double(i.seconds);
    for (std::uint32_t e : i.errors) w.put<std::uint32_t>(e);
  }
}

// The entry readers below take their fixed size in one checked read, then read its fields from
// it: the checks of those fields are then known to pass when compiled, and cost nothing.
ErrorInterval get_interval(base::ByteReader& intervals) {
  base::ByteReader in(intervals.get_bytes(kIntervalSize));
  ErrorInterval i;
  i.end = in.get_double();
  i.seconds = in.get_double();
  for (std::uint32_t& e : i.errors) e = in.get<std::uint32_t>();
  return i;
}

// The set of the members whose bits are set (visiting those bits only: the load's hot path).
template <typename Enum>
EnumSet<Enum> enum_set(std::uint32_t bits) {
  EnumSet<Enum> set;
  for (; bits != 0; bits &= bits - 1) set.insert(static_cast<Enum>(std::countr_zero(bits)));
  return set;
}

// Reads one fixed-size entry; returns how many error intervals it has in the tail.
std::uint32_t get_entry(base::ByteReader& entries, PortRef& ref, PortMemory& m) {
  base::ByteReader in(entries.get_bytes(kEntrySize));
  PortRecord& r = m.sample;
  ref.node = in.get<std::uint64_t>();
  ref.port = in.get<std::uint8_t>();
  const auto flags = in.get<std::uint8_t>();
  m.port_info_age = in.get<std::uint16_t>();
  const auto read_mask = in.get<std::uint32_t>();
  r.saturated = in.get<std::uint32_t>();
  r.reset_mask = in.get<std::uint32_t>();
  const auto cap_mask = in.get<std::uint32_t>();
  r.time = in.get_double();
  const auto last_reset = in.get_double();
  for (std::size_t i = 0; i < counters::kCounterCount; ++i) {
    const auto value = in.get<std::uint64_t>();
    if (read_mask & (1u << i)) r.raw[i] = value;
  }
  r.extended = flags & kExtended;
  r.all_extended = r.extended && (flags & kAllExtended);
  if (flags & kHasCapMask) r.pma_cap_mask = cap_mask;
  if (flags & kHasLastReset) r.last_reset = last_reset;
  const auto state = in.get<std::uint8_t>();
  const auto width = in.get<std::uint8_t>();
  const auto speed = in.get<std::uint8_t>();
  const auto reported = in.get<std::uint8_t>();
  const auto widths = in.get<std::uint32_t>();
  const auto speeds = in.get<std::uint32_t>();
  if (flags & kHasReported) m.reported = reported;
  if (flags & kHasLive) {
    LinkState live;
    live.state = state <= 4 ? static_cast<PortState>(state) : PortState::unknown;
    if (flags & kHasWidth && width <= static_cast<std::uint8_t>(LinkWidth::x12))
      live.width = static_cast<LinkWidth>(width);
    if (flags & kHasSpeed && speed <= static_cast<std::uint8_t>(LinkSpeed::xdr))
      live.speed = static_cast<LinkSpeed>(speed);
    live.widths_enabled = enum_set<LinkWidth>(widths);
    live.speeds_enabled = enum_set<LinkSpeed>(speeds);
    m.live = live;
  }
  m.errors.since = in.get_double();
  return in.get<std::uint32_t>();
}

}  // namespace

std::string SampleRecord::path_for(const std::string& state_dir, const std::string& name) {
  std::string safe = name;
  for (char& c : safe)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  if (safe.empty() || safe[0] == '.') safe.insert(0, "_");
  return layout::StateLayout(state_dir).sample_record(safe);
}

SampleRecord SampleRecord::load(const std::string& path, std::string& warning) {
  SampleRecord record;
  const auto refuse = [&](const std::string& reason) {
    warning = path + ": " + reason + ": previous samples read from the RRD files instead";
    return SampleRecord{};
  };
  // A regular file only (not a FIFO, not a device), and no more of it read than its header
  // accounts for.
  std::optional<std::string> bytes;
  try {
    const base::FileDescriptor file(
        base::open_existing_regular_file(path, base::FinalLink::follow));
    if (file.fd < 0) return record;
    const std::uint64_t size = base::file_size(file.fd);
    if (size < kHeaderSize + 8) return refuse("not a sample record");
    const std::string head = base::read_bytes(file.fd, 0, kHeaderSize, path);
    if (head.size() < kHeaderSize || std::memcmp(head.data(), kMagic, sizeof kMagic) != 0)
      return refuse("not a sample record");
    base::ByteReader header(std::string_view(head).substr(sizeof kMagic));
    const auto version = header.get<std::uint32_t>();
    const auto entry_size = header.get<std::uint32_t>();
    if (version != kVersion)
      return refuse("sample record version " + std::to_string(version) + ", not " +
                    std::to_string(kVersion));
    if (entry_size != kEntrySize)
      return refuse("sample record entries of " + std::to_string(entry_size) + " bytes, not " +
                    std::to_string(kEntrySize));
    header.get<std::uint64_t>();  // runs
    const auto count = header.get<std::uint64_t>();
    // Each entry takes kEntrySize bytes and up to kMaxErrorIntervals intervals.
    const std::uint64_t body = size - 8 - kHeaderSize;
    if (count > body / kEntrySize ||
        body - count * kEntrySize > count * kMaxErrorIntervals * kIntervalSize)
      return refuse(std::to_string(size) + " bytes for " + std::to_string(count) +
                    " ports: truncated or padded");
    bytes = base::read_bytes(file.fd, 0, static_cast<std::size_t>(size), path);
    if (bytes->size() != size) return refuse("truncated while read");
  } catch (const std::runtime_error& e) {
    warning = e.what();
    return record;
  }
  const std::string_view all(*bytes);
  const std::size_t body = all.size() - 8;
  base::ByteReader header(all.substr(sizeof kMagic + 8, 16));
  record.runs = header.get<std::uint64_t>();
  const auto count = header.get<std::uint64_t>();
  // The entries go straight into the map (a copy of them all beside it was the sweep's peak of
  // memory), their error intervals, which follow all the entries, after them. The sizes were
  // checked above; a read past them all the same would be a record cut short.
  base::ByteReader in(all.substr(kHeaderSize, body - kHeaderSize));  // not the checksum
  try {
    record.ports_ = std::make_unique<Ports>(count);
    record.ports_->map.reserve(count);
    std::vector<std::pair<PortMemory*, std::uint32_t>> interval_counts;
    interval_counts.reserve(count);
    std::uint64_t intervals = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
      PortRef ref;
      PortMemory memory;
      const std::uint32_t n = get_entry(in, ref, memory);
      if (n > kMaxErrorIntervals) return refuse("too many error intervals");
      const auto [entry, added] = record.ports_->map.emplace(ref, std::move(memory));
      if (!added) return refuse("a port listed twice");
      interval_counts.emplace_back(&entry->second, n);
      intervals += n;
    }
    if (intervals * kIntervalSize != in.remaining()) return refuse("truncated or padded");
    Checksum checksum;
    checksum.add(all.substr(0, body));
    if (base::ByteReader(all.substr(body)).get<std::uint64_t>() != checksum.value())
      return refuse("checksum mismatch");
    for (const auto& [memory, n] : interval_counts) {
      memory->errors.intervals.reserve(n);
      for (std::uint32_t k = 0; k < n; ++k) memory->errors.intervals.push_back(get_interval(in));
    }
  } catch (const base::BytesTooShort&) {
    return refuse("truncated or padded");
  }
  return record;
}

void SampleRecord::save(const std::string& path) const {
  make_directories(std::filesystem::path(path).parent_path().string());
  // Written in pieces of about 64 KiB, the checksum taken as they go: the file (some 200 bytes a
  // port) is never held whole beside the record.
  constexpr std::size_t kPiece = 64 * 1024;
  const auto write = [&](std::ostream& out) {
    std::string bytes;
    bytes.reserve(kPiece + kEntrySize);
    base::ByteWriter w(bytes);
    Checksum checksum;
    const auto flush = [&] {
      checksum.add(bytes);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      bytes.clear();
    };
    w.put_bytes(std::string_view(kMagic, sizeof kMagic));
    w.put<std::uint32_t>(kVersion);
    w.put<std::uint32_t>(kEntrySize);
    w.put<std::uint64_t>(runs);
    w.put<std::uint64_t>(ports_->map.size());
    for (const auto& [ref, memory] : ports_->map) {
      put_entry(w, ref, memory);
      if (bytes.size() >= kPiece) flush();
    }
    for (const auto& [ref, memory] : ports_->map) {
      put_intervals(w, memory.errors);
      if (bytes.size() >= kPiece) flush();
    }
    flush();
    w.put<std::uint64_t>(checksum.value());
    flush();
  };
  try {
    base::replace_file_with(path, write);
  } catch (const std::runtime_error& e) {
    throw StateError(e.what());
  }
}

SampleRecord::Ports::Ports(std::size_t expected)
    // The first block holds the expected entries (a map node is the entry and two words) and the
    // map's buckets (a word each); pages of it not used are never touched.
    : arena(std::max<std::size_t>(1024, expected * (sizeof(PortRef) + sizeof(PortMemory) + 32))) {}

const PortMemory* SampleRecord::find(Guid node, PortNumber port) const {
  const auto it = ports_->map.find(PortRef{node, port});
  return it == ports_->map.end() ? nullptr : &it->second;
}

PortMemory* SampleRecord::find(Guid node, PortNumber port) {
  const auto it = ports_->map.find(PortRef{node, port});
  return it == ports_->map.end() ? nullptr : &it->second;
}

PortMemory& SampleRecord::put(Guid node, PortNumber port, PortMemory memory) {
  return ports_->map[PortRef{node, port}] = std::move(memory);
}

}  // namespace ibpm::state
