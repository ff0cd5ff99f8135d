// SPDX-License-Identifier: MIT
// A whole file read into a string or written from one, throwing when it cannot.
#pragma once

#include <filesystem>
#include <string>

namespace ibpm::test {

std::string read_text(const std::filesystem::path& path);
void write_text(const std::filesystem::path& path, const std::string& text);

}  // namespace ibpm::test
