#include <catch2/catch.hpp>

#include "locality/hostlist.hpp"

using namespace ibpm::locality;

TEST_CASE("hostlists expand ranges with their zero padding and suffixes") {
  CHECK(expand_hostlist("cn[01-03]") == std::vector<std::string>{"cn01", "cn02", "cn03"});
  CHECK(expand_hostlist("cn[8-10],login1") ==
        std::vector<std::string>{"cn8", "cn9", "cn10", "login1"});
  CHECK(expand_hostlist("r[1,3]-ib") == std::vector<std::string>{"r1-ib", "r3-ib"});
  CHECK_THROWS_WITH(expand_hostlist("cn[3-1]"), Catch::Contains("bad range"));
  CHECK_THROWS_WITH(expand_hostlist("cn[1-2"), Catch::Contains("unbalanced"));
  CHECK_THROWS_WITH(expand_hostlist("a[1-2]b[1-2]"), Catch::Contains("one bracket range"));
  CHECK_THROWS(expand_hostlist("cn[x-2]"));
}

TEST_CASE("hostlists compress back to ranges") {
  CHECK(compress_hostlist({"cn0003", "cn0001", "cn0002", "cn0009", "login"}) ==
        "cn[0001-0003,0009],login");
  CHECK(compress_hostlist({"cn1", "cn1"}) == "cn1");
  auto names = expand_hostlist("node[001-128]");
  CHECK(compress_hostlist(names) == "node[001-128]");
}

TEST_CASE("a host's name is its description's first word") {
  CHECK(host_name("cn0001 HCA-1") == "cn0001");
  CHECK(host_name("  luna-0001 mlx5_0 ") == "luna-0001");
  CHECK(host_name("") == "");
}
