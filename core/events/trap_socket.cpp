// SPDX-License-Identifier: MIT
#include "events/trap_socket.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>

namespace ibpm::events {

namespace {

sockaddr_un address_of(const std::filesystem::path& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string& text = path.native();
  if (text.empty() || text.size() >= sizeof address.sun_path)
    throw std::runtime_error(text + ": not a usable socket path (1 to " +
                             std::to_string(sizeof address.sun_path - 1) + " bytes)");
  std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
  return address;
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what, int error) {
  throw std::system_error(error, std::generic_category(), path.string() + ": " + what);
}

// True when a socket is bound at `address` (a live listener), false when the file is stale.
bool socket_in_use(const sockaddr_un& address) {
  int probe = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (probe < 0) return true;  // cannot tell: leave the file alone
  const int rc = ::connect(probe, reinterpret_cast<const sockaddr*>(&address), sizeof address);
  const int error = errno;
  ::close(probe);
  return rc == 0 || error != ECONNREFUSED;
}

}  // namespace

TrapSocket::TrapSocket(std::filesystem::path path) : path_(std::move(path)) {
  const sockaddr_un address = address_of(path_);
  struct stat st {};
  if (::lstat(path_.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode))
      throw std::runtime_error(path_.string() + ": exists and is not a socket (not replaced)");
    if (socket_in_use(address))
      throw std::runtime_error(path_.string() + ": another listener is bound to this socket");
    if (::unlink(path_.c_str()) != 0 && errno != ENOENT)
      fail(path_, "cannot remove the stale socket", errno);
  } else if (errno != ENOENT) {
    fail(path_, "cannot examine", errno);
  }

  fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) fail(path_, "cannot create a socket", errno);
  if (::bind(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const int error = errno;
    ::close(fd_);
    fail(path_, "cannot bind", error);
  }
  // The plugin (OpenSM, root) and the listener's group write to it; nobody else.
  if (::chmod(path_.c_str(), 0660) != 0 || ::lstat(path_.c_str(), &st) != 0) {
    const int error = errno;
    ::close(fd_);
    ::unlink(path_.c_str());
    fail(path_, "cannot set the socket's mode", error);
  }
  dev_ = st.st_dev;
  ino_ = st.st_ino;
}

TrapSocket::~TrapSocket() {
  ::close(fd_);
  struct stat st {};
  if (::lstat(path_.c_str(), &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == dev_ &&
      st.st_ino == ino_)
    ::unlink(path_.c_str());
}

std::optional<TrapRecord> TrapSocket::receive() {
  // Larger than a record, so a longer datagram is seen as such (MSG_TRUNC: its true length).
  std::array<std::uint8_t, kTrapRecordSize + 16> buffer;
  for (;;) {
    const ssize_t n = ::recv(fd_, buffer.data(), buffer.size(), MSG_DONTWAIT | MSG_TRUNC);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return std::nullopt;
      fail(path_, "cannot receive", errno);
    }
    if (static_cast<std::size_t>(n) <= buffer.size())
      if (auto record = decode_trap_record(std::span(buffer.data(), static_cast<std::size_t>(n))))
        return record;
    ++malformed_;
  }
}

}  // namespace ibpm::events
