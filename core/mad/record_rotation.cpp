// SPDX-License-Identifier: MIT

#include "mad/record_rotation.hpp"

#include <fcntl.h>
#include <pcap/pcap.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "mad/mad_engine.hpp"
#include "mad/pcap_library.hpp"

namespace ibpm::mad {

namespace {

std::string numbered(const std::string& path, unsigned n) { return path + "." + std::to_string(n); }

void move(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0 && errno != ENOENT)
    throw MadError("--record " + from + ": cannot rotate it to " + to + ": " +
                   std::strerror(errno));
}

// The time of the recording's first packet; none when it has no packet yet or libpcap cannot
// read one (the recorder then says what is wrong with the file, or appends after the header).
std::optional<std::chrono::system_clock::time_point> first_packet_time(const std::string& path) {
  char error[PCAP_ERRBUF_SIZE];
  pcap_t* pcap = pcap_library().open_offline_with_tstamp_precision(
      path.c_str(), PCAP_TSTAMP_PRECISION_NANO, error);
  if (!pcap) return std::nullopt;
  std::optional<std::chrono::system_clock::time_point> when;
  pcap_pkthdr* header = nullptr;
  const u_char* data = nullptr;
  if (pcap_library().next_ex(pcap, &header, &data) == 1) {
    const std::chrono::nanoseconds since_epoch =
        std::chrono::seconds(header->ts.tv_sec) +
        std::chrono::nanoseconds(header->ts.tv_usec);  // nanoseconds at this precision
    when = std::chrono::system_clock::time_point(
        std::chrono::duration_cast<std::chrono::system_clock::duration>(since_epoch));
  }
  pcap_library().close(pcap);
  return when;
}

}  // namespace

std::chrono::seconds parse_record_age(const std::string& text) {
  const std::invalid_argument bad("--record-max-age " + text +
                                  ": not a duration (seconds, or a number with s, m, h or d)");
  std::size_t at = 0;
  std::uint64_t value = 0;
  constexpr std::uint64_t kLimit = 100ULL * 365 * 86400;  // a century: any more is a typo
  for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
    value = value * 10 + static_cast<unsigned>(text[at] - '0');
    if (value > kLimit) throw bad;
  }
  if (at == 0 || text.size() - at > 1) throw bad;
  std::uint64_t unit = 1;
  if (at < text.size()) {
    switch (text[at]) {
      case 's':
      case 'S':
        unit = 1;
        break;
      case 'm':
      case 'M':
        unit = 60;
        break;
      case 'h':
      case 'H':
        unit = 3600;
        break;
      case 'd':
      case 'D':
        unit = 86400;
        break;
      default:
        throw bad;
    }
  }
  if (value * unit > kLimit) throw bad;
  return std::chrono::seconds(static_cast<std::chrono::seconds::rep>(value * unit));
}

bool rotation_due(std::uint64_t size,
                  std::optional<std::chrono::system_clock::time_point> first_packet,
                  std::chrono::system_clock::time_point now, const RecordRotation& rotation) {
  if (rotation.max_size != 0 && size >= rotation.max_size) return true;
  // A first packet in the future (the clock set back) is not old.
  return rotation.max_age.count() > 0 && first_packet && now - *first_packet >= rotation.max_age;
}

std::uint64_t parse_record_size(const std::string& text) {
  const std::invalid_argument bad("--record-max-size " + text +
                                  ": not a size (bytes, or a number with K, M, G or T)");
  std::size_t at = 0;
  std::uint64_t value = 0;
  for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
    if (value > (UINT64_MAX - 9) / 10) throw bad;
    value = value * 10 + static_cast<unsigned>(text[at] - '0');
  }
  if (at == 0) throw bad;
  std::string unit = text.substr(at);
  for (char& c : unit) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  if (unit.size() > 1 && unit.back() == 'B') unit.pop_back();
  if (unit.size() > 1 && unit.back() == 'I') unit.pop_back();
  int shift = 0;
  if (unit == "K")
    shift = 10;
  else if (unit == "M")
    shift = 20;
  else if (unit == "G")
    shift = 30;
  else if (unit == "T")
    shift = 40;
  else if (!unit.empty() && unit != "B")
    throw bad;
  if (shift && value > (UINT64_MAX >> shift)) throw bad;
  return value << shift;
}

void rotate_if_full(const std::string& path, const RecordRotation& rotation) {
  if (rotation.max_size == 0 && rotation.max_age.count() == 0) return;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;  // no recording yet
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  // Another run that held the lock may have moved the file away meanwhile: then the file at the
  // path is a new one (or none), and this run appends to it as it is.
  flock(fd, LOCK_EX);
  struct stat opened {
  }, now{};
  if (fstat(fd, &opened) != 0 || stat(path.c_str(), &now) != 0 || opened.st_ino != now.st_ino ||
      opened.st_dev != now.st_dev)
    return;
  const std::optional<std::chrono::system_clock::time_point> first =
      rotation.max_age.count() > 0 ? first_packet_time(path) : std::nullopt;
  if (!rotation_due(static_cast<std::uint64_t>(opened.st_size), first,
                    std::chrono::system_clock::now(), rotation))
    return;
  if (rotation.keep == 0) {
    if (unlink(path.c_str()) != 0 && errno != ENOENT)
      throw MadError("--record " + path + ": cannot remove it: " + std::strerror(errno));
    return;
  }
  if (unlink(numbered(path, rotation.keep).c_str()) != 0 && errno != ENOENT)
    throw MadError("--record " + numbered(path, rotation.keep) +
                   ": cannot remove it: " + std::strerror(errno));
  for (unsigned n = rotation.keep - 1; n >= 1; --n) move(numbered(path, n), numbered(path, n + 1));
  move(path, numbered(path, 1));
}

}  // namespace ibpm::mad
