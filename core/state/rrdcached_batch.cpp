// SPDX-License-Identifier: MIT

#include "state/rrdcached_batch.hpp"

#include <cstdlib>
#include <string_view>
#include <utility>

#include "state/rrdcached_pipeline.hpp"

namespace ibpm::state {

std::vector<std::pair<std::size_t, std::string>> batch_update(
    const std::string& address, const std::vector<BatchUpdate>& updates,
    std::chrono::milliseconds timeout) {
  return batch_update(
      address, updates.size(), [&updates](std::size_t k, BatchUpdate& u) { u = updates[k]; },
      timeout);
}

std::vector<std::pair<std::size_t, std::string>> batch_update(const std::string& address,
                                                              std::size_t count,
                                                              const FillUpdate& update_at,
                                                              std::chrono::milliseconds timeout) {
  std::vector<std::pair<std::size_t, std::string>> failed;
  if (count == 0) return failed;
  DaemonConnection daemon(address, std::chrono::steady_clock::now() + timeout);
  daemon.send_all("BATCH\n");
  std::string text;
  if (daemon_status(daemon.read_line(), text) < 0) daemon.fail("BATCH refused: " + text);

  // The commands in writes of about 256 KiB: a few system calls for thousands of ports.
  std::string chunk;
  constexpr std::size_t kChunk = 256 * 1024;
  BatchUpdate u;
  for (std::size_t k = 0; k < count; ++k) {
    u.path.clear();
    u.line.clear();
    update_at(k, u);
    chunk += "UPDATE ";
    append_daemon_escaped(chunk, u.path);
    chunk += ' ';
    chunk += u.line;
    chunk += '\n';
    if (chunk.size() >= kChunk) {
      daemon.send_all(chunk);
      chunk.clear();
    }
  }
  chunk += ".\n";
  daemon.send_all(chunk);

  // "N errors", then N lines "COMMAND_NUMBER reason" (commands counted from 1, BATCH excluded).
  const int errors = daemon_status(daemon.read_line(), text);
  if (errors < 0) daemon.fail("batch failed: " + text);
  if (static_cast<std::size_t>(errors) > count)
    daemon.fail(std::to_string(errors) + " errors for " + std::to_string(count) + " updates");
  for (int i = 0; i < errors; ++i) {
    const std::string line = daemon.read_line();
    const int number = daemon_status(line, text);
    if (number >= 1 && static_cast<std::size_t>(number) <= count)
      failed.emplace_back(static_cast<std::size_t>(number) - 1, text);
    else
      failed.emplace_back(count, line);  // not tied to one update
  }
  return failed;
}

std::vector<std::optional<std::time_t>> last_updates(const std::string& address,
                                                     const std::vector<std::string>& paths,
                                                     std::chrono::milliseconds timeout) {
  std::vector<std::optional<std::time_t>> times(paths.size());
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  // The daemon opens each file to answer (see handle_request_last): many files are asked over a
  // few connections side by side, each served by a thread of the daemon's.
  in_slices(paths.size(), connections_for(paths.size()), [&](std::size_t begin, std::size_t end) {
    pipeline(
        address, end - begin,
        [&](std::size_t k, std::string& out) {
          out += "LAST ";
          append_daemon_escaped(out, paths[begin + k]);
        },
        [&](std::size_t k, const DaemonAnswer& answer) {
          if (answer.status < 0) return;  // no such file, or unreadable: the caller reads it
          char* stop = nullptr;
          const long long value = std::strtoll(answer.message.c_str(), &stop, 10);
          if (stop != answer.message.c_str()) times[begin + k] = static_cast<std::time_t>(value);
        },
        deadline);
  });
  return times;
}

void daemon_pending(
    const std::string& address, std::size_t count,
    const std::function<void(std::size_t, std::string&)>& name_of,
    const std::function<void(std::size_t, std::optional<std::string_view>)>& on_pending,
    DaemonConnection::Deadline deadline) {
  // Only the last update of each answer matters (a file swept every few seconds lists dozens):
  // each line is looked at as it comes, none is stored.
  std::string last;
  std::string name;  // its room kept from one file to the next
  pipeline(
      address, count,
      [&](std::size_t i, std::string& out) {
        out += "PENDING ";
        name.clear();
        name_of(i, name);
        append_daemon_escaped(out, name);
      },
      [&](std::size_t i, const DaemonAnswer& answer) {
        if (answer.status <= 0 || last.empty()) return on_pending(i, std::nullopt);
        on_pending(i, std::string_view(last));
        last.clear();  // its room kept for the next answer's lines
      },
      deadline,
      [&last](std::string_view line) {
        last.assign(line);
        return false;
      });
}

namespace {

// INFO's lines, "KEY TYPE VALUE" (librrd's rrd_info_type: 1 a count, 2 a text), as a header.
RrdHeader header_of(const std::vector<std::string>& lines) {
  RrdHeader header;
  for (const std::string& line : lines) {
    const std::size_t key_end = line.find(' ');
    if (key_end == std::string::npos || key_end + 3 > line.size()) continue;
    const std::string_view key(line.data(), key_end);
    const std::string_view value(line.data() + key_end + 3, line.size() - key_end - 3);
    if (line[key_end + 1] == '1')
      add_header_count(header, key, std::strtoul(value.data(), nullptr, 10));
    else if (line[key_end + 1] == '2')
      add_header_text(header, key, value);
  }
  return header;
}

// Whether an INFO line may matter to header_of: the step, the last update and the data sources'
// lines (the archives' lines, most of the ~500, do not).
bool header_line(std::string_view line) {
  return line.starts_with("ds[") || line.starts_with("step ") || line.starts_with("last_update ");
}

}  // namespace

void daemon_infos(const std::string& address, std::span<const std::string> paths,
                  const std::function<void(std::size_t, const std::optional<RrdHeader>&,
                                           const std::string&)>& on_header,
                  std::chrono::milliseconds timeout) {
  // Commands 2i (FLUSH) and 2i + 1 (INFO) are file i's.
  std::string flush_error;
  bool missing = false;
  pipeline(
      address, paths.size() * 2,
      [&](std::size_t c, std::string& out) {
        out += c % 2 == 0 ? "FLUSH " : "INFO ";
        append_daemon_escaped(out, paths[c / 2]);
      },
      [&](std::size_t c, const DaemonAnswer& answer) {
        if (c % 2 == 0) {
          missing = answer.status < 0 && says_missing(answer.message);
          flush_error = answer.status < 0 && !missing ? "cannot flush: " + answer.message : "";
          return;
        }
        const std::size_t i = c / 2;
        if (missing) return on_header(i, std::nullopt, "");
        if (!flush_error.empty()) return on_header(i, std::nullopt, flush_error);
        if (answer.status < 0)
          return says_missing(answer.message)
                     ? on_header(i, std::nullopt, "")
                     : on_header(i, std::nullopt, "cannot read: " + answer.message);
        on_header(i, header_of(answer.lines), "");
      },
      std::chrono::steady_clock::now() + timeout, header_line);
}

}  // namespace ibpm::state
