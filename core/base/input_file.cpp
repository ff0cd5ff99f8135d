// SPDX-License-Identifier: MIT

#include "base/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace ibpm::base {

std::ifstream open_input_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw std::runtime_error(path + ": cannot read (is a directory)");
  errno = 0;
  std::ifstream in(path);
  if (!in) {
    const int error = errno;
    throw std::runtime_error(path + ": cannot read" +
                             (error != 0 ? " (" + std::string(std::strerror(error)) + ")" : ""));
  }
  return in;
}

}  // namespace ibpm::base
