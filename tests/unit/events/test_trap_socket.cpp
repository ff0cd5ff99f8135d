// SPDX-License-Identifier: MIT
// The listener's trap socket: bound with mode 0660, never over a file that is not a socket, over a
// stale socket, never over a live one; records read one at a time, malformed datagrams passed over.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "events/trap_socket.hpp"
#include "support/temp_dir.hpp"

using ibpm::events::encode_trap_record;
using ibpm::events::TrapRecord;
using ibpm::events::TrapSocket;
using ibpm::test::TempDir;

namespace {

// Sends `bytes` to the socket at `path` as one datagram, as the plugin does.
bool send_datagram(const std::string& path, const void* bytes, std::size_t size) {
  int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  const ssize_t n = ::sendto(fd, bytes, size, MSG_DONTWAIT,
                             reinterpret_cast<const sockaddr*>(&address), sizeof address);
  ::close(fd);
  return n == static_cast<ssize_t>(size);
}

}  // namespace

TEST_CASE("TrapSocket refuses a regular file at its path and leaves it alone") {
  TempDir dir("trap-socket");
  const std::string path = dir / "events.sock";
  std::ofstream(path) << "not a socket\n";
  CHECK_THROWS_WITH(TrapSocket(path), Catch::Contains("exists and is not a socket"));
  REQUIRE(std::filesystem::is_regular_file(path));
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  CHECK(line == "not a socket");
}

TEST_CASE("TrapSocket refuses a folder or a symbolic link at its path") {
  TempDir dir("trap-socket");
  std::filesystem::create_directory(dir / "folder");
  CHECK_THROWS_WITH(TrapSocket(dir / "folder"), Catch::Contains("not a socket"));
  std::filesystem::create_symlink(dir / "elsewhere", dir / "link");
  CHECK_THROWS_WITH(TrapSocket(dir / "link"), Catch::Contains("not a socket"));
  CHECK(std::filesystem::is_symlink(dir / "link"));
}

TEST_CASE("TrapSocket binds with mode 0660, reads records and removes its socket") {
  TempDir dir("trap-socket");
  const std::string path = dir / "events.sock";
  {
    TrapSocket socket(path);
    struct stat st {};
    REQUIRE(::lstat(path.c_str(), &st) == 0);
    CHECK(S_ISSOCK(st.st_mode));
    CHECK((st.st_mode & 07777) == 0660);
    CHECK(socket.fd() >= 0);
    CHECK_FALSE(socket.receive());  // nothing waits: no blocking

    TrapRecord record;
    record.trap_number = 128;
    record.issuer_lid = 5;
    record.sequence = 1;
    const auto bytes = encode_trap_record(record);
    const char junk[] = "IBPMTRAP but not a record";
    REQUIRE(send_datagram(path, junk, sizeof junk));
    REQUIRE(send_datagram(path, bytes.data(), bytes.size()));
    const auto got = socket.receive();
    REQUIRE(got);
    CHECK(*got == record);
    CHECK(socket.malformed() == 1);
    CHECK_FALSE(socket.receive());

    // A second listener on the same path is refused while this one lives.
    CHECK_THROWS_WITH(TrapSocket(path), Catch::Contains("another listener"));
  }
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("TrapSocket replaces a stale socket left by a listener that is gone") {
  TempDir dir("trap-socket");
  const std::string path = dir / "events.sock";
  {
    int fd = ::socket(AF_UNIX, SOCK_DGRAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    REQUIRE(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
    ::close(fd);  // the socket file stays, nobody bound to it
  }
  REQUIRE(std::filesystem::is_socket(path));
  TrapSocket socket(path);
  TrapRecord record;
  record.trap_number = 65;
  const auto bytes = encode_trap_record(record);
  REQUIRE(send_datagram(path, bytes.data(), bytes.size()));
  const auto got = socket.receive();
  REQUIRE(got);
  CHECK(got->trap_number == 65);
}
