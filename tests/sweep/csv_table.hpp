// SPDX-License-Identifier: MIT
// The CSV file check_ib_fabric --csv appends, read back for the tests (RFC 4180: quoted fields
// may hold commas, quotes and newlines).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace ibpm::sweep::test {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;  // column name -> field
};

// Throws std::runtime_error when the file cannot be read or a row has the wrong field count.
CsvTable read_csv(const std::string& path);

}  // namespace ibpm::sweep::test
