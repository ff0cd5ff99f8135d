// SPDX-License-Identifier: MIT

#include "state/port_store.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "layout/state_layout.hpp"
#include "state/directories.hpp"
#include "state/rrdcached_batch.hpp"
#include "state/rrdcached_pipeline.hpp"

namespace ibpm::state {

namespace {

// A link at a port's file is refused, not followed: librrd would write through it, and in a
// folder shared with the group (FolderSharing::parent_group) a member may add names.
bool file_exists(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) throw StateError(path + ": is a symbolic link (not followed)");
    return true;
  }
  if (errno == ENOENT || errno == ENOTDIR) return false;
  throw StateError(path + ": " + std::strerror(errno));
}

// Why a file is not one of ours, or empty. Same data sources in the same order (updates through
// rrdcached cannot name them) and the same step; the heartbeat and archives may differ.
// Ours when it has our data sources in our order. Types are compared when the header says them
// (read through rrdcached); the step is not: files made with another --rrd-step are ours too.
std::string foreign_reason(const RrdHeader& header) {
  for (std::size_t i = 0; i < kSourceCount; ++i) {
    auto found = header.sources.find(source_name(i));
    if (found == header.sources.end()) return "no data source " + std::string(source_name(i));
    const bool type_differs = !found->second.type.empty() && found->second.type != source_type(i);
    if (found->second.index != i || type_differs)
      return "data source " + std::string(source_name(i)) + " is " + found->second.type + " #" +
             std::to_string(found->second.index) + ", not " + std::string(source_type(i)) + " #" +
             std::to_string(i);
  }
  if (header.sources.size() != kSourceCount)
    return std::to_string(header.sources.size()) + " data sources, not " +
           std::to_string(kSourceCount);
  return {};
}

// An update refused because it was not after the file's last one. librrd and rrdcached: "illegal
// attempt to update using time T when last update time is L (minimum one second step)".
struct Refusal {
  double time = 0;  // T
  double last = 0;  // L
};

std::optional<Refusal> refusal_of(const std::string& reason) {
  static constexpr std::string_view kTime = "illegal attempt to update using time ";
  static constexpr std::string_view kLast = " when last update time is ";
  const std::size_t at = reason.find(kTime), last = reason.find(kLast);
  if (at == std::string::npos || last == std::string::npos) return std::nullopt;
  return Refusal{std::strtod(reason.c_str() + at + kTime.size(), nullptr),
                 std::strtod(reason.c_str() + last + kLast.size(), nullptr)};
}

// The file's last update is ahead of the clock: nothing can be written to it until then.
std::optional<std::string> ahead_refusal(const std::string& file, const std::string& reason,
                                         double now) {
  const std::optional<Refusal> refusal = refusal_of(reason);
  if (!refusal || refusal->last <= now + kClockToleranceSeconds) return std::nullopt;
  return ahead_of_clock(file, refusal->last, now);
}

// The update was refused because another check stored a later sample of the port first: in a
// central store, collectors on several hosts (no node locks between them) may sample the same
// port within a moment. The history holds that sample, nothing is missing. Only a sample that is
// genuinely later and not in the future: one dated ahead of the clock is nobody's sample. Anyone
// who reaches the store can date updates just ahead of the collector's, so the refusals are
// counted for the caller (WriteNotes): a sweep says them. Returns the file's last update.
std::optional<double> overtaken(const std::string& reason, double now) {
  const std::optional<Refusal> refusal = refusal_of(reason);
  if (refusal && refusal->last >= refusal->time && refusal->last <= now + kClockToleranceSeconds)
    return refusal->last;
  return std::nullopt;
}

}  // namespace

double wall_clock_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string ahead_of_clock(const std::string& file, double last_update, double now) {
  return file + ": last update " + std::to_string(std::llround(last_update - now)) +
         " s ahead of the clock";
}

PortStore::PortStore(StoreOptions options)
    : options_(std::move(options)), backend_(state::daemon_address(options_.rrdcached)) {
  validate(options_.layout);
  if (options_.state_dir.empty()) throw std::invalid_argument("empty state directory");
  // A local daemon resolves file names from its own folder: give it absolute ones (as librrd's
  // client does); a daemon over TCP takes them relative to its base folder (-b).
  const std::string& address = backend_.daemon_address();
  central_ = is_tcp_address(address);
  if (!address.empty() && !central_ && !options_.state_dir.starts_with("/"))
    options_.state_dir = std::filesystem::absolute(options_.state_dir).string();
  files_ = layout::StateLayout(options_.state_dir);
}

std::string PortStore::rrd_name(Guid node, PortNumber port) const {
  std::string name;
  append_rrd_name(name, node, port);
  return name;
}

void PortStore::append_rrd_name(std::string& name, Guid node, PortNumber port) const {
  if (central_)
    layout::StateLayout::append_relative_port_history(name, node, port);
  else
    files_.append_port_history(name, node, port);
}

bool PortStore::present(const std::string& file) const {
  return central_ ? backend_.present(file) : file_exists(file);
}

std::string PortStore::node_dir(Guid node) const {
  std::string dir = options_.state_dir;
  if (dir.back() != '/') dir += '/';
  return dir + format_guid(node);
}

std::string PortStore::path(Guid node, PortNumber port) const {
  return files_.port_history(node, port);
}

NodeLocks PortStore::lock_nodes(const std::vector<Guid>& nodes,
                                std::chrono::steady_clock::time_point deadline,
                                const std::vector<Guid>& known) const {
  return NodeLocks::acquire(options_.state_dir, nodes, deadline, known);
}

std::optional<PortRecord> PortStore::read(Guid node, PortNumber port) const {
  return read(node, port, wall_clock_now());
}

std::optional<PortRecord> PortStore::read(Guid node, PortNumber port, double now) const {
  const std::string file = rrd_name(node, port);
  if (!central_ && !file_exists(file)) return std::nullopt;
  const std::optional<RrdHeader> found = backend_.info_if_present(file);
  if (!found) return std::nullopt;
  return record_from(file, *found, now);
}

std::optional<PortRecord> PortStore::record_from(const std::string& file, const RrdHeader& header,
                                                 double now) const {
  if (std::string reason = foreign_reason(header); !reason.empty())
    throw StateError(file + ": not an ibpm port RRD (" + reason + ")");
  std::array<std::string, kSourceCount> last;
  for (std::size_t i = 0; i < kSourceCount; ++i)
    last[i] = header.sources.find(source_name(i))->second.last_ds;
  std::optional<double> last_update;
  if (header.last_update) last_update = static_cast<double>(*header.last_update);
  return record_from(file, last, last_update, now);
}

std::optional<PortRecord> PortStore::record_from(const std::string& file,
                                                 const std::array<std::string, kSourceCount>& last,
                                                 std::optional<double> last_update,
                                                 double now) const {
  // Updated at a time still to come: the clock stepped back since, or someone put a sample
  // dated in the future into the store. No rate can come from it, and no update can follow it.
  const double limit = now + kClockToleranceSeconds;
  if (last_update && *last_update > limit)
    throw StateError(ahead_of_clock(file, *last_update, now));
  // Made but never updated (a run that stopped in between): no previous sample.
  const std::string& time = last[source_index(Gauge::sample_time)];
  if (time.empty() || time == "U") return std::nullopt;
  PortRecord record;
  try {
    record = record_from_last_values(last);
  } catch (const std::invalid_argument& e) {
    throw StateError(file + ": " + e.what());
  }
  if (record.time > limit)
    throw StateError(file + ": last sample dated " +
                     std::to_string(std::llround(record.time - now)) + " s ahead of the clock");
  return record;
}

std::optional<PortRecord> PortStore::record_from_pending(const std::string& file,
                                                         std::string_view line, double now) const {
  // The update's time, then one value per source in the layout's order (update_line).
  std::array<std::string, kSourceCount> last;
  std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  char* end = nullptr;
  const std::string stamp(line.substr(0, colon));
  const double update_time = std::strtod(stamp.c_str(), &end);
  if (end == stamp.c_str() || *end != '\0') return std::nullopt;
  for (std::size_t i = 0; i < kSourceCount; ++i) {
    if (colon == std::string_view::npos) return std::nullopt;
    const std::size_t next = line.find(':', colon + 1);
    last[i] = line.substr(colon + 1, next == std::string_view::npos ? next : next - colon - 1);
    colon = next;
  }
  if (colon != std::string_view::npos) return std::nullopt;  // more values than sources
  return record_from(file, last, update_time, now);
}

std::vector<PortStore::ReadResult> PortStore::read_all(const std::vector<PortRef>& ports,
                                                       double now,
                                                       std::chrono::milliseconds timeout) const {
  std::vector<ReadResult> results(ports.size());
  if (!uses_daemon()) {
    for (std::size_t i = 0; i < ports.size(); ++i) {
      try {
        results[i].record = read(ports[i].node, ports[i].port, now);
      } catch (const StateError& e) {
        results[i].error = e.what();
      }
    }
    return results;
  }
  // First each file's updates still in the daemon's cache (PENDING, answered from its memory):
  // the last one is the port's last sample, and the file need not be read. The daemon writes a
  // file every few minutes (-w), so most files of a fabric swept every minute have one.
  std::vector<std::string> files;
  files.reserve(ports.size());
  for (const PortRef& p : ports) files.push_back(rrd_name(p.node, p.port));
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<std::optional<std::string>> pending(files.size());
  in_slices(files.size(), connections_for(files.size()), [&](std::size_t begin, std::size_t end) {
    try {
      daemon_pending(
          backend_.daemon_address(), end - begin,
          [&](std::size_t k, std::string& name) { name += files[begin + k]; },
          [&](std::size_t k, std::optional<std::string_view> line) {
            if (line) pending[begin + k] = std::string(*line);
          },
          deadline);
    } catch (const StateError&) {
      // Each file is read below, which says what is wrong.
    }
  });
  std::vector<std::size_t> on_disk;  // the files to read: nothing pending (or not our layout)
  std::vector<std::string> on_disk_files;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (pending[i]) try {
        if ((results[i].record = record_from_pending(files[i], *pending[i], now))) continue;
      } catch (const StateError& e) {
        results[i].error = e.what();
        continue;
      }
    on_disk.push_back(i);
    on_disk_files.push_back(files[i]);
  }
  // Per file read from disk a FLUSH (INFO answers from the file on disk) and an INFO, in one
  // exchange (a few, side by side, for many files).
  const auto left =
      std::max(std::chrono::milliseconds(1), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                 deadline - std::chrono::steady_clock::now()));
  in_slices(
      on_disk.size(), connections_for(on_disk.size()), [&](std::size_t begin, std::size_t end) {
        const std::span<const std::string> slice(on_disk_files.data() + begin, end - begin);
        std::size_t answered = begin;
        try {
          daemon_infos(
              backend_.daemon_address(), slice,
              [&](std::size_t k, const std::optional<RrdHeader>& header, const std::string& error) {
                const std::size_t i = on_disk[begin + k];
                answered = begin + k + 1;
                if (!error.empty()) {
                  results[i].error = files[i] + ": " + error;
                  return;
                }
                if (!header) return;
                try {
                  results[i].record = record_from(files[i], *header, now);
                } catch (const StateError& e) {
                  results[i].error = e.what();
                }
              },
              left);
        } catch (const StateError& e) {
          for (std::size_t k = answered; k < end; ++k) {
            results[on_disk[k]].error = e.what();
            results[on_disk[k]].store_failed = true;
          }
        }
      });
  return results;
}

std::vector<std::optional<std::time_t>> PortStore::last_updates(
    const std::vector<PortRef>& ports, std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  // The daemon opens a file to answer LAST (about 50 us each: as long as the MADs at 20,000
  // ports, on the store's processor), but answers PENDING from its memory, and a file with updates
  // pending has as its last update the last of them (what LAST would answer). So LAST is asked
  // only of the files with nothing pending (written out since the last sweep: about one in five
  // at a one-minute sweep and rrdcached -w 300).
  // The PENDING answers come over one connection, served by one thread of the daemon's: the
  // check runs while the MADs are in flight, and answering on four connections at once took the
  // processors the MADs need (a sweep of 23,328 ports through a store on the same two cores:
  // median 1.03 s with four, 0.88 s with one, the check still done before the MADs).
  // The files are named as each command is written (a sweep checks every port's).
  std::vector<std::optional<std::time_t>> times(ports.size());
  std::vector<bool> answered(ports.size(), false);
  const std::time_t step = options_.layout.step.count();
  in_slices(ports.size(), 1, [&](std::size_t begin, std::size_t end) {
    daemon_pending(
        backend_.daemon_address(), end - begin,
        [&](std::size_t k, std::string& name) {
          append_rrd_name(name, ports[begin + k].node, ports[begin + k].port);
        },
        [&](std::size_t k, std::optional<std::string_view> line) {
          if (!line) return;
          double stamp = 0;
          const char* end = line->data() + line->size();
          const auto [stop, error] = std::from_chars(line->data(), end, stamp);
          if (error != std::errc{} || stop == end || *stop != ':' || !(stamp > 0)) return;
          const auto whole = static_cast<std::time_t>(std::floor(stamp));
          times[begin + k] = whole - whole % step;
          answered[begin + k] = true;
        },
        deadline);
  });
  std::vector<std::string> unanswered;
  std::vector<std::size_t> owner;
  for (std::size_t i = 0; i < ports.size(); ++i)
    if (!answered[i]) {
      unanswered.push_back(rrd_name(ports[i].node, ports[i].port));
      owner.push_back(i);
    }
  const auto left =
      std::max(std::chrono::milliseconds(1), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                 deadline - std::chrono::steady_clock::now()));
  const std::vector<std::optional<std::time_t>> last =
      state::last_updates(backend_.daemon_address(), unanswered, left);
  for (std::size_t k = 0; k < owner.size(); ++k) times[owner[k]] = last[k];
  return times;
}

void PortStore::create_if_missing(Guid node, PortNumber port, const PortRecord& first) const {
  const std::string file = rrd_name(node, port);
  // The central store makes the folder itself (rrdcached -R) and keeps a file already there.
  // A local daemon run by the state folder's group makes and writes files in the node's folder:
  // it is shared with the group where the state folder is.
  if (!central_) {
    if (file_exists(file)) return;
    make_directories(node_dir(node), FolderSharing::parent_group);
  }
  // The file starts just before the first sample, which must come after its start.
  const auto start = static_cast<std::time_t>(std::floor(first.time)) - 1;
  backend_.create(file, create_definitions(options_.layout),
                  static_cast<unsigned long>(options_.layout.step.count()), start);
}

namespace {
std::string checked_update_line(const std::string& file, const PortRecord& record) {
  try {
    return update_line(record);
  } catch (const std::invalid_argument& e) {
    throw StateError(file + ": " + e.what());
  }
}
}  // namespace

bool PortStore::made_again(const Write& w, const std::string& file, const std::string& line) const {
  // The record said the file was there: someone may have removed it since.
  if (present(file)) return false;
  create_if_missing(w.node, w.port, *w.record);
  backend_.update(file, line);
  return true;
}

void PortStore::write(Guid node, PortNumber port, const PortRecord& record) const {
  const std::string file = rrd_name(node, port);
  const std::string line = checked_update_line(file, record);
  create_if_missing(node, port, record);
  backend_.update(file, line);
}

std::vector<std::string> PortStore::write_all(const std::vector<Write>& writes,
                                              std::chrono::milliseconds timeout,
                                              WriteNotes* notes) const {
  const double now = wall_clock_now();
  std::vector<std::string> errors(writes.size());
  if (!uses_daemon()) {
    for (std::size_t i = 0; i < writes.size(); ++i) {
      const Write& w = writes[i];
      try {
        const std::string file = rrd_name(w.node, w.port);
        const std::string line = checked_update_line(file, *w.record);
        if (!w.exists) create_if_missing(w.node, w.port, *w.record);
        try {
          backend_.update(file, line);
        } catch (const StateError& e) {
          if (auto ahead = ahead_refusal(file, e.what(), now)) throw StateError(*ahead);
          if (!w.exists || !made_again(w, file, line)) throw;
        }
      } catch (const StateError& e) {
        errors[i] = e.what();
      }
    }
    return errors;
  }
  // Files are made one at a time (only a port's first run does it), then every update in one
  // BATCH, each made as it is sent.
  std::vector<std::size_t> owner;  // the writes sent, in order
  owner.reserve(writes.size());
  std::string refused;  // the store cannot make any port's file: not asked again
  for (std::size_t i = 0; i < writes.size(); ++i) {
    const Write& w = writes[i];
    try {
      if (const std::string refusal = update_refusal(*w.record); !refusal.empty())
        throw StateError(rrd_name(w.node, w.port) + ": " + refusal);
      if (!w.exists) {
        if (!refused.empty()) {
          errors[i] = refused;
          continue;
        }
        create_if_missing(w.node, w.port, *w.record);
      }
      owner.push_back(i);
    } catch (const StoreMisconfigured& e) {
      errors[i] = refused = e.what();
    } catch (const StateError& e) {
      errors[i] = e.what();
    }
  }
  const auto update_at = [&](std::size_t k, BatchUpdate& update) {
    const Write& w = writes[owner[k]];
    append_rrd_name(update.path, w.node, w.port);
    append_update_line(update.line, *w.record);
  };
  try {
    for (const auto& [index, reason] :
         batch_update(backend_.daemon_address(), owner.size(), update_at, timeout)) {
      if (index >= owner.size()) continue;
      const Write& w = writes[owner[index]];
      BatchUpdate update;
      update_at(index, update);
      if (auto ahead = ahead_refusal(update.path, reason, now)) {
        errors[owner[index]] = *ahead;
        continue;
      }
      if (const std::optional<double> later = central_ ? overtaken(reason, now) : std::nullopt) {
        if (notes) {
          notes->overtaken.push_back(owner[index]);
          notes->overtaken_by.push_back(*later);
        }
        continue;
      }
      try {
        if (w.exists && made_again(w, update.path, update.line)) continue;
        errors[owner[index]] = update.path + ": cannot update through rrdcached: " + reason;
      } catch (const StateError& e) {
        errors[owner[index]] = e.what();
      }
    }
  } catch (const StateError& e) {
    for (std::size_t i : owner)
      errors[i] = rrd_name(writes[i].node, writes[i].port) + ": " + e.what();
    if (notes) {
      notes->store_failure = e.what();
      notes->store_failed = owner;
    }
  }
  return errors;
}

}  // namespace ibpm::state
