// SPDX-License-Identifier: MIT

#include "base/secret_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cstdio>
#include <stdexcept>

#include "base/regular_file.hpp"

namespace ibpm::base {

namespace {

void refuse_shared_file(int fd, const std::string& path) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) throw std::runtime_error(path + ": cannot stat");
  if (info.st_mode & (S_IRWXG | S_IRWXO)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
    throw std::runtime_error(path + ": group or others may read it (mode " + mode +
                             "): chmod 600 " + path);
  }
}

}  // namespace

std::string read_private_file(const std::string& path) {
  constexpr std::size_t kMaxBytes = 64 * 1024;
  const FileDescriptor file(open_regular_file(path, O_RDONLY, FinalLink::follow));
  refuse_shared_file(file.fd, path);
  std::string bytes = read_bytes(file.fd, 0, kMaxBytes + 1, path);
  if (bytes.size() > kMaxBytes)
    throw std::runtime_error(path + ": larger than " + std::to_string(kMaxBytes) + " bytes");
  return bytes;
}

std::string read_secret_file(const std::string& path) {
  const FileDescriptor file(open_regular_file(path, O_RDONLY, FinalLink::follow));
  refuse_shared_file(file.fd, path);
  std::string text = read_bytes(file.fd, 0, 4096, path);
  text = text.substr(0, text.find('\n'));
  if (!text.empty() && text.back() == '\r') text.pop_back();
  if (text.empty()) throw std::runtime_error(path + ": empty");
  return text;
}

}  // namespace ibpm::base
