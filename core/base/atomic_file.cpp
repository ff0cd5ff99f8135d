// SPDX-License-Identifier: MIT

#include "base/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace ibpm::base {

void replace_file(const std::string& path, const std::function<bool(const std::string&)>& write) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  std::remove(tmp.c_str());  // writers such as libibnetdisc's refuse to overwrite
  bool written = false;
  try {
    written = write(tmp);
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  if (!written) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot write " + path);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
  }
}

void replace_file_with(const std::string& path, const std::function<void(std::ostream&)>& write) {
  replace_file(path, [&](const std::string& tmp) {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    write(out);
    out.flush();
    return static_cast<bool>(out);
  });
}

}  // namespace ibpm::base
