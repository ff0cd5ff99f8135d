// SPDX-License-Identifier: MIT
// Levels of the real dumps against what their switch names say (LG/CSPINE/CCORE, lf/sp/ss,
// L/S/C, director line cards /Lnn and fabric cards /Snn). Skipped when the fixtures are absent.
#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <set>
#include <vector>

#include "../dump/fixtures.hpp"
#include "fabric/graph.hpp"
#include "levels/fabric_levels.hpp"
#include "support/skip.hpp"

using namespace ibpm;

namespace {

struct NameRule {
  std::regex pattern;  // searched in the NodeDescription
  int level;
};

struct Expectation {
  std::string file;
  std::vector<NameRule> rules;  // the first match decides; every switch must match one
  std::map<int, std::size_t> switches_per_level;
};

std::vector<Expectation> expectations() {
  auto rule = [](const char* re, int level) { return NameRule{std::regex(re), level}; };
  return {
      {"nvidia_selene_compute_hdr_666sw_4341ca.ibnetdiscover.xz",
       {rule(";M?LG\\d", 1), rule(";[CM]SPINE", 2), rule(";CCORE", 3)},
       {{1, 204}, {2, 322}, {3, 140}}},
      {"nvidia_selene_storage_hdr_160sw_1247ca.ibnetdiscover",
       {rule(";SLG", 1), rule(";SSPINE", 2), rule(";SCORE", 3)},
       {{1, 64}, {2, 64}, {3, 32}}},
      {"nvidia_sim_qm9700_3level_640sw_8192ca.ibnetdiscover.xz",
       {rule(";L\\d", 1), rule(";S\\d", 2), rule(";C\\d", 3)},
       {{1, 256}, {2, 256}, {3, 128}}},
      {"hk_krskp_dgxa100_hdr_qm8790_206sw_1336ca_prompt_bom_crlf.ibnetdiscover",
       {rule("^lf", 1), rule("^sp", 2), rule("^ss", 3)},
       {{1, 56}, {2, 80}, {3, 70}}},
      {"nvidia_ufm_ndt_sat11_putty_log_mangled_400sw_2328ca.ibnetdiscover.xz",
       {rule("MQM8700", 1), rule("MCS8500/L", 2), rule("MCS8500/S", 3)},
       {{1, 160}, {2, 160}, {3, 80}}},
      {"hk_llnl_lassen_edr_cs7500_174sw_1644ca.ibnetdiscover",
       {rule("^SwitchIB", 1), rule("CS7500/L", 2), rule("CS7500/S", 3)},
       {{1, 84}, {2, 54}, {3, 36}}},
      {"hk_cs8500_hdr_ibdiagnet_generated_192sw_1182ca.ibnetdiscover",
       {rule("^Quantum", 1), rule("MCS8500/L", 2), rule("MCS8500/S", 3)},
       {{1, 72}, {2, 80}, {3, 40}}},
      {"loginoff_sx6036_fdr10_qdr_2level.ibnetdiscover",
       {rule(";ib[1-6]:", 1), rule(";ib[78]:", 2)},
       {{1, 6}, {2, 2}}},
  };
}

}  // namespace

TEST_CASE("levels of the real fabrics agree with their switch names") {
  auto dir = test::real_fixtures_dir();
  if (dir.empty()) IBPM_SKIP("real fixtures folder " << IBPM_REAL_FIXTURES << " is absent");
  for (const auto& expect : expectations()) {
    SECTION(expect.file) {
      Fabric fabric = test::parse_fixture(dir / expect.file).fabric;
      levels::FabricLevels levels(fabric, make_graph(fabric));
      std::map<int, std::size_t> per_level;
      for (std::size_t i = 0; i < fabric.nodes().size(); ++i) {
        const Node& node = fabric.nodes()[i];
        if (node.type != NodeType::sw) continue;
        ++per_level[levels.level(i)];
        int named = levels::kNoLevel;
        for (const auto& r : expect.rules)
          if (std::regex_search(node.description, r.pattern)) {
            named = r.level;
            break;
          }
        INFO(node.description);
        CHECK(levels.level(i) == named);
      }
      CHECK(per_level == expect.switches_per_level);
    }
  }
}

TEST_CASE("aggregation nodes are not hosts and make no leaf and spines with storage stay spines") {
  auto dir = test::real_fixtures_dir();
  if (dir.empty()) return;
  Fabric krskp = test::parse_fixture(
                     dir / "hk_krskp_dgxa100_hdr_qm8790_206sw_1336ca_prompt_bom_crlf.ibnetdiscover")
                     .fabric;
  std::size_t aggregation = 0, hosts = 0;
  for (const Node& n : krskp.nodes()) {
    aggregation += levels::is_aggregation_node(n);
    hosts += levels::is_host(n);
  }
  CHECK(aggregation == 206);
  CHECK(hosts == 1336 - 206);
  levels::FabricLevels levels(krskp, make_graph(krskp));
  // sp79 and sp80 carry hosts but are spines.
  REQUIRE(levels.spines_with_hosts().size() == 2);
  for (std::size_t i : levels.spines_with_hosts())
    CHECK(krskp.nodes()[i].description.starts_with("sp"));

  Fabric loginoff =
      test::parse_fixture(dir / "loginoff_sx6036_fdr10_qdr_2level.ibnetdiscover").fabric;
  levels::FabricLevels two(loginoff, make_graph(loginoff));
  REQUIRE(two.spines_with_hosts().size() == 1);
  CHECK(loginoff.nodes()[two.spines_with_hosts()[0]].description.find(";ib7:") !=
        std::string::npos);
  CHECK(two.name(2) == "spine");
}

TEST_CASE("director chassis group their ASICs by system image GUID") {
  auto dir = test::real_fixtures_dir();
  if (dir.empty()) return;
  Fabric lassen =
      test::parse_fixture(dir / "hk_llnl_lassen_edr_cs7500_174sw_1644ca.ibnetdiscover").fabric;
  auto found = levels::chassis(lassen);
  REQUIRE(found.size() == 2);
  std::multiset<std::size_t> sizes{found[0].switches.size(), found[1].switches.size()};
  CHECK(sizes == std::multiset<std::size_t>{42, 48});
  for (const auto& c : found)
    for (std::size_t i : c.switches)
      CHECK(lassen.nodes()[i].description.find("CS7500") != std::string::npos);
}
