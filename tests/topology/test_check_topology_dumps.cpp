// SPDX-License-Identifier: MIT
// check_ib_topology offline, on every real dump: a dump compared with itself is OK; the same dump
// saved as a baseline (--write-baseline) and read back is OK too; bad input is UNKNOWN.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "support/process.hpp"
#include "support/skip.hpp"
#include "unit/dump/sample_dumps.hpp"

namespace fs = std::filesystem;
using ibpm::test::bin;
using ibpm::test::run_process;

namespace {

fs::path scratch_dir() {
  fs::path dir = fs::temp_directory_path() / ("ibpm-check-topology-" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir;
}

// The real dumps, xz ones decompressed into `scratch`.
std::vector<fs::path> real_dumps(const fs::path& scratch) {
  std::vector<fs::path> dumps;
  for (const auto& entry : fs::directory_iterator(IBPM_REAL_FIXTURES)) {
    std::string name = entry.path().filename().string();
    if (name.find(".ibnetdiscover") == std::string::npos) continue;
    if (entry.path().extension() == ".xz") {
      fs::path out = scratch / entry.path().stem();
      std::string cmd = "xz -dc '" + entry.path().string() + "' > '" + out.string() + "'";
      REQUIRE(std::system(cmd.c_str()) == 0);
      dumps.push_back(out);
    } else {
      dumps.push_back(entry.path());
    }
  }
  std::sort(dumps.begin(), dumps.end());
  return dumps;
}

}  // namespace

TEST_CASE("check_ib_topology is OK for every real dump against itself and its saved baseline") {
  if (!fs::exists(IBPM_REAL_FIXTURES)) IBPM_SKIP(IBPM_REAL_FIXTURES " is absent");
  fs::path scratch = scratch_dir();
  auto dumps = real_dumps(scratch);
  REQUIRE(dumps.size() >= 20);
  for (const fs::path& dump : dumps) {
    INFO(dump.filename().string());
    auto self = run_process({bin("check_ib_topology"), "--cache", dump.string(), "--baseline",
                             dump.string(), "--lost", "critical", "--new", "critical"});
    CHECK(self.exit_code <= 1);  // OK, or WARNING where a dump has links below the enabled rate
    CHECK(self.first_line().rfind("IB TOPOLOGY", 0) == 0);
    const std::string status = self.first_line().substr(0, self.first_line().find(" | "));
    CHECK(status.find("missing") == std::string::npos);
    CHECK(status.find("lost") == std::string::npos);
    CHECK(self.first_line().find("missing_nodes=0;") != std::string::npos);
    CHECK(self.first_line().find("lost_links=0;") != std::string::npos);

    fs::path baseline = scratch / (dump.filename().string() + ".baseline");
    auto write = run_process({bin("check_ib_topology"), "--cache", dump.string(),
                              "--write-baseline", baseline.string()});
    CHECK(write.exit_code == self.exit_code);
    auto again = run_process({bin("check_ib_topology"), "--cache", dump.string(), "--baseline",
                              baseline.string(), "--new", "critical"});
    CHECK(again.exit_code == self.exit_code);
    CHECK(again.first_line() == self.first_line());
  }
  fs::remove_all(scratch);
}

TEST_CASE("check_ib_topology on bad input says UNKNOWN with the reason") {
  fs::path scratch = scratch_dir();
  auto missing = run_process({bin("check_ib_topology"), "--cache", "/nonexistent/dump"});
  CHECK(missing.exit_code == 3);
  CHECK(missing.first_line().rfind("IB TOPOLOGY UNKNOWN - ", 0) == 0);
  CHECK(missing.first_line().find("/nonexistent/dump") != std::string::npos);

  fs::path bad = scratch / "bad.dump";
  std::ofstream(bad) << "Switch\t36 \"S-0002c90300000001\"\t# \"sw\" base port 0 lid 1 lmc 0\n"
                        "[x]\t\"H-0002c90300000002\"[1]\n";
  auto malformed = run_process({bin("check_ib_topology"), "--cache", bad.string()});
  CHECK(malformed.exit_code == 3);
  CHECK(malformed.first_line().find(":2:") != std::string::npos);  // the line number

  auto bad_option = run_process({bin("check_ib_topology"), "--lost", "sometimes"});
  CHECK(bad_option.exit_code == 3);
  CHECK(bad_option.first_line().rfind("IB TOPOLOGY UNKNOWN", 0) == 0);
  fs::remove_all(scratch);
}

TEST_CASE("check_ib_topology reports a changed dump against its baseline / worst state wins") {
  fs::path scratch = scratch_dir();
  fs::path base = scratch / "base.dump", now = scratch / "now.dump";
  const std::string header =
      "Switch\t8 \"S-0000000000000010\"\t# \"leaf01\" base port 0 lid 1 lmc 0\n";
  std::ofstream(base)
      << header
      << "[1]\t\"H-0000000000000020\"[1](21)\t# \"cn01\" lid 2 4xHDR\n"
         "[2]\t\"H-0000000000000030\"[1](31)\t# \"cn02\" lid 3 4xHDR\n\n"
         "Ca\t1 \"H-0000000000000020\"\t# \"cn01\"\n"
         "[1](21)\t\"S-0000000000000010\"[1]\t# lid 2 lmc 0 \"leaf01\" lid 1 4xHDR\n\n"
         "Ca\t1 \"H-0000000000000030\"\t# \"cn02\"\n"
         "[1](31)\t\"S-0000000000000010\"[2]\t# lid 3 lmc 0 \"leaf01\" lid 1 4xHDR\n";
  // cn02 gone, cn01 trained at 1x.
  std::ofstream(now)
      << header
      << "[1]\t\"H-0000000000000020\"[1](21)\t# \"cn01\" lid 2 1xHDR\n\n"
         "Ca\t1 \"H-0000000000000020\"\t# \"cn01\"\n"
         "[1](21)\t\"S-0000000000000010\"[1]\t# lid 2 lmc 0 \"leaf01\" lid 1 1xHDR\n";
  auto result = run_process({bin("check_ib_topology"), "--cache", now.string(), "--baseline",
                             base.string(), "--output-format", "text"});
  CHECK(result.exit_code == 2);
  CHECK(result.out.find("\\_[CRITICAL] CA cn02 (0x0000000000000030) missing") != std::string::npos);
  CHECK(result.out.find(
            "\\_[WARNING] link degraded: leaf01[1] <-> cn01[1] runs 1x HDR, expected 4x HDR") !=
        std::string::npos);
  CHECK(result.first_line().find("degraded_links=1") != std::string::npos);
  CHECK(result.first_line().find("missing_nodes=1") != std::string::npos);

  auto relaxed = run_process({bin("check_ib_topology"), "--cache", now.string(), "--baseline",
                              base.string(), "--lost", "warning", "--degraded", "ok"});
  CHECK(relaxed.exit_code == 1);
  fs::remove_all(scratch);
}

TEST_CASE("a dump that lost nodes or cables is not OK, one cut mid-line is UNKNOWN") {
  // Issue 16: a duplicate GUID, GUID 0 or a dump cut mid-record was reported OK with fewer nodes.
  using ibpm::test::kSample;
  using ibpm::test::replace_all;
  fs::path scratch = scratch_dir();
  auto run = [&](const std::string& name, const std::string& text) {
    const fs::path path = scratch / name;
    std::ofstream(path, std::ios::binary) << text;
    return run_process({bin("check_ib_topology"), "--cache", path.string()});
  };
  const std::string ca = "H-e41d2d030061f957";
  const std::string duplicate =
      kSample + "\nvendid=0x2c9\ndevid=0x1013\ncaguid=0xe41d2d030061f957\nCa\t1 \"" + ca +
      "\"\t\t# \"impostor\"\n[1](e41d2d030061f959) \t\"S-f4521403005764b0\"[5]\t\t# lid 9 lmc 0 "
      "\"x\" lid 174 4xEDR\n";
  const std::string zero = replace_all(kSample, "e41d2d030061f957", "0000000000000000");
  // The CA record lost its port line: the switch cables it, the CA's record does not.
  const std::string one_sided = kSample.substr(0, kSample.rfind("[1](e41d"));
  // Cut at a line end before the last record: the CA is known only as the switch's peer.
  const std::string cut_at_line = kSample.substr(0, kSample.rfind("\nvendid") + 1);
  for (const auto& [name, text, words] :
       {std::tuple{"duplicate", duplicate, "second record for " + ca},
        std::tuple{"zero", zero, std::string("GUID 0")},
        std::tuple{"one-sided", one_sided, std::string("by the other end only")},
        std::tuple{"cut-at-line", cut_at_line, std::string("appears only as a peer")}}) {
    INFO(name);
    auto result = run(name, text);
    CHECK(result.exit_code == 1);
    CHECK(result.first_line().rfind("IB TOPOLOGY WARNING - input incomplete (", 0) == 0);
    CHECK(result.out.find(words) != std::string::npos);
  }
  // Cut in the middle of a port line: the record cannot be trusted at all.
  const std::string cut = kSample.substr(0, kSample.find("[3]\t\"S-f452") + 30);
  auto cut_result = run("cut", cut);
  CHECK(cut_result.exit_code == 3);
  CHECK(cut_result.first_line().find("cut short") != std::string::npos);
  // The sample itself is OK, with no note.
  auto whole = run("whole", kSample);
  CHECK(whole.exit_code == 0);
  CHECK(whole.first_line().find("incomplete") == std::string::npos);
  fs::remove_all(scratch);
}

TEST_CASE("ibpm-topology --levels prints no terminal escapes from descriptions") {
  // Issue 16: ESC and BEL from a NodeDescription reached the operator's terminal as they were.
  fs::path scratch = scratch_dir();
  const fs::path dump = scratch / "escapes.ibnetdiscover";
  std::ofstream(dump, std::ios::binary) << ibpm::test::replace_all(
      ibpm::test::kSample, "MF0;switch-de779e:SX6012/U1", "\x1b]0;owned\x07\x1b[2J");
  auto levels = run_process({bin("ibpm-topology"), "--cache", dump.string(), "--levels"});
  CHECK(levels.exit_code == 0);
  CHECK(levels.out.find("Levels:") != std::string::npos);
  CHECK(levels.out.find('\x1b') == std::string::npos);
  CHECK(levels.out.find('\x07') == std::string::npos);
  fs::remove_all(scratch);
}
