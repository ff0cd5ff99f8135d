// SPDX-License-Identifier: MIT

#include "output_dir.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "base/atomic_dir.hpp"

namespace ibpm::nagios_config {

namespace fs = std::filesystem;

namespace {

std::string only_ours(const std::string& dir) {
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    // Files, and with zones the folder ibpm-zones.d.
    if (!(entry.is_regular_file() || entry.is_directory()) || name.rfind("ibpm-", 0) != 0)
      return dir + " holds " + name +
             ", which ibpm-nagios-config did not write: give it a folder of its own";
  }
  return {};
}

void write_file(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << content;
  out.flush();
  if (!out) throw std::runtime_error(path.string() + ": cannot write");
}

}  // namespace

void write_output_dir(const std::string& dir, const ConfigFiles& files) {
  base::StagedFolder staged(dir, only_ours);
  for (const auto& [name, content] : files) write_file(fs::path(staged.path()) / name, content);
  staged.commit();
}

}  // namespace ibpm::nagios_config
