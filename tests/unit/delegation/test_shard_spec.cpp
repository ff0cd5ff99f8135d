// SPDX-License-Identifier: MIT
// --shard K/N and the port lists of pins.
#include <catch2/catch.hpp>

#include "delegation/port_list.hpp"
#include "delegation/shard_spec.hpp"

using namespace ibpm;
using namespace ibpm::delegation;

namespace {

std::string shard_error(std::string_view text) {
  try {
    parse_shard(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

std::string port_list_error(std::string_view text) {
  try {
    parse_port_list(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("parse_shard reads K/N") {
  CHECK(parse_shard("1/1") == ShardSpec{1, 1});
  CHECK(parse_shard("3/4") == ShardSpec{3, 4});
  CHECK(parse_shard("4/4") == ShardSpec{4, 4});
  CHECK(parse_shard("4096/4096") == ShardSpec{4096, 4096});
  CHECK(to_string(ShardSpec{2, 8}) == "2/8");
}

TEST_CASE("parse_shard rejects K outside 1..N with the reason") {
  CHECK(shard_error("0/4") == "--shard 0/4: K must be between 1 and N");
  CHECK(shard_error("5/4") == "--shard 5/4: K must be between 1 and N");
}

TEST_CASE("parse_shard rejects N outside 1..4096") {
  CHECK(shard_error("1/0") == "--shard 1/0: N must be between 1 and 4096");
  CHECK(shard_error("1/4097") == "--shard 1/4097: N must be between 1 and 4096");
  CHECK(shard_error("1/99999999999999999999") ==
        "--shard 1/99999999999999999999: N must be between 1 and 4096");
}

TEST_CASE("parse_shard rejects text that is not K/N") {
  CHECK(shard_error("4") == "--shard 4: expected K/N, e.g. 2/4");
  CHECK(shard_error("") == "--shard : expected K/N, e.g. 2/4");
  CHECK(shard_error("a/4") == "--shard a/4: K is not a number (expected K/N, e.g. 2/4)");
  CHECK(shard_error("/4") == "--shard /4: K is not a number (expected K/N, e.g. 2/4)");
  CHECK(shard_error("1/") == "--shard 1/: N is not a number (expected K/N, e.g. 2/4)");
  CHECK(shard_error("1/4x") == "--shard 1/4x: N is not a number (expected K/N, e.g. 2/4)");
  CHECK(shard_error("-1/4") == "--shard -1/4: K is not a number (expected K/N, e.g. 2/4)");
  CHECK(shard_error(" 1/4") == "--shard  1/4: K is not a number (expected K/N, e.g. 2/4)");
  CHECK(shard_error("1/2/4") == "--shard 1/2/4: N is not a number (expected K/N, e.g. 2/4)");
}

TEST_CASE("Port lists take numbers and ranges") {
  CHECK(parse_port_list("7") == std::vector<PortNumber>{7});
  CHECK(parse_port_list("1-3,20") == std::vector<PortNumber>{1, 2, 3, 20});
  CHECK(parse_port_list("20,1-3") == std::vector<PortNumber>{1, 2, 3, 20});
  CHECK(parse_port_list("5-5") == std::vector<PortNumber>{5});
  CHECK(parse_port_list("1-254").size() == 254);
}

TEST_CASE("Port lists with empty items or impossible ports are rejected") {
  CHECK(port_list_error("") == "bad port list '': '' is not a port number (1..254)");
  CHECK(port_list_error("1,,2") == "bad port list '1,,2': '' is not a port number (1..254)");
  CHECK(port_list_error("1-") == "bad port list '1-': '' is not a port number (1..254)");
  CHECK(port_list_error("0") == "bad port list '0': '0' is not a port number (1..254)");
  CHECK(port_list_error("255") == "bad port list '255': '255' is not a port number (1..254)");
  CHECK(port_list_error("a") == "bad port list 'a': 'a' is not a port number (1..254)");
  CHECK(port_list_error("5-3") == "bad port list '5-3': range '5-3' runs backwards");
  CHECK(port_list_error("1-4,3") == "bad port list '1-4,3': port 3 is listed twice");
}
