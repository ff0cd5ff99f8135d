// SPDX-License-Identifier: MIT
// ibpm-anonymize on two sweeps recorded on ibsim and the fabric's ibnetdiscover dump: no original
// GUID (in any of its textual forms, or as raw bytes) and no node description is left in what it
// writes, and the anonymized recordings replayed against the anonymized dump, without the
// simulator, give what the originals give (status, counts, rates, the same cables once the key
// names them back); recordings anonymized in separate runs with one --key replay as one.
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "support/live_fabric.hpp"
#include "support/simulator.hpp"
#include "topology/topology.hpp"

using namespace ibpm::test;

namespace anonymize_test {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string hex(ibpm::Guid guid, bool padded) {
  char text[24];
  std::snprintf(text, sizeof text, padded ? "%016llx" : "%llx",
                static_cast<unsigned long long>(guid));
  return text;
}

// Where `guid` stands in `bytes`, in any form: hex with or without zeros in front, any case, as a
// token of its own (0x..., S-..., (...)), or its 8 bytes big- or little-endian; "" when nowhere.
std::string guid_found(const std::string& bytes, ibpm::Guid guid) {
  const std::string text = lower(bytes);
  const std::regex form("(^|[^0-9a-f])0*" + hex(guid, false) + "($|[^0-9a-f])");
  if (std::regex_search(text, form)) return "as text";
  std::string big, little;
  for (int i = 7; i >= 0; --i) big += static_cast<char>((guid >> (8 * i)) & 0xff);
  little.assign(big.rbegin(), big.rend());
  if (bytes.find(big) != std::string::npos) return "as big-endian bytes";
  if (bytes.find(little) != std::string::npos) return "as little-endian bytes";
  return "";
}

// The key's "name "ORIGINAL" "NEW"" lines, new -> original (descriptions here need no escapes).
std::map<std::string, std::string> names_in_key(const std::string& key) {
  std::map<std::string, std::string> names;
  static const std::regex line(R"re(^name "([^"]*)" "([^"]*)"$)re");
  std::istringstream in(key);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_match(l, m, line)) names[m[2]] = m[1];
  }
  return names;
}

// The output named back through the key, without what depends on the run's own wall clock (the
// sweep's durations) and with every number rounded to 9 digits: rates add up port by port, and
// the ports' order (by GUID) changes the last digits.
std::string comparable(std::string output, const std::map<std::string, std::string>& names) {
  for (const auto& [anonymous, original] : names)
    output = std::regex_replace(output, std::regex("\\b" + anonymous + "\\b"), original);
  output = std::regex_replace(output, std::regex(R"( polled in [0-9.]+ s)"), " polled");
  output = std::regex_replace(output, std::regex(R"((sweep_time|poll_time)=[0-9.e-]+s)"), "$1=T");
  output = std::regex_replace(
      output, std::regex(R"(sweep [0-9.]+ s \(polling and state [0-9.]+ s\))"), "sweep T");
  std::string rounded;
  static const std::regex number(R"([0-9]+\.[0-9]+)");
  std::sregex_iterator it(output.begin(), output.end(), number), end;
  std::size_t last = 0;
  for (; it != end; ++it) {
    rounded += output.substr(last, static_cast<std::size_t>(it->position()) - last);
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", std::stod(it->str()));
    rounded += text;
    last = static_cast<std::size_t>(it->position() + it->length());
  }
  return rounded + output.substr(last);
}

// check_ib_fabric --replay of each recording in turn into a fresh state folder, as a plain
// process (no LD_PRELOAD, no ibsim); the last run.
ProcessRun replay(const std::string& dump, const std::string& state,
                  const std::vector<std::string>& recordings) {
  ProcessRun last;
  for (const std::string& recording : recordings)
    last = run_process({bin("check_ib_fabric"), "--state-dir", state, "--no-syslog", "--cache",
                        dump, "--replay", recording});
  return last;
}

// The test fabric's net file with GUIDs like a site's (ibsim's own, 0x100000 and up, also stand
// in the counters it adds its MADs to, and a search for their bytes would find those).
std::string with_site_guids(const std::string& net) {
  std::istringstream in(net);
  std::string out;
  ibpm::Guid ca = 0x7cfe900300a1b200ULL, sw = 0x0c42a10300f3e000ULL;
  for (std::string line; std::getline(in, line);) {
    char text[40];
    if (line.rfind("Hca", 0) == 0) {
      std::snprintf(text, sizeof text, "caguid=0x%016llx\n", static_cast<unsigned long long>(ca));
      out += text;
      ca += 0x10;
    } else if (line.rfind("Switch", 0) == 0) {
      std::snprintf(text, sizeof text, "switchguid=0x%016llx\n",
                    static_cast<unsigned long long>(sw));
      out += text;
      sw += 0x10;
    }
    out += line + "\n";
  }
  return out;
}

// The fabric's dump (DUMP) and two sweeps recorded on it (DIR/first.pcap, DIR/second.pcap; the
// second CRITICAL), the simulator stopped after them.
void record_two_sweeps(const TempDir& dir, const std::string& dump) {
  ibpm::sim::FatTree tree = small_tree(36, 12);
  LiveFabric live{tree, ibpm::sim::SimulatedFabric::start_text(with_site_guids(tree.net_file()))};
  std::string text;
  REQUIRE(live.fabric.run_client({"ibnetdiscover"}, &text) == 0);
  std::ofstream(dump) << text;
  REQUIRE(text.find("0x7cfe900300a1b200") != std::string::npos);
  const std::vector<std::string> sweep{"--state-dir", dir / "live", "--no-syslog",
                                       "--cache",     dump,         "--record"};
  std::vector<std::string> first = sweep, second = sweep;
  first.push_back(dir / "first.pcap");
  second.push_back(dir / "second.pcap");
  REQUIRE(live.run("check_ib_fabric", first).exit_code == 0);
  live.console("PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=500");
  live.console("PerformanceSet \"leaf04\"[8] PortCounters.PortRcvErrors=40");
  live.console("PerformanceSet \"leaf04\"[8] PortCountersExtended.PortXmitData=50000000000");
  live.console("PerformanceSet \"leaf04\"[8] PortCounters.PortXmitData=4000000000");
  const ProcessRun live_second = live.run("check_ib_fabric", second);
  INFO(live_second.out << live_second.err);
  REQUIRE(live_second.exit_code == 2);
}

}  // namespace anonymize_test

using namespace anonymize_test;

TEST_CASE("An anonymized recording holds no original GUID or name and replays the same") {
  IBPM_REQUIRE_SIMULATOR();
  TempDir dir("anonymize");
  const std::string dump = dir / "fabric.txt";
  record_two_sweeps(dir, dump);

  const ProcessRun anonymize =
      run_process({bin("ibpm-anonymize"), "--topology", dump, dir / "first.pcap",
                   dir / "second.pcap", "-o", dir / "anon", "--key", dir / "site.key"},
                  {.env = {}, .stderr_to = Stderr::captured});
  INFO(anonymize.out << anonymize.err);
  REQUIRE(anonymize.exit_code == 0);

  const std::string anon = dir / "anon";
  // Every GUID and description of the original fabric, searched in every file written but the key.
  const ibpm::Fabric original = ibpm::topology::load_topology_file(dump).fabric;
  std::vector<ibpm::Guid> guids;
  std::vector<std::string> descriptions;
  for (const ibpm::Node& node : original.nodes()) {
    guids.push_back(node.guid);
    guids.push_back(node.system_image_guid);
    node.for_each_port([&](const ibpm::Port& port) {
      if (port.guid) guids.push_back(*port.guid);
    });
    descriptions.push_back(node.description);
  }
  REQUIRE(descriptions.size() == 45);  // 36 hosts, 6 leaves, 3 spines
  for (const std::string name : {"fabric.txt", "first.pcap", "second.pcap"}) {
    const std::string bytes = read_file(anon + "/" + name);
    REQUIRE(bytes.size() > 1000);
    for (const ibpm::Guid guid : guids) {
      INFO(name << ": GUID 0x" << hex(guid, true));
      CHECK(guid_found(bytes, guid) == "");
    }
    for (const std::string& description : descriptions) {
      INFO(name << ": description " << description);
      CHECK(bytes.find(description) == std::string::npos);
    }
  }
  // The recordings did carry GUIDs (NodeInfo answers): the search would have found them.
  CHECK(guid_found(read_file(dir / "first.pcap"), original.nodes().front().guid) != "");

  // Replayed without the simulator: the originals on the original dump, the anonymized ones on
  // the anonymized dump, into state folders of their own.
  const ProcessRun before = replay(dump, dir / "replay", {dir / "first.pcap", dir / "second.pcap"});
  const ProcessRun after = replay(anon + "/fabric.txt", dir / "replay-anon",
                                  {anon + "/first.pcap", anon + "/second.pcap"});
  INFO("original:\n" << before.out << before.err << "anonymized:\n" << after.out << after.err);
  REQUIRE(before.exit_code == 2);
  CHECK(after.exit_code == before.exit_code);
  // The same cables and counts once the key names them back; nothing original before that.
  const auto names = names_in_key(read_file(dir / "site.key"));
  REQUIRE(names.size() == 45);
  CHECK(after.out.find("leaf02[3]") == std::string::npos);
  CHECK(before.has("leaf02[3]"));
  CHECK(before.has("ports_error=2;"));
  CHECK(comparable(after.out, names) == comparable(before.out, {}));
}

TEST_CASE("Recordings anonymized in separate runs with one key replay as one recording") {
  IBPM_REQUIRE_SIMULATOR();
  TempDir dir("anonymize-days");
  const std::string dump = dir / "fabric.txt";
  record_two_sweeps(dir, dump);
  const std::string key = dir / "site.key";
  // One day the topology and the first sweep; another day, in a run of its own, the second.
  const ProcessRun day1 = run_process({bin("ibpm-anonymize"), "--topology", dump,
                                       dir / "first.pcap", "-o", dir / "day1", "--key", key});
  INFO(day1.out << day1.err);
  REQUIRE(day1.exit_code == 0);
  const std::string day1_key = read_file(key);
  const ProcessRun day2 =
      run_process({bin("ibpm-anonymize"), dir / "second.pcap", "-o", dir / "day2", "--key", key});
  INFO(day2.out << day2.err);
  REQUIRE(day2.exit_code == 0);
  // The second sweep asked the same nodes: nothing new in the key, the same GUIDs in the file
  // as one run over both gives.
  CHECK(read_file(key) == day1_key);
  const ProcessRun together =
      run_process({bin("ibpm-anonymize"), "--topology", dump, dir / "first.pcap",
                   dir / "second.pcap", "-o", dir / "together"});
  REQUIRE(together.exit_code == 0);
  CHECK(read_file(dir / "day2/second.pcap") == read_file(dir / "together/second.pcap"));
  // Day two's recording replays after day one's, on day one's dump, as the originals do.
  const ProcessRun before = replay(dump, dir / "replay", {dir / "first.pcap", dir / "second.pcap"});
  const ProcessRun after = replay(dir / "day1/fabric.txt", dir / "replay-anon",
                                  {dir / "day1/first.pcap", dir / "day2/second.pcap"});
  INFO("original:\n" << before.out << before.err << "anonymized:\n" << after.out << after.err);
  REQUIRE(before.exit_code == 2);
  CHECK(after.exit_code == before.exit_code);
  CHECK(comparable(after.out, names_in_key(day1_key)) == comparable(before.out, {}));
}

TEST_CASE("An anonymized discovery holds no original GUID or name and replays to the same check") {
  IBPM_REQUIRE_SIMULATOR();
  TempDir dir("anonymize-discovery");
  const std::string dump = dir / "fabric.txt";
  const std::string recording = dir / "discovery.pcap";
  ProcessRun live_check;
  {
    ibpm::sim::FatTree tree = small_tree(36, 12);
    LiveFabric live{tree, ibpm::sim::SimulatedFabric::start_text(with_site_guids(tree.net_file()))};
    std::string text;
    REQUIRE(live.fabric.run_client({"ibnetdiscover"}, &text) == 0);
    std::ofstream(dump) << text;
    // libibnetdisc's directed-route SMPs: NodeInfo, NodeDescription, PortInfo of every node.
    live_check = live.run("check_ib_topology", {"--record", recording});
    INFO(live_check.out << live_check.err);
    REQUIRE(live_check.exit_code == 0);
  }  // the simulator stops here
  const ibpm::Fabric original = ibpm::topology::load_topology_file(dump).fabric;
  REQUIRE(guid_found(read_file(recording), original.nodes().front().guid) != "");

  const ProcessRun anonymize =
      run_process({bin("ibpm-anonymize"), recording, "-o", dir / "anon", "--key", dir / "site.key"},
                  {.env = {}, .stderr_to = Stderr::captured});
  INFO(anonymize.out << anonymize.err);
  REQUIRE(anonymize.exit_code == 0);
  const std::string bytes = read_file(dir / "anon/discovery.pcap");
  REQUIRE(bytes.size() > 1000);
  for (const ibpm::Node& node : original.nodes()) {
    INFO("node " << node.description << " GUID 0x" << hex(node.guid, true));
    CHECK(guid_found(bytes, node.guid) == "");
    CHECK(guid_found(bytes, node.system_image_guid) == "");
    node.for_each_port([&](const ibpm::Port& port) {
      if (port.guid) CHECK(guid_found(bytes, *port.guid) == "");
    });
    CHECK(bytes.find(node.description) == std::string::npos);
  }
  // Replayed without the simulator, the anonymized discovery is the same fabric: the same
  // status and summary (counts of switches, CAs and links).
  const ProcessRun replayed =
      run_process({bin("check_ib_topology"), "--replay", dir / "anon/discovery.pcap"});
  INFO(replayed.out << replayed.err);
  CHECK(replayed.exit_code == live_check.exit_code);
  CHECK(replayed.first_line() == live_check.first_line());
}
