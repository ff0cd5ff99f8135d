// SPDX-License-Identifier: MIT
// STATE_DIR/routes.lft: what is written is read back as it was; another version, a cut or
// damaged line is refused with the file and line named.
#include <sys/stat.h>
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
  write_text(path, "ibpm-lft 3 1\nread_at 1\n");
  CHECK_THROWS_WITH(read_lft_file(path), Catch::Contains("format version 3"));
  write_text(path, "ibpm-lft 2 1\nread_at 1\nswitch 0x1 2 ff0\nend 1\n");
  CHECK_THROWS_WITH(read_lft_file(path), Catch::Contains("line 3"));
  write_text(path, "ibpm-lft 2 1\nread_at 1\nswitch 0x1 2 ffzz\nend 1\n");
  CHECK_THROWS_WITH(read_lft_file(path), Catch::Contains("bad egress port 'zz'"));
  write_text(path, "ibpm-lft 2 1\nswitch 0x1 2 ff01\nend 1\n");
  CHECK_THROWS_WITH(read_lft_file(path), Catch::Contains("no read_at"));
  write_text(path, "ibpm-lft 2 2\nread_at 1\nswitch 0x1 2 ff01\nswitch 0x1 3 ff01\nend 2\n");
  CHECK_THROWS_WITH(read_lft_file(path), Catch::Contains("listed twice"));
}

TEST_CASE("a file of the first format asks for the tables to be read again") {
  TempDir dir("lft-v1");
  const std::string path = (dir.path() / "routes.lft").string();
  write_text(path, "ibpm-lft 1\nread_at 1\nswitch 0x1 2 ff01\n");
  CHECK_THROWS_WITH(read_lft_file(path),
                    path +
                        " line 1: format version 1, this ibpm reads version 2 (read them "
                        "again with ibpm-routes --refresh)");
}

TEST_CASE("a file cut at a line end is not taken for whole") {
  TempDir dir("lft-cut");
  const Fabric fabric = routes::test::fat_tree_fabric(36, 12, 2);
  const std::string path = lft_file_path(dir.path().string());
  write_lft_file(path, routes::test::min_hop_tables(fabric));
  std::string text = ibpm::test::read_text(path);
  // Without its last switch line and the end line, every line whole.
  text.erase(text.rfind("switch "));
  write_text(path, text);
  CHECK_THROWS_WITH(read_lft_file(path), path + ": no end line (file cut short?)");
  write_text(path, text + "end 3\n");
  CHECK_THROWS_WITH(read_lft_file(path), Catch::Contains("the end line says 3 switches"));
}

TEST_CASE("a FIFO, a device or a file larger than its header allows is not read") {
  TempDir dir("lft-special");
  const std::string path = (dir.path() / "routes.lft").string();
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(read_lft_file(path), path + ": not a regular file");
  fs::remove(path);
  fs::create_symlink("/dev/zero", path);
  CHECK_THROWS_WITH(read_lft_file(path), path + ": not a regular file");
  fs::remove(path);
  // One switch claimed, a megabyte of lines.
  std::string big = "ibpm-lft 2 1\nread_at 1\n";
  while (big.size() < (1u << 20)) big += "switch 0x1 2 ff01\n";
  write_text(path, big);
  CHECK_THROWS_WITH(read_lft_file(path),
                    Catch::Contains(" bytes, more than 1 switches' tables take"));
}
