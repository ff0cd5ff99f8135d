#include "state/rrdcached_batch.hpp"

#include <netdb.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "state/state_error.hpp"

namespace ibpm::state {

namespace {

class Connection {
 public:
  Connection(const std::string& address, std::chrono::milliseconds timeout) : address_(address) {
    std::string path = address;
    if (path.starts_with("unix:")) path.erase(0, 5);
    if (path.starts_with("/")) {
      connect_unix(path);
    } else {
      connect_tcp(address);
    }
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>(timeout.count() % 1000 * 1000);
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  }
  ~Connection() {
    if (fd_ >= 0) ::close(fd_);
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void send_all(const std::string& bytes) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      // MSG_NOSIGNAL: a daemon that went away is an error here, not a SIGPIPE.
      const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n < 0) {
        if (errno == EINTR) continue;
        fail(std::string("cannot send: ") + std::strerror(errno));
      }
      sent += static_cast<std::size_t>(n);
    }
  }

  std::string read_line() {
    for (;;) {
      const std::size_t end = buffer_.find('\n');
      if (end != std::string::npos) {
        std::string line = buffer_.substr(0, end);
        buffer_.erase(0, end + 1);
        return line;
      }
      char chunk[4096];
      const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail(std::string("no answer: ") + std::strerror(errno));
      if (n == 0) fail("connection closed");
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  [[noreturn]] void fail(const std::string& reason) const {
    throw StateError("rrdcached at " + address_ + ": " + reason);
  }

 private:
  void connect_unix(const std::string& path) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) fail("socket path too long");
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) fail(std::string("socket: ") + std::strerror(errno));
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
      fail(std::string("cannot connect: ") + std::strerror(errno));
  }

  void connect_tcp(const std::string& address) {
    std::string host = address, port = "42217";
    if (host.starts_with("[")) {  // [v6]:port
      const std::size_t close = host.find(']');
      if (close == std::string::npos) fail("malformed address");
      if (close + 1 < host.size() && host[close + 1] == ':') port = host.substr(close + 2);
      host = host.substr(1, close - 1);
    } else if (const std::size_t colon = host.rfind(':');
               colon != std::string::npos && host.find(':') == colon) {
      port = host.substr(colon + 1);
      host.erase(colon);
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (const int err = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); err != 0)
      fail(std::string("cannot resolve: ") + ::gai_strerror(err));
    std::string last = "no address";
    for (addrinfo* a = found; a; a = a->ai_next) {
      fd_ = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
      if (fd_ < 0) continue;
      if (::connect(fd_, a->ai_addr, a->ai_addrlen) == 0) break;
      last = std::strerror(errno);
      ::close(fd_);
      fd_ = -1;
    }
    ::freeaddrinfo(found);
    if (fd_ < 0) fail("cannot connect: " + last);
  }

  std::string address_;
  std::string buffer_;
  int fd_ = -1;
};

// "N message": the daemon's status (negative: the command failed) and its text.
int status_of(const std::string& line, std::string& text) {
  char* end = nullptr;
  const long status = std::strtol(line.c_str(), &end, 10);
  if (end == line.c_str()) return -1;
  text = *end == ' ' ? std::string(end + 1) : std::string(end);
  return static_cast<int>(status);
}

}  // namespace

std::string daemon_escape(const std::string& path) {
  std::string escaped;
  escaped.reserve(path.size());
  for (char c : path) {
    if (c == ' ' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return escaped;
}

std::vector<std::pair<std::size_t, std::string>> batch_update(
    const std::string& address, const std::vector<BatchUpdate>& updates,
    std::chrono::milliseconds timeout) {
  std::vector<std::pair<std::size_t, std::string>> failed;
  if (updates.empty()) return failed;
  Connection daemon(address, timeout);
  daemon.send_all("BATCH\n");
  std::string text;
  if (status_of(daemon.read_line(), text) < 0) daemon.fail("BATCH refused: " + text);

  // The commands in writes of about 256 KiB: a few system calls for thousands of ports.
  std::string chunk;
  constexpr std::size_t kChunk = 256 * 1024;
  for (const BatchUpdate& u : updates) {
    chunk += "UPDATE ";
    chunk += daemon_escape(u.path);
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
  const int errors = status_of(daemon.read_line(), text);
  if (errors < 0) daemon.fail("batch failed: " + text);
  for (int i = 0; i < errors; ++i) {
    const std::string line = daemon.read_line();
    const int number = status_of(line, text);
    if (number >= 1 && static_cast<std::size_t>(number) <= updates.size())
      failed.emplace_back(static_cast<std::size_t>(number) - 1, text);
    else
      failed.emplace_back(updates.size(), line);  // not tied to one update
  }
  return failed;
}

std::vector<std::optional<std::time_t>> last_updates(const std::string& address,
                                                     const std::vector<std::string>& paths,
                                                     std::chrono::milliseconds timeout) {
  std::vector<std::optional<std::time_t>> times(paths.size());
  if (paths.empty()) return times;
  Connection daemon(address, timeout);
  std::string chunk;
  constexpr std::size_t kChunk = 256 * 1024;
  std::size_t answered = 0;
  // Commands in chunks, the answers of each chunk read before the next (the daemon's socket
  // buffer never fills with answers nobody reads).
  for (std::size_t i = 0; i < paths.size(); ++i) {
    chunk += "LAST " + daemon_escape(paths[i]) + "\n";
    if (chunk.size() < kChunk && i + 1 < paths.size()) continue;
    daemon.send_all(chunk);
    chunk.clear();
    for (; answered <= i; ++answered) {
      std::string text;
      const int status = status_of(daemon.read_line(), text);
      if (status < 0) continue;  // no such file, or unreadable: the caller reads it itself
      char* end = nullptr;
      const long long value = std::strtoll(text.c_str(), &end, 10);
      if (end != text.c_str()) times[answered] = static_cast<std::time_t>(value);
    }
  }
  return times;
}

}  // namespace ibpm::state
