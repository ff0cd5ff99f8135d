// SPDX-License-Identifier: MIT
// The real dumps under IBPM_REAL_FIXTURES (third-party data, read in place; skipped when absent).
// Switch / CA / link counts agree with SOURCES.md there, except where noted.
#include <catch2/catch.hpp>
#include <map>
#include <sstream>
#include <unordered_set>

#include "dump/ibnetdiscover_writer.hpp"
#include "dump/ibsim_names.hpp"
#include "dump/ibsim_net_writer.hpp"
#include "fixtures.hpp"
#include "support/skip.hpp"

using namespace ibpm;
using namespace ibpm::dump;
using namespace ibpm::test;
namespace fs = std::filesystem;

namespace {

struct Counts {
  std::size_t switches, cas, links;
};

// Links are unique cables; a cable listed from both ends counts once.
const std::map<std::string, Counts>& expected_counts() {
  static const std::map<std::string, Counts> table = {
      {"docs_ibm_mt43132_sdr_2009.ibnetdiscover", {1, 2, 2}},
      {"docs_manpage_voltaire_sdr_2007_lmc1.ibnetdiscover", {2, 4, 7}},
      {"docs_nvidia_switchib_sx6012_mixed_stderr_singlespace.ibnetdiscover", {2, 6, 10}},
      {"docs_oracle_sun_dcs36_qdr.ibnetdiscover", {1, 1, 1}},
      {"fabricmon_ibsim_qdr_full_flag_s_w_v.ibnetdiscover", {2, 7, 8}},
      {"gary_ndr_quantum2_9sw_263ca_ibdiagnet2.ibnetdiscover", {9, 263, 271}},
      {"hk_cs8500_hdr_ibdiagnet_generated_192sw_1182ca.ibnetdiscover", {192, 1182, 4144}},
      {"hk_krskp_dgxa100_hdr_qm8790_206sw_1336ca_prompt_bom_crlf.ibnetdiscover", {206, 1336, 3572}},
      {"hk_llnl_lassen_edr_cs7500_174sw_1644ca.ibnetdiscover", {174, 1644, 3443}},
      {"hk_msb7800_lab_edited_invalid_lids_crlf.ibnetdiscover", {4, 12, 16}},
      // SOURCES.md says 805: that is the switch-switch cables; with the 2 CA cables it is 807
      // (1614 port lines, every cable listed from both ends, 19 of them self-loops).
      {"hk_quantum_hdr_lab_60sw_crlf.ibnetdiscover", {60, 2, 807}},
      {"loginoff_sx6036_fdr10_qdr_2level.ibnetdiscover", {8, 144, 192}},
      {"nvidia_selene_compute_hdr_666sw_4341ca.ibnetdiscover.xz", {666, 4341, 12852}},
      {"nvidia_selene_storage_hdr_160sw_1247ca.ibnetdiscover", {160, 1247, 3286}},
      {"nvidia_sim_qm9700_3level_640sw_8192ca.ibnetdiscover.xz", {640, 8192, 24576}},
      {"nvidia_ufm_lab_small_mixed_hdr_edr_fdr.ibnetdiscover", {2, 13, 16}},
      {"nvidia_ufm_ndt_sat11_putty_log_mangled_400sw_2328ca.ibnetdiscover.xz", {400, 2328, 8723}},
      {"psmn_x5_voltaire4036_qdr_ddr.ibnetdiscover", {11, 89, 159}},
      // Ports reports: a CA is known by its port GUID only.
      {"treydock_hdr_qdr.ibnetdiscover-ports", {5, 2, 2}},
      {"treydock_osc_edr.ibnetdiscover-ports", {4, 3, 4}},
  };
  return table;
}

// Null if the fixtures are absent (after saying so).
std::optional<fs::path> fixture(const std::string& name) {
  fs::path dir = real_fixtures_dir();
  if (dir.empty()) {
    IBPM_SKIP_MESSAGE("real fixtures folder " << IBPM_REAL_FIXTURES << " is absent");
    return std::nullopt;
  }
  return dir / name;
}

void check_fixture(const std::string& name) {
  auto path = fixture(name);
  if (!path) return;
  REQUIRE(fs::exists(*path));
  const Counts want = expected_counts().at(name);
  const ParsedDump d = parse_fixture(*path);
  const Fabric& f = d.fabric;
  CHECK(f.count(NodeType::sw) == want.switches);
  CHECK(f.count(NodeType::ca) == want.cas);
  CHECK(f.links().size() == want.links);
  CHECK(f.count(NodeType::router) == 0);
  for (const Node& n : f.nodes())
    for (std::size_t i = 0; i < n.ports.size(); ++i) REQUIRE(n.ports[i].number == i);

  // Round trip through the ibnetdiscover writer. A ports report's unconnected ports are not
  // ibnetdiscover material, so only cabled ports are compared there.
  const bool ports_report = name.ends_with("-ports");
  std::ostringstream text;
  write_ibnetdiscover(text, f);
  const ParsedDump again = parse_text(text.str());
  CHECK(fabric_difference(f, again.fabric, !ports_report) == "");

  // ibsim ids are unique and safe for every real fabric.
  std::unordered_set<std::string> ids;
  for (const auto& [guid, id] : ibsim_node_names(f)) {
    CHECK(ibsim_safe_id(id));
    CHECK(ids.insert(id).second);
  }
  std::ostringstream net;
  write_ibsim_net(net, f);
  std::istringstream lines(net.str());
  for (std::string line; std::getline(lines, line);) REQUIRE(line.size() < 255);
}

}  // namespace

#define REAL_DUMP_TEST(file) \
  TEST_CASE("real dump " file, "[dump][real]") { check_fixture(file); }

REAL_DUMP_TEST("docs_ibm_mt43132_sdr_2009.ibnetdiscover")
REAL_DUMP_TEST("docs_manpage_voltaire_sdr_2007_lmc1.ibnetdiscover")
REAL_DUMP_TEST("docs_nvidia_switchib_sx6012_mixed_stderr_singlespace.ibnetdiscover")
REAL_DUMP_TEST("docs_oracle_sun_dcs36_qdr.ibnetdiscover")
REAL_DUMP_TEST("fabricmon_ibsim_qdr_full_flag_s_w_v.ibnetdiscover")
REAL_DUMP_TEST("gary_ndr_quantum2_9sw_263ca_ibdiagnet2.ibnetdiscover")
REAL_DUMP_TEST("hk_cs8500_hdr_ibdiagnet_generated_192sw_1182ca.ibnetdiscover")
REAL_DUMP_TEST("hk_krskp_dgxa100_hdr_qm8790_206sw_1336ca_prompt_bom_crlf.ibnetdiscover")
REAL_DUMP_TEST("hk_llnl_lassen_edr_cs7500_174sw_1644ca.ibnetdiscover")
REAL_DUMP_TEST("hk_msb7800_lab_edited_invalid_lids_crlf.ibnetdiscover")
REAL_DUMP_TEST("hk_quantum_hdr_lab_60sw_crlf.ibnetdiscover")
REAL_DUMP_TEST("loginoff_sx6036_fdr10_qdr_2level.ibnetdiscover")
REAL_DUMP_TEST("nvidia_selene_compute_hdr_666sw_4341ca.ibnetdiscover.xz")
REAL_DUMP_TEST("nvidia_selene_storage_hdr_160sw_1247ca.ibnetdiscover")
REAL_DUMP_TEST("nvidia_sim_qm9700_3level_640sw_8192ca.ibnetdiscover.xz")
REAL_DUMP_TEST("nvidia_ufm_lab_small_mixed_hdr_edr_fdr.ibnetdiscover")
REAL_DUMP_TEST("nvidia_ufm_ndt_sat11_putty_log_mangled_400sw_2328ca.ibnetdiscover.xz")
REAL_DUMP_TEST("psmn_x5_voltaire4036_qdr_ddr.ibnetdiscover")
REAL_DUMP_TEST("treydock_hdr_qdr.ibnetdiscover-ports")
REAL_DUMP_TEST("treydock_osc_edr.ibnetdiscover-ports")

TEST_CASE("every real *.ibnetdiscover* file has a test", "[dump][real]") {
  if (!fixture("")) return;
  for (const fs::path& p : real_dump_files())
    CHECK(expected_counts().contains(p.filename().string()));
}

TEST_CASE("real dump pitfalls come out as warnings", "[dump][real]") {
  auto dir = fixture("");
  if (!dir) return;
  SECTION("hand-edited LIDs") {
    ParsedDump d = parse_fixture(*dir / "hk_msb7800_lab_edited_invalid_lids_crlf.ibnetdiscover");
    CHECK(has_warning(d, ":10: LID \"\" of S-4444444444444444[0] is not a unicast LID"));
    CHECK(has_warning(d, ":32: LID \"65335\" of S-1111111111111111[0] is not a unicast LID"));
    CHECK_FALSE(d.fabric.find_port({0x4444444444444444, 0})->lid);
  }
  SECTION("PuTTY capture") {
    ParsedDump d = parse_fixture(
        *dir / "nvidia_ufm_ndt_sat11_putty_log_mangled_400sw_2328ca.ibnetdiscover.xz");
    CHECK(has_warning(d, ":1: skipped unrecognised line \"=~=~=~=~=~=~=~=~=~=~=~= PuTTY log"));
    CHECK(has_warning(
        d, ":33821: skipped unrecognised line \"sat11-0101-0902-02ufm [ mgmt-ha-active ]"));
    // 631 CA ports with LID 65535 and one switch with LID 0.
    CHECK(has_warning(d, "\"bogus LID\" warnings not listed (632 in all)"));
  }
  SECTION("shell prompt after a BOM") {
    ParsedDump d = parse_fixture(
        *dir / "hk_krskp_dgxa100_hdr_qm8790_206sw_1336ca_prompt_bom_crlf.ibnetdiscover");
    REQUIRE(d.warnings.size() == 1);
    CHECK(has_warning(
        d, ":1: skipped unrecognised line \"[root@pg-compute-ufm001.clovanap dgxa100]#"));
  }
  SECTION("ibdiagnet labels") {
    ParsedDump d = parse_fixture(*dir / "gary_ndr_quantum2_9sw_263ca_ibdiagnet2.ibnetdiscover");
    CHECK(d.warnings.empty());
    CHECK(d.fabric.find_port({0xfc6a1c030091cf00, 3})->label == "1/2/1");
    CHECK(d.fabric.find_port({0xb0cf0e0300d33fc0, 0})->lid == Lid{180});
  }
  SECTION("self-loops") {
    ParsedDump d = parse_fixture(*dir / "hk_quantum_hdr_lab_60sw_crlf.ibnetdiscover");
    CHECK(d.fabric.remote({0x98039b030096aa24, 19}) == PortRef{0x98039b030096aa24, 20});
  }
  SECTION("descriptions with '#' and trailing blanks") {
    ParsedDump x5 = parse_fixture(*dir / "psmn_x5_voltaire4036_qdr_ddr.ibnetdiscover");
    CHECK(x5.fabric.node(0x0008f10500108c5c).description == "Voltaire 4036 # 4036-8C5C");
  }
}
