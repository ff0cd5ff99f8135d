// SPDX-License-Identifier: MIT
// --replay of a file that is no usable recording (not pcap, empty, cut short, a corrupt packet,
// another link type) in every command that takes it: one line naming the file and the fault,
// UNKNOWN for the checks, a non-zero exit for ibpm-rates; never a crash. No simulator needed.
#include <pcap/pcap.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <regex>

#include "mad/mad_packet.hpp"
#include "mad/pcap_library.hpp"
#include "mad/pcap_recorder.hpp"
#include "mad/pma.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm::test;

namespace replay_refusals_test {

// A fabric of one switch and one host, LIDs 1 and 2.
constexpr const char* kDump = R"(vendid=0x2c9
devid=0xc738
sysimgguid=0x2c90300000010
switchguid=0x2c90300000010(2c90300000010)
Switch	8 "S-0002c90300000010"		# "leaf01" base port 0 lid 1 lmc 0
[1]	"H-0002c90300000020"[1](2c90300000021) 		# "cn0001 HCA-1" lid 2 4xHDR

vendid=0x2c9
devid=0x1017
sysimgguid=0x2c90300000020
caguid=0x2c90300000020
Ca	1 "H-0002c90300000020"		# "cn0001 HCA-1"
[1](2c90300000021) 	"S-0002c90300000010"[1]		# lid 2 lmc 0 "leaf01" lid 1 4xHDR
)";

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A good recording: a PortCounters Get to LID 1, port 1, and its answer.
void write_recording(const std::string& path) {
  using namespace ibpm::mad;
  PcapRecorder recorder(path);
  const MadQuery query = port_counters_query(1, 1);
  Packet packet{};
  build_packet(query, packet);
  set_tid(packet, 7);
  const auto when = std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000));
  recorder.record(packet.data(), kMadSize, Direction::sent, 2, when);
  static_cast<std::uint8_t*>(umad_get_mad(packet.data()))[3] = 0x81;  // GetResp
  recorder.record(packet.data(), kMadSize, Direction::received, 2,
                  when + std::chrono::milliseconds(1));
}

}  // namespace replay_refusals_test

using namespace replay_refusals_test;

TEST_CASE("Every command given a file that is no recording says so in one line") {
  TempDir dir("replay-refusals");
  const std::string dump = dir / "fabric.txt";
  write_bytes(dump, kDump);
  const std::string good = dir / "good.pcap";
  write_recording(good);
  const std::string bytes = read_bytes(good);
  REQUIRE(bytes.size() == 24 + 2 * (16 + 306));

  std::vector<std::pair<std::string, std::string>> bad;  // file, the fault the line names
  write_bytes(dir / "text", "IB FABRIC OK - 144 ports polled\n");
  bad.emplace_back(dir / "text", "unknown file format");
  write_bytes(dir / "empty", "");
  bad.emplace_back(dir / "empty", "");
  write_bytes(dir / "cut", bytes.substr(0, bytes.size() - 100));
  bad.emplace_back(dir / "cut", "packet 2: truncated dump file");
  std::string corrupt = bytes;
  corrupt[24 + 16 + 16 + 8] = 0x00;  // the first packet's BTH opcode: no UD SEND
  write_bytes(dir / "corrupt", corrupt);
  bad.emplace_back(dir / "corrupt", "packet 1 is not an InfiniBand MAD");
  const ibpm::mad::PcapLibrary& pcap = ibpm::mad::pcap_library();
  pcap_t* ethernet =
      pcap.open_dead_with_tstamp_precision(DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_MICRO);
  pcap.dump_close(pcap.dump_open_append(ethernet, (dir / "ethernet").c_str()));
  pcap.close(ethernet);
  bad.emplace_back(dir / "ethernet", "link type 1 (EN10MB), not ERF (197)");

  const std::string state = dir / "state";
  const std::vector<std::vector<std::string>> commands{
      {bin("check_ib_fabric"), "--no-syslog"},
      {bin("check_ib_port"), "--node", "leaf01", "--port", "1"},
      {bin("check_ib_node"), "--node", "leaf01"},
      {bin("ibpm-rates"), "--node", "leaf01"}};
  for (const auto& command : commands) {
    for (const auto& [file, fault] : bad) {
      std::vector<std::string> argv = command;
      for (const std::string arg :
           {"--cache", dump.c_str(), "--state-dir", state.c_str(), "--replay", file.c_str()})
        argv.push_back(arg);
      const bool check = command[0].find("check_ib_") != std::string::npos;
      const ProcessRun run =
          run_process(argv, {.env = {}, .stderr_to = check ? Stderr::captured : Stderr::merged});
      INFO(command[0] << " --replay " << file << ":\n" << run.out << run.err);
      CHECK(run.line_count() == 1);
      CHECK(run.first_line().find(fault) != std::string::npos);
      if (check) {
        CHECK(run.exit_code == 3);
        CHECK(std::regex_match(run.first_line(),
                               std::regex("IB [A-Z]+ UNKNOWN - --replay " + file + ": .+")));
      } else {
        CHECK(run.exit_code == 1);
        CHECK(run.first_line().rfind("ibpm-rates: --replay " + file + ": ", 0) == 0);
      }
    }
    // The good recording is read: the first answer it lacks is named.
    std::vector<std::string> argv = command;
    for (const std::string arg :
         {"--cache", dump.c_str(), "--state-dir", state.c_str(), "--replay", good.c_str()})
      argv.push_back(arg);
    const ProcessRun run = run_process(argv, {.env = {}, .stderr_to = Stderr::merged});
    INFO(run.out);
    CHECK(run.out.find("--replay " + good + ": the recording has no answer to ") !=
          std::string::npos);
  }
}
