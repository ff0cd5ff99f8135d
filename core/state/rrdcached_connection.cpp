// SPDX-License-Identifier: MIT

#include "state/rrdcached_connection.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "state/daemon_address.hpp"
#include "state/state_error.hpp"

namespace ibpm::state {

namespace {

int milliseconds_until(DaemonConnection::Deadline deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<long long>(left.count(), 1 << 30));
}

}  // namespace

DaemonConnection::DaemonConnection(const std::string& address, Deadline deadline)
    : address_(address), deadline_(deadline), opened_(std::chrono::steady_clock::now()) {
  const DaemonEndpoint endpoint = parse_daemon_address(address);
  if (endpoint.unix_socket)
    connect_unix(endpoint.path);
  else
    connect_tcp(endpoint);
}

DaemonConnection::~DaemonConnection() {
  if (fd_ >= 0) ::close(fd_);
}

void DaemonConnection::fail(const std::string& reason) const {
  throw StateError("rrdcached at " + address_ + ": " + reason);
}

void DaemonConnection::connect_unix(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path) fail("socket path too long");
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd_ < 0) fail(std::string("socket: ") + std::strerror(errno));
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 && errno != EINPROGRESS)
    fail(std::string("cannot connect: ") + std::strerror(errno));
}

void DaemonConnection::connect_tcp(const DaemonEndpoint& endpoint) {
  if (endpoint.malformed) fail("malformed address");
  const std::string& host = endpoint.host;
  const std::string& port = endpoint.port;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int err = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); err != 0)
    fail(std::string("cannot resolve: ") + ::gai_strerror(err));
  std::string last = "no address";
  for (addrinfo* a = found; a; a = a->ai_next) {
    fd_ = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd_ < 0) continue;
    int err = ::connect(fd_, a->ai_addr, a->ai_addrlen) == 0 ? 0 : errno;
    if (err == EINPROGRESS) {
      pollfd p{fd_, POLLOUT, 0};
      int ready;
      while ((ready = ::poll(&p, 1, milliseconds_until(deadline_))) < 0 && errno == EINTR) {
      }
      socklen_t size = sizeof err;
      if (ready <= 0)
        err = ETIMEDOUT;
      else if (::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &err, &size) != 0)
        err = errno;
    }
    if (err == 0) break;
    last = std::strerror(err);
    ::close(fd_);
    fd_ = -1;
  }
  ::freeaddrinfo(found);
  if (fd_ < 0) fail("cannot connect: " + last);
}

bool DaemonConnection::next_line(std::string& line) {
  const std::size_t end = buffer_.find('\n', std::max(head_, scanned_));
  if (end == std::string::npos) {
    scanned_ = buffer_.size();
    if (buffer_.size() - head_ > kMaxLine)
      fail("an answer line longer than " + std::to_string(kMaxLine) + " octets");
    return false;
  }
  line.assign(buffer_, head_, end - head_);
  head_ = end + 1;
  return true;
}

void DaemonConnection::receive() {
  // Lines already taken are dropped once per read from the socket, not once per line.
  buffer_.erase(0, head_);
  scanned_ -= std::min(scanned_, head_);
  head_ = 0;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
      ++reads_;
      return;
    }
    if (n == 0) fail("connection closed");
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return;
    fail(std::string("no answer: ") + std::strerror(errno));
  }
}

void DaemonConnection::send_some(const std::string& bytes, std::size_t& offset) {
  while (offset < bytes.size()) {
    // MSG_NOSIGNAL: a daemon that went away is an error here, not a SIGPIPE.
    const ssize_t n = ::send(fd_, bytes.data() + offset, bytes.size() - offset, MSG_NOSIGNAL);
    if (n >= 0) {
      offset += static_cast<std::size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOTCONN) return;
    fail(std::string("cannot send: ") + std::strerror(errno));
  }
}

void DaemonConnection::wake_after(std::size_t bytes) {
  bytes = std::clamp<std::size_t>(bytes, 1, 64 * 1024);
  if (bytes == low_water_) return;
  const int value = static_cast<int>(bytes);
  // A socket that refuses it only wakes the client more often.
  if (::setsockopt(fd_, SOL_SOCKET, SO_RCVLOWAT, &value, sizeof value) == 0) low_water_ = bytes;
}

bool DaemonConnection::wait(bool want_write) {
  for (;;) {
    pollfd p{fd_, static_cast<short>(POLLIN | (want_write ? POLLOUT : 0)), 0};
    const int ready = ::poll(&p, 1, milliseconds_until(deadline_));
    if (ready > 0) return (p.revents & POLLOUT) != 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) fail(std::string("poll: ") + std::strerror(errno));
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - opened_).count();
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f", waited);
    fail(std::string("did not answer within ") + seconds + " s");
  }
}

void DaemonConnection::send_all(const std::string& bytes) {
  std::size_t offset = 0;
  for (send_some(bytes, offset); offset < bytes.size(); send_some(bytes, offset))
    if (!wait(true)) receive();  // (an answer before the end of a write: kept for read_line)
}

std::string DaemonConnection::read_line() {
  std::string line;
  while (!next_line(line)) {
    wait(false);
    receive();
  }
  return line;
}

int daemon_status(const std::string& line, std::string& text) {
  char* end = nullptr;
  const long status = std::strtol(line.c_str(), &end, 10);
  if (end == line.c_str()) return -1;
  text = *end == ' ' ? std::string(end + 1) : std::string(end);
  return static_cast<int>(status);
}

void append_daemon_escaped(std::string& out, std::string_view path) {
  // In runs between the characters to escape, each run appended whole (a sweep's file names have
  // none: one append a name, not one a character).
  std::size_t run = 0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] != ' ' && path[i] != '\\') continue;
    out.append(path.substr(run, i - run));
    out += '\\';
    run = i;  // the character itself starts the next run
  }
  out.append(path.substr(run));
}

}  // namespace ibpm::state
