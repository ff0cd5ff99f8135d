// SPDX-License-Identifier: MIT

#include "products/store_events.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "base/number.hpp"
#include "base/regular_file.hpp"
#include "state/directories.hpp"

namespace ibpm::products {

namespace {

// The memory's first line holds the epoch second the failure began, then its reason; no more is
// read than that line can be.
constexpr std::size_t kMaxMemory = 4096;

struct Remembered {
  std::optional<double> since;  // unknown when the file is not ours to read
  std::string reason;
};

// What `path` remembers; nullopt when there is nothing (the store answered last time). A file
// that cannot be read (a link planted there, a FIFO) still says the store was failing: it is
// removed, never followed, when the store answers.
std::optional<Remembered> remembered(const std::string& path) {
  std::string text;
  try {
    const base::FileDescriptor file(
        base::open_existing_regular_file(path, base::FinalLink::refuse));
    if (file.fd < 0) return std::nullopt;
    text = base::read_bytes(file.fd, 0, kMaxMemory, path);
  } catch (const std::runtime_error&) {
    return Remembered{};
  }
  Remembered memory;
  char* end = nullptr;
  const double since = std::strtod(text.c_str(), &end);
  if (end != text.c_str() && since > 0) memory.since = since;
  const std::size_t space = text.find(' '), line_end = text.find('\n');
  if (space != std::string::npos && space < line_end)
    memory.reason =
        text.substr(space + 1, line_end == std::string::npos ? line_end : line_end - space - 1);
  return memory;
}

}  // namespace

std::optional<StoreEvent> store_change(const std::string& path, const poll::StoreTrouble& store,
                                       double now) {
  const std::optional<Remembered> before = remembered(path);
  if (!store.failure.empty()) {
    if (before) return std::nullopt;  // said when it began
    std::string line = std::to_string(static_cast<long long>(now)) + " " + store.failure;
    for (char& c : line)
      if (c == '\n' || c == '\r') c = ' ';
    state::make_directories(std::filesystem::path(path).parent_path().string());
    base::replace_file_with(path, [&](std::ostream& out) { out << line << '\n'; });
    return StoreEvent{plugin::State::unknown, poll::describe_failure(store)};
  }
  if (!before) return std::nullopt;
  if (::unlink(path.c_str()) != 0 && errno != ENOENT)
    throw std::runtime_error(path + ": cannot remove: " + std::strerror(errno));
  std::string message = "the store answers again";
  if (before->since)
    message += " (failing since " + base::format_utc(*before->since, "%Y-%m-%dT%H:%M:%SZ") +
               (before->reason.empty() ? "" : ": " + before->reason) + ")";
  return StoreEvent{plugin::State::ok, message};
}

}  // namespace ibpm::products
