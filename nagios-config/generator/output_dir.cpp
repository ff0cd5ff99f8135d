#include "output_dir.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ibpm::nagios_config {

namespace fs = std::filesystem;

namespace {

void require_ours(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;
  if (!fs::is_directory(dir, ec)) throw std::runtime_error(dir.string() + ": not a folder");
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.rfind("ibpm-", 0) != 0)
      throw std::runtime_error(dir.string() + " holds " + name +
                               ", which ibpm-nagios-config did not write: give it a folder of its own");
  }
}

void write_file(const fs::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  out.flush();
  if (!out) throw std::runtime_error(path.string() + ": cannot write");
}

}  // namespace

void write_output_dir(const std::string& dir_text, const ConfigFiles& files) {
  const fs::path dir = fs::absolute(fs::path(dir_text)).lexically_normal();
  const fs::path target = dir.has_filename() ? dir : dir.parent_path();
  require_ours(target);
  std::string pattern = (target.parent_path() / ("." + target.filename().string() + ".new-XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error(target.parent_path().string() + ": cannot create a folder: " +
                             std::strerror(errno));
  const fs::path staging(pattern);
  try {
    for (const auto& [name, content] : files) write_file(staging / name, content);
    fs::permissions(staging, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                 fs::perms::others_read | fs::perms::others_exec);
    if (fs::exists(target)) {
      // Swap the folders in one step, then remove the old one (now at the staging path).
      if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) != 0)
        throw std::runtime_error(target.string() + ": cannot replace: " + std::strerror(errno));
    } else if (::rename(staging.c_str(), target.c_str()) != 0) {
      throw std::runtime_error(target.string() + ": cannot create: " + std::strerror(errno));
    }
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(staging, ignored);
    throw;
  }
  std::error_code ignored;
  fs::remove_all(staging, ignored);
}

}  // namespace ibpm::nagios_config
