// SPDX-License-Identifier: MIT

#include "support/rrdcached_daemon.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace ibpm::test {

int free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof addr;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), size);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &size);
  ::close(fd);
  return ntohs(addr.sin_port);
}

bool accepts_connections(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

namespace {

// The socket file exists from bind(), before the daemon listens: only a connection says it does.
bool accepts_connections(const fs::path& socket) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", socket.c_str());
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

Rrdcached::Rrdcached(const fs::path& dir, Listen how, Folders folders, const std::string& commands)
    : socket_(dir / "rrdcached.sock"), port_(how == Listen::tcp ? free_loopback_port() : 0) {
  fs::create_directories(dir / "journal");
  fs::create_directories(dir / "state");
  const std::string listen =
      port_ ? "127.0.0.1:" + std::to_string(port_) : "unix:" + socket_.string();
  const std::string pidfile = (dir / "rrdcached.pid").string();
  const std::string journal = (dir / "journal").string();
  const std::string base = (dir / "state").string();
  const std::string log = (dir / "rrdcached.log").string();
  fs::remove(socket_);
  std::vector<std::string> argv{kRrdcached, "-g", "-l", listen, "-p",   pidfile, "-j",  journal,
                                "-B",       "-b", base, "-w",   "3600", "-f",    "7200"};
  if (folders == Folders::made) argv.push_back("-R");
  // -P applies to the sockets named after it.
  if (!commands.empty()) argv.insert(argv.begin() + 2, {"-P", commands});
  daemon_.emplace(argv, log);
}

Rrdcached::~Rrdcached() {
  daemon_.reset();
  std::error_code ignored;
  fs::remove(socket_, ignored);
}

bool Rrdcached::wait_until_listening() {
  for (auto until = std::chrono::steady_clock::now() + 5s; std::chrono::steady_clock::now() < until;
       std::this_thread::sleep_for(20ms)) {
    if (!daemon_->running()) return false;
    if (port_ ? accepts_connections(port_) : accepts_connections(socket_)) return true;
  }
  return false;
}

std::string Rrdcached::address() const {
  return port_ ? "127.0.0.1:" + std::to_string(port_) : "unix:" + socket_.string();
}

}  // namespace ibpm::test
