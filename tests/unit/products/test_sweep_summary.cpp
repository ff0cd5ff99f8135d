// SPDX-License-Identifier: MIT
// The sweep summary read back: shards added up, the whole fabric first, broken and newer files.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "products/sweep_summary.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm::products;
namespace fs = std::filesystem;

namespace {

// A state folder with its sweep/ subfolder.
struct StateFolder {
  ibpm::test::TempDir dir{"sweep-summary-test"};
  fs::path path = dir.path();
  StateFolder() { fs::create_directories(path / "sweep"); }
  void write(const std::string& name, const std::string& text) const {
    ibpm::test::write_text(path / "sweep" / name, text);
  }
};

std::string shard(double started, int in_error, const std::string& not_ok) {
  return "{\"started\":" + std::to_string(started) +
         ",\"duration\":1.5,\"fabric_ports\":100,\"ports\":50,\"polled\":49,\"in_error\":" +
         std::to_string(in_error) +
         ",\"saturated\":0,\"unreachable\":1,\"unreachable_nodes\":1,\"totals\":{\"xmit_data\":"
         "1000},"
         "\"ports_not_ok\":[" +
         not_ok + "],\"histograms\":[]}";
}

}  // namespace

TEST_CASE("no summary in the state directory is no summary, not an error") {
  StateFolder dir;
  CHECK_FALSE(read_sweep_summary(dir.path.string()));
  CHECK_FALSE(read_sweep_summary((dir.path / "missing").string()));
}

TEST_CASE("the shards of a divided fabric add up") {
  StateFolder dir;
  dir.write(
      "shard-1-of-2.json",
      shard(
          200, 1,
          "{\"node_guid\":\"0x0000000000000020\",\"port\":3,\"lid\":5,\"name\":\"leaf01[3]\","
          "\"remote\":\"host3[1]\",\"state\":\"CRITICAL\",\"reason\":\"SymbolErrorCounter 2/s\"}"));
  dir.write("shard-2-of-2.json", shard(100, 0, ""));
  const auto summary = read_sweep_summary(dir.path.string());
  REQUIRE(summary);
  CHECK(summary->files.size() == 2);
  CHECK(summary->started == 100);
  CHECK(summary->ports == 100);
  CHECK(summary->polled == 98);
  CHECK(summary->in_error == 1);
  CHECK(summary->unreachable_nodes == 2);
  CHECK(summary->xmit_octets_s == 2000);
  REQUIRE(summary->ports_not_ok.size() == 1);
  CHECK(summary->ports_not_ok[0].node == 0x20);
  CHECK(summary->ports_not_ok[0].port == 3);
  CHECK(summary->ports_not_ok[0].state == "CRITICAL");
}

TEST_CASE("a whole-fabric summary wins over old shard files") {
  StateFolder dir;
  dir.write("shard-1-of-2.json", shard(100, 5, ""));
  dir.write("fabric.json", shard(300, 2, ""));
  const auto summary = read_sweep_summary(dir.path.string());
  REQUIRE(summary);
  CHECK(summary->in_error == 2);
  CHECK(summary->files.size() == 1);
}

TEST_CASE("a broken summary is an error naming the file") {
  StateFolder dir;
  dir.write("fabric.json", "{\"started\": 1, ");
  CHECK_THROWS_WITH(read_sweep_summary(dir.path.string()),
                    Catch::Contains("fabric.json: not a sweep summary"));
}

TEST_CASE("a summary without a format is format 1, a newer one is refused") {
  StateFolder dir;
  dir.write("fabric.json", shard(300, 2, ""));
  CHECK(read_sweep_summary(dir.path.string())->in_error == 2);
  dir.write("fabric.json", "{\"format\":1," + shard(300, 3, "").substr(1));
  CHECK(read_sweep_summary(dir.path.string())->in_error == 3);
  dir.write("fabric.json", "{\"format\":" + std::to_string(kSweepSummaryFormat + 1) + "," +
                               shard(300, 4, "").substr(1));
  CHECK_THROWS_WITH(read_sweep_summary(dir.path.string()),
                    Catch::Contains("fabric.json: sweep summary format 2, newer than"));
}

TEST_CASE("the summary written is the summary read") {
  StateFolder dir;
  ibpm::sweep::SweepOptions options;
  options.fabric.state_dir = dir.path.string();
  ibpm::sweep::SweepResult sweep;
  sweep.started = 1000;
  sweep.duration = 2.5;
  sweep.fabric_ports = 7;
  const std::string json = summary_json(options, sweep, {}, {});
  CHECK(json.starts_with("{\"format\":1,\"started\":"));
  CHECK(summary_path(options) == (dir.path / "sweep" / "fabric.json").string());
  dir.write("fabric.json", json);
  const auto summary = read_sweep_summary(dir.path.string());
  REQUIRE(summary);
  CHECK(summary->started == 1000);
  CHECK(summary->duration == 2.5);
  CHECK(summary->fabric_ports == 7);
  CHECK(summary->ports == 0);
  CHECK(summary->ports_not_ok.empty());
}
