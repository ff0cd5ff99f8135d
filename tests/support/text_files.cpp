// SPDX-License-Identifier: MIT
// Binary mode both ways: the bytes on disk are the bytes in the string.
#include "support/text_files.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ibpm::test {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace ibpm::test
