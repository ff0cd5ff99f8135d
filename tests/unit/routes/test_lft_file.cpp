// SPDX-License-Identifier: MIT
// STATE_DIR/routes.lft: what is written is read back as it was; another version, a cut or
// damaged line is refused with the file and line named.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "routes/lft_file.hpp"
#include "routing_fixture.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm;
using namespace ibpm::routes;
namespace fs = std::filesystem;

namespace {

using ibpm::test::TempDir;
using ibpm::test::write_text;

}  // namespace

TEST_CASE("forwarding tables survive the file unchanged") {
  TempDir dir("lft");
  const Fabric fabric = routes::test::fat_tree_fabric(36, 12, 2);
  ForwardingTables tables = routes::test::min_hop_tables(fabric);
  tables.read_at = 1764072000;
  const std::string path = lft_file_path(dir.path().string());
  write_lft_file(path, tables);
  const ForwardingTables back = read_lft_file(path);
  CHECK(back.read_at == tables.read_at);
  REQUIRE(back.switches.size() == tables.switches.size());
  for (const auto& [guid, table] : tables.switches) {
    const SwitchTable* read = back.find(guid);
    REQUIRE(read);
    CHECK(read->lid == table.lid);
    CHECK(read->ports == table.ports);
  }
}

TEST_CASE("a missing, foreign, newer or damaged file is refused with a reason") {
  TempDir dir("lft");
  const std::string path = (dir.path() / "routes.lft").string();
  CHECK_THROWS_WITH(read_lft_file(path), Catch::Contains("ibpm-routes --refresh"));
  write_text(path, "something else\n");
  CHECK_THROWS_WITH(read_lft_file(path), Catch::Contains("not an ibpm forwarding table file"));
  write_text(path, "ibpm-lft 2\nread_at 1\n");
  CHECK_THROWS_WITH(read_lft_file(path), Catch::Contains("format version 2"));
  write_text(path, "ibpm-lft 1\nread_at 1\nswitch 0x1 2 ff0\n");
  CHECK_THROWS_WITH(read_lft_file(path), Catch::Contains("line 3"));
  write_text(path, "ibpm-lft 1\nread_at 1\nswitch 0x1 2 ffzz\n");
  CHECK_THROWS_WITH(read_lft_file(path), Catch::Contains("bad egress port 'zz'"));
  write_text(path, "ibpm-lft 1\nswitch 0x1 2 ff01\n");
  CHECK_THROWS_WITH(read_lft_file(path), Catch::Contains("no read_at"));
  write_text(path, "ibpm-lft 1\nread_at 1\nswitch 0x1 2 ff01\nswitch 0x1 3 ff01\n");
  CHECK_THROWS_WITH(read_lft_file(path), Catch::Contains("listed twice"));
}
