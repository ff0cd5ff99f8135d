// SPDX-License-Identifier: MIT

#include "state/rrd_backend.hpp"

#include <fcntl.h>
#include <rrd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>

#include "base/temporary.hpp"
#include "state/directories.hpp"
#include "state/rrd_lock_wait.hpp"
#include "state/rrdcached_batch.hpp"
#include "state/rrdcached_connection.hpp"
#include "state/rrdcached_pipeline.hpp"
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

// The daemon's answers to `commands` about `path` (each followed by `argument` when there is one),
// in one exchange on a connection of its own
// (the project's one client of rrdcached, state/rrdcached_pipeline.hpp), within `timeout`. Throws
// StateError("PATH: rrdcached at ADDRESS: reason") when the daemon cannot be reached or answer.
std::vector<DaemonAnswer> ask(const std::string& address, const std::string& path,
                              const std::vector<std::string>& commands,
                              std::chrono::milliseconds timeout, const std::string& argument = {}) {
  std::vector<DaemonAnswer> answers(commands.size());
  try {
    pipeline(
        address, commands.size(),
        [&](std::size_t i, std::string& out) {
          out += commands[i];
          out += ' ';
          append_daemon_escaped(out, path);
          if (!argument.empty()) out += ' ' + argument;
        },
        [&](std::size_t i, const DaemonAnswer& answer) { answers[i] = answer; },
        std::chrono::steady_clock::now() + timeout);
  } catch (const StateError& e) {
    throw StateError(path + ": " + e.what());
  }
  return answers;
}

// The file's header through the daemon (a FLUSH, then INFO: INFO answers from the file on disk),
// nullopt when the daemon has no such file.
std::optional<RrdHeader> daemon_header(const std::string& address, const std::string& path,
                                       std::chrono::milliseconds timeout) {
  std::optional<RrdHeader> header;
  std::string error;
  try {
    daemon_infos(
        address, std::span<const std::string>(&path, 1),
        [&](std::size_t, const std::optional<RrdHeader>& h, const std::string& e) {
          header = h;
          error = e;
        },
        timeout);
  } catch (const StateError& e) {
    throw StateError(path + ": " + e.what());
  }
  if (!error.empty()) throw StateError(path + ": " + error + " (through rrdcached)");
  return header;
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

RrdBackend::RrdBackend(std::string daemon_address, std::chrono::milliseconds timeout)
    : daemon_(std::move(daemon_address)), timeout_(timeout) {}

RrdHeader RrdBackend::info(const std::string& path) const {
  if (uses_daemon()) {
    std::optional<RrdHeader> header = daemon_header(daemon_, path, timeout_);
    if (!header) throw StateError(path + ": cannot read: No such file (through rrdcached)");
    return *header;
  }
  // rrd_lastupdate_r reads the header only: a third of rrd_info_r's time, which matters at
  // a few dozen files per run. It gives names and last values, not types.
  time_t last_update = 0;
  unsigned long count = 0;
  char** names = nullptr;
  char** values = nullptr;
  if (!retry_while_locked([&] {
        return rrd_lastupdate_r(path.c_str(), &last_update, &count, &names, &values) == 0;
      }))
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

std::optional<RrdHeader> RrdBackend::info_if_present(const std::string& path) const {
  if (uses_daemon()) return daemon_header(daemon_, path, timeout_);
  if (!exists(path)) return std::nullopt;
  return info(path);
}

bool RrdBackend::present(const std::string& path) const {
  if (!uses_daemon()) return exists(path);
  const DaemonAnswer flushed = ask(daemon_, path, {"FLUSH"}, timeout_).front();
  if (flushed.status >= 0) return true;
  if (says_missing(flushed.message)) return false;
  throw StateError(path + ": cannot flush through rrdcached: " + flushed.message);
}

void RrdBackend::create(const std::string& path, const std::vector<std::string>& definitions,
                        unsigned long step, std::time_t last_update) const {
  if (uses_daemon()) {
    // -O: when another run made the file first, its file stays.
    const std::string options =
        " -b " + std::to_string(last_update) + " -s " + std::to_string(step) + " -O";
    DaemonAnswer made;
    try {
      pipeline(
          daemon_, 1,
          [&](std::size_t, std::string& out) {
            out += "CREATE ";
            append_daemon_escaped(out, path);
            out += options;
            for (const std::string& definition : definitions) {
              out += ' ';
              append_daemon_escaped(out, definition);
            }
          },
          [&](std::size_t, const DaemonAnswer& answer) { made = answer; },
          std::chrono::steady_clock::now() + timeout_);
    } catch (const StateError& e) {
      throw StateError(path + ": " + e.what());
    }
    if (made.status >= 0) return;
    // The file may be on this host (a local daemon) or only on the store's (over TCP).
    if (says_no_folders(made.message))
      throw StoreMisconfigured("rrdcached at " + daemon_ +
                               " may not make the ports' folders (\"No permission to recursively "
                               "create\"): start it with -R, as docs/operators.md does");
    if (!says_exists(made.message) && !exists(path))
      throw StateError(path + ": cannot create through rrdcached: " + made.message);
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
  std::vector<const char*> argv = c_strings(definitions);
  const int argc = static_cast<int>(argv.size());
  rrd_clear_error();
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
  if (uses_daemon()) {
    const DaemonAnswer updated = ask(daemon_, path, {"UPDATE"}, timeout_, line).front();
    if (updated.status < 0)
      throw StateError(path + ": cannot update through rrdcached: " + updated.message);
    return;
  }
  const char* values[] = {line.c_str()};
  errno = 0;
  // A report reading the file holds its lock for a moment: the update waits it out.
  if (!retry_while_locked([&] { return rrd_update_r(path.c_str(), nullptr, 1, values) == 0; }))
    fail(path, "cannot update");
}

void RrdBackend::flush(const std::string& path) const {
  if (!uses_daemon()) return;
  const DaemonAnswer flushed = ask(daemon_, path, {"FLUSH"}, timeout_).front();
  if (flushed.status < 0)
    throw StateError(path + ": cannot flush through rrdcached: " + flushed.message);
}

}  // namespace ibpm::state
