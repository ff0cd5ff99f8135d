// SPDX-License-Identifier: MIT

#include "mad/record_rotation.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "mad/mad_engine.hpp"

namespace ibpm::mad {

namespace {

std::string numbered(const std::string& path, unsigned n) { return path + "." + std::to_string(n); }

void move(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0 && errno != ENOENT)
    throw MadError("--record " + from + ": cannot rotate it to " + to + ": " +
                   std::strerror(errno));
}

}  // namespace

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
  if (rotation.max_size == 0) return;
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
  if (static_cast<std::uint64_t>(opened.st_size) < rotation.max_size) return;
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
