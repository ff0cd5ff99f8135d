// SPDX-License-Identifier: MIT
// What an RRD file holds, read with librrd itself rather than through the code under test.
#pragma once

#include <map>
#include <string>

namespace ibpm::test {

// What rrd_info_r says about a file (every value as text); throws std::runtime_error with
// librrd's error when it cannot read the file.
std::map<std::string, std::string> rrd_info(const std::string& path);
// ds[NAME].last_ds of the file.
std::string last_ds(const std::string& path, const std::string& source);
// The sample_time data source's last value: when the stored sample was taken.
double sample_time(const std::string& path);

}  // namespace ibpm::test
