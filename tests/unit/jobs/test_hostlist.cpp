// SPDX-License-Identifier: MIT
// Slurm hostlist expressions as squeue prints them: ranges keep their width, several brackets
// multiply out, and malformed expressions are refused with the reason; names compress back into
// ranges; a host's name is its description's first word.
#include <catch2/catch.hpp>

#include "jobs/hostlist.hpp"

using namespace ibpm::jobs;
using Hosts = std::vector<std::string>;

TEST_CASE("hostlists expand as Slurm expands them") {
  CHECK(expand_hostlist("cn[0001-0004,0007],gpu01") ==
        Hosts{"cn0001", "cn0002", "cn0003", "cn0004", "cn0007", "gpu01"});
  CHECK(expand_hostlist("cn01") == Hosts{"cn01"});
  CHECK(expand_hostlist("n[8-11]") == Hosts{"n8", "n9", "n10", "n11"});
  CHECK(expand_hostlist("n[08-10]") == Hosts{"n08", "n09", "n10"});
  CHECK(expand_hostlist("r[1-2]n[1-2]") == Hosts{"r1n1", "r1n2", "r2n1", "r2n2"});
  CHECK(expand_hostlist("a[1],b[2-3]-ib") == Hosts{"a1", "b2-ib", "b3-ib"});
  CHECK(expand_hostlist("").empty());
}

TEST_CASE("malformed hostlists are refused") {
  CHECK_THROWS_WITH(expand_hostlist("cn[1-3"), Catch::Contains("'[' without ']'"));
  CHECK_THROWS_WITH(expand_hostlist("cn1-3]"), Catch::Contains("']' without '['"));
  CHECK_THROWS_WITH(expand_hostlist("cn[3-1]"), Catch::Contains("runs backwards"));
  CHECK_THROWS_WITH(expand_hostlist("cn[a-b]"), Catch::Contains("not a number"));
  CHECK_THROWS_WITH(expand_hostlist("cn[1-2],,x"), Catch::Contains("empty host name"));
  CHECK_THROWS_WITH(expand_hostlist("cn[[1]]"), Catch::Contains("nested"));
  CHECK_THROWS_WITH(expand_hostlist("cn[1-99999999]"), Catch::Contains("too large"));
  CHECK_THROWS_WITH(expand_hostlist("a[1-1000]b[1-1001]"), Catch::Contains("more than"));
}

TEST_CASE("hostlists expand ranges with their zero padding and suffixes") {
  CHECK(expand_hostlist("cn[01-03]") == Hosts{"cn01", "cn02", "cn03"});
  CHECK(expand_hostlist("cn[8-10],login1") == Hosts{"cn8", "cn9", "cn10", "login1"});
  CHECK(expand_hostlist("r[1,3]-ib") == Hosts{"r1-ib", "r3-ib"});
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
