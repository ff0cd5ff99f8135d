// SPDX-License-Identifier: MIT
// rrd_info_r's linked list turned into a map of text values.
#include "support/rrd_files.hpp"

#include <rrd.h>

#include <sstream>
#include <stdexcept>

namespace ibpm::test {

std::map<std::string, std::string> rrd_info(const std::string& path) {
  rrd_clear_error();
  rrd_info_t* info = rrd_info_r(path.c_str());
  if (!info) throw std::runtime_error("rrd_info_r " + path + ": " + rrd_get_error());
  std::map<std::string, std::string> values;
  for (rrd_info_t* i = info; i; i = i->next) {
    std::string text;
    switch (i->type) {
      case RD_I_VAL: {
        std::ostringstream number;
        number.precision(17);
        number << i->value.u_val;
        text = number.str();
        break;
      }
      case RD_I_CNT:
        text = std::to_string(i->value.u_cnt);
        break;
      case RD_I_STR:
        text = i->value.u_str ? i->value.u_str : "";
        break;
      case RD_I_INT:
        text = std::to_string(i->value.u_int);
        break;
      default:
        break;
    }
    values[i->key] = text;
  }
  rrd_info_free(info);
  return values;
}

std::string last_ds(const std::string& path, const std::string& source) {
  const auto info = rrd_info(path);
  const auto it = info.find("ds[" + source + "].last_ds");
  if (it == info.end()) throw std::runtime_error(path + " has no data source " + source);
  return it->second;
}

double sample_time(const std::string& path) { return std::stod(last_ds(path, "sample_time")); }

}  // namespace ibpm::test
