// SPDX-License-Identifier: MIT

#include "state/rrd_backend.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <rrd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
// rrd_client.h has no extern "C" of its own.
extern "C" {
#include <rrd_client.h>
}

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "base/temporary.hpp"
#include "state/directories.hpp"
#include "state/state_error.hpp"

namespace ibpm::state {

namespace {

// librrd keeps its error text per thread; take it and leave none behind for the next call.
// Where it says nothing (a full disk, often), the system's reason is the one to give.
std::string take_rrd_error(const std::string& path, int err = errno) {
  const char* text = rrd_get_error();
  std::string reason = text && *text ? text : err ? std::strerror(err) : "librrd gave no reason";
  rrd_clear_error();
  // librrd often starts with the path itself; StateError puts it first anyway.
  if (reason.starts_with(path + ": ")) reason.erase(0, path.size() + 2);
  return reason;
}

[[noreturn]] void fail(const std::string& path, std::string_view action, int err = errno) {
  throw StateError(path + ": " + std::string(action) + ": " + take_rrd_error(path, err));
}

std::vector<const char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<const char*> pointers;
  for (const std::string& s : strings) pointers.push_back(s.c_str());
  return pointers;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// The rrdc_* calls share one connection per process: keep connect-and-ask sequences together.
std::mutex& daemon_mutex() {
  static std::mutex mutex;
  return mutex;
}

// librrd writes to the daemon's socket without MSG_NOSIGNAL: after a daemon restart the stale
// connection would kill the process with SIGPIPE. Blocked, the write fails with EPIPE instead
// (and librrd reconnects); a SIGPIPE raised meanwhile is taken so it never arrives later.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlocked() {
    sigset_t pending;
    sigpending(&pending);
    if (!was_pending_ && sigismember(&pending, SIGPIPE) == 1) {
      const timespec now{0, 0};
      sigtimedwait(&pipe_, nullptr, &now);
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  sigset_t pipe_{};
  sigset_t old_{};
  bool was_pending_ = false;
};

// What every daemon call holds: the shared connection to itself, and SIGPIPE at bay.
struct DaemonCall {
  std::lock_guard<std::mutex> guard{daemon_mutex()};
  SigpipeBlocked sigpipe;
};

void connect(const std::string& address, const std::string& path) {
  rrd_clear_error();
  // Reuses the open connection when it goes to the same address.
  if (rrdc_connect(address.c_str()) != 0)
    throw StateError(path + ": rrdcached at " + address + ": " + take_rrd_error(path));
}

// "ds[NAME].FIELD" -> NAME, FIELD; false for other keys.
bool split_source_key(std::string_view key, std::string_view& name, std::string_view& field) {
  if (!key.starts_with("ds[")) return false;
  const std::size_t close = key.find("].");
  if (close == std::string_view::npos) return false;
  name = key.substr(3, close - 3);
  field = key.substr(close + 2);
  return true;
}

RrdHeader header_from(const rrd_info_t* info) {
  RrdHeader header;
  for (const rrd_info_t* item = info; item; item = item->next) {
    if (item->type == RD_I_CNT)
      add_header_count(header, item->key, item->value.u_cnt);
    else if (item->type == RD_I_STR && item->value.u_str)
      add_header_text(header, item->key, item->value.u_str);
  }
  return header;
}

// `file` (in a folder of our own, named for `path`) writable by its group: rrdcached, run as a
// member of the group, rewrites it.
void allow_group_writes(const std::string& file, const std::string& path) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  int error = fd < 0 ? errno : ::fchmod(fd, 0664) == 0 ? 0 : errno;
  if (fd >= 0) ::close(fd);
  if (error != 0) throw StateError(path + ": cannot create: " + std::strerror(error));
}

// The daemon's answer to CREATE without overwrite when the file is there already.
bool says_exists(const std::string& reason) {
  return reason.find("File exists") != std::string::npos;
}

// The daemon's answer to CREATE of a file whose folder is missing, when it was started without -R.
bool says_no_folders(const std::string& reason) {
  return reason.find("No permission to recursively create") != std::string::npos;
}

}  // namespace

void add_header_count(RrdHeader& header, std::string_view key, unsigned long value) {
  std::string_view name, field;
  if (key == "step")
    header.step = value;
  else if (key == "last_update")
    header.last_update = static_cast<std::time_t>(value);
  else if (split_source_key(key, name, field) && field == "index")
    header.sources[std::string(name)].index = value;
}

void add_header_text(RrdHeader& header, std::string_view key, std::string_view value) {
  std::string_view name, field;
  if (!split_source_key(key, name, field)) return;
  if (field == "type")
    header.sources[std::string(name)].type = value;
  else if (field == "last_ds")
    header.sources[std::string(name)].last_ds = value;
}

bool says_missing(const std::string& reason) {
  return reason.find("No such file") != std::string::npos;
}

RrdBackend::RrdBackend(std::string daemon_address) : daemon_(std::move(daemon_address)) {}

RrdHeader RrdBackend::info(const std::string& path) const {
  rrd_clear_error();
  rrd_info_t* info = nullptr;
  if (uses_daemon()) {
    DaemonCall call;
    connect(daemon_, path);
    if (rrdc_flush(path.c_str()) != 0) fail(path, "cannot flush through rrdcached");
    info = rrdc_info(path.c_str());
  } else {
    // rrd_lastupdate_r reads the header only: a third of rrd_info_r's time, which matters at
    // a few dozen files per run. It gives names and last values, not types.
    time_t last_update = 0;
    unsigned long count = 0;
    char** names = nullptr;
    char** values = nullptr;
    if (rrd_lastupdate_r(path.c_str(), &last_update, &count, &names, &values) != 0)
      fail(path, "cannot read");
    RrdHeader header;
    header.last_update = last_update;
    for (unsigned long i = 0; i < count; ++i) {
      SourceHeader& source = header.sources[names[i]];
      source.index = i;
      source.last_ds = values[i];
      rrd_freemem(names[i]);
      rrd_freemem(values[i]);
    }
    rrd_freemem(names);
    rrd_freemem(values);
    return header;
  }
  if (!info) fail(path, "cannot read");
  RrdHeader header = header_from(info);
  rrd_info_free(info);
  return header;
}

std::optional<RrdHeader> RrdBackend::info_if_present(const std::string& path) const {
  if (!uses_daemon()) {
    if (!exists(path)) return std::nullopt;
    return info(path);
  }
  rrd_clear_error();
  DaemonCall call;
  connect(daemon_, path);
  if (rrdc_flush(path.c_str()) != 0) {
    const std::string reason = take_rrd_error(path);
    if (says_missing(reason)) return std::nullopt;
    throw StateError(path + ": cannot flush through rrdcached: " + reason);
  }
  rrd_info_t* info = rrdc_info(path.c_str());
  if (!info) {
    const std::string reason = take_rrd_error(path);
    if (says_missing(reason)) return std::nullopt;
    throw StateError(path + ": cannot read: " + reason);
  }
  RrdHeader header = header_from(info);
  rrd_info_free(info);
  return header;
}

bool RrdBackend::present(const std::string& path) const {
  if (!uses_daemon()) return exists(path);
  rrd_clear_error();
  DaemonCall call;
  connect(daemon_, path);
  if (rrdc_flush(path.c_str()) == 0) return true;
  const std::string reason = take_rrd_error(path);
  if (says_missing(reason)) return false;
  throw StateError(path + ": cannot flush through rrdcached: " + reason);
}

void RrdBackend::create(const std::string& path, const std::vector<std::string>& definitions,
                        unsigned long step, std::time_t last_update) const {
  std::vector<const char*> argv = c_strings(definitions);
  const int argc = static_cast<int>(argv.size());
  rrd_clear_error();
  if (uses_daemon()) {
    DaemonCall call;
    connect(daemon_, path);
    // no_overwrite: when another run made the file first, its file stays.
    if (rrdc_create(path.c_str(), step, last_update, 1, argc, argv.data()) != 0) {
      // The file may be on this host (a local daemon) or only on the store's (over TCP).
      const std::string reason = take_rrd_error(path);
      if (says_no_folders(reason))
        throw StoreMisconfigured("rrdcached at " + daemon_ +
                                 " may not make the ports' folders (\"No permission to recursively "
                                 "create\"): start it with -R, as docs/operators.md does");
      if (!says_exists(reason) && !exists(path))
        throw StateError(path + ": cannot create through rrdcached: " + reason);
    }
    rrd_clear_error();
    return;
  }
  // rrd_create would rename over a file another run made (and perhaps updated) meanwhile: make
  // our own in a folder of our own (librrd follows links: no name others could plant), then
  // link it into place only if the name is free.
  std::optional<base::TemporaryFolder> scratch;
  try {
    scratch.emplace(path);
  } catch (const std::runtime_error& e) {
    throw StateError(path + ": cannot create: " + e.what());
  }
  const std::string& tmp = scratch->file_path();
  errno = 0;
  if (rrd_create_r2(tmp.c_str(), step, last_update, 0, nullptr, nullptr, argc, argv.data()) != 0)
    fail(path, "cannot create", errno);
  // librrd makes every file 0644. In a folder shared with its group (the package's, where the
  // group's rrdcached writes the files the checks made) the group may write it too.
  if (shared_with_group(std::filesystem::path(path).parent_path().string()))
    allow_group_writes(tmp, path);
  if (::link(tmp.c_str(), path.c_str()) != 0 && errno != EEXIST)
    throw StateError(path + ": cannot create: " + std::strerror(errno));
}

void RrdBackend::update(const std::string& path, const std::string& line) const {
  const char* values[] = {line.c_str()};
  rrd_clear_error();
  if (uses_daemon()) {
    DaemonCall call;
    connect(daemon_, path);
    if (rrdc_update(path.c_str(), 1, values) != 0) fail(path, "cannot update through rrdcached");
    return;
  }
  errno = 0;
  if (rrd_update_r(path.c_str(), nullptr, 1, values) != 0) fail(path, "cannot update");
}

void RrdBackend::flush(const std::string& path) const {
  if (!uses_daemon()) return;
  rrd_clear_error();
  DaemonCall call;
  connect(daemon_, path);
  if (rrdc_flush(path.c_str()) != 0) fail(path, "cannot flush through rrdcached");
}

}  // namespace ibpm::state
