// SPDX-License-Identifier: MIT
// ibpm-anonymize --key across runs, on small topology dumps (no simulator): a second run with the
// key of the first maps every node it shares with the first the same way and numbers the new ones
// after them; the key is written 0600; a key that is not one (text, another version, bad or
// duplicate lines, binary bytes, a link, a FIFO, a folder) is one line and a non-zero exit, and
// the key is left as it was.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"
#include "topology/topology.hpp"

using namespace ibpm::test;

namespace anonymize_key_test {

std::string hex(unsigned long long value) {
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", value);
  return text;
}

enum class HostOrder { first_to_last, last_to_first };

// An ibnetdiscover dump of one switch "leaf01" and `hosts` hosts "cnNNNN HCA-1" on its ports, the
// hosts' records in `order` (a run without a key numbers them in that order).
std::string dump(int hosts, HostOrder order = HostOrder::first_to_last) {
  const unsigned long long sw = 0x0c42a10300f3e000ULL;
  const auto ca = [](int i) { return 0x7cfe900300a1b200ULL + 0x10ULL * static_cast<unsigned>(i); };
  const auto host = [](int i) {
    char text[16];
    std::snprintf(text, sizeof text, "cn%04d", i + 1);
    return std::string(text);
  };
  std::string text = "vendid=0x2c9\ndevid=0xbd36\nsysimgguid=0x" + hex(sw + 3) + "\nswitchguid=0x" +
                     hex(sw) + "(" + hex(sw) + ")\nSwitch\t8 \"S-" + hex(sw) +
                     "\"\t\t# \"leaf01\" base port 0 lid 1 lmc 0\n";
  for (int i = 0; i < hosts; ++i)
    text += "[" + std::to_string(i + 1) + "]\t\"H-" + hex(ca(i)) + "\"[1](" + hex(ca(i) + 1) +
            ")\t\t# \"" + host(i) + " HCA-1\" lid " + std::to_string(i + 2) + " 4xQDR\n";
  for (int n = 0; n < hosts; ++n) {
    const int i = order == HostOrder::first_to_last ? n : hosts - 1 - n;
    text += "\nvendid=0x2c9\ndevid=0x1003\nsysimgguid=0x" + hex(ca(i) + 3) + "\ncaguid=0x" +
            hex(ca(i)) + "\nCa\t1 \"H-" + hex(ca(i)) + "\"\t\t# \"" + host(i) + " HCA-1\"\n[1](" +
            hex(ca(i) + 1) + ")\t\"S-" + hex(sw) + "\"[" + std::to_string(i + 1) + "]\t\t# lid " +
            std::to_string(i + 2) + " lmc 0 \"leaf01\" lid 1 4xQDR\n";
  }
  return text;
}

ProcessRun anonymize(const std::vector<std::string>& args) {
  std::vector<std::string> argv{bin("ibpm-anonymize")};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

// Node description -> GUID of a dump.
std::map<std::string, ibpm::Guid> guids_by_name(const std::string& path) {
  std::map<std::string, ibpm::Guid> guids;
  const ibpm::topology::Topology topology = ibpm::topology::load_topology_file(path);
  for (const ibpm::Node& node : topology.fabric.nodes()) guids[node.description] = node.guid;
  return guids;
}

}  // namespace anonymize_key_test

using namespace anonymize_key_test;

TEST_CASE("ibpm-anonymize runs with one key map shared nodes the same, new ones after") {
  TempDir dir("anonymize-key");
  write_text(dir / "day1.txt", dump(2));
  // The new host's record first: numbered on its own, it would be host-0001.
  write_text(dir / "day2.txt", dump(3, HostOrder::last_to_first));
  const std::string key = dir / "site.key";
  const ProcessRun first =
      anonymize({"--topology", dir / "day1.txt", "-o", dir / "a", "--key", key});
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  struct stat status {};
  REQUIRE(::stat(key.c_str(), &status) == 0);
  CHECK((status.st_mode & 0777) == 0600);
  const std::string first_key = read_text(key);

  const ProcessRun second =
      anonymize({"--topology", dir / "day2.txt", "-o", dir / "b", "--key", key});
  INFO(second.out << second.err);
  REQUIRE(second.exit_code == 0);
  CHECK(second.has("(8 GUIDs and 3 descriptions from it before)"));
  const auto day1 = guids_by_name(dir / "a/day1.txt");
  const auto day2 = guids_by_name(dir / "b/day2.txt");
  REQUIRE(day1.size() == 3);
  REQUIRE(day2.size() == 4);
  for (const auto& [name, guid] : day1) {
    INFO(name);
    REQUIRE(day2.contains(name));
    CHECK(day2.at(name) == guid);
  }
  // The new host: the next number, a GUID of its own.
  REQUIRE(day2.contains("host-0003 HCA-1"));
  for (const auto& [name, guid] : day1) CHECK(guid != day2.at("host-0003 HCA-1"));
  CHECK(day1.contains("switch-0001"));
  // The key grew by the new host's lines, kept its old ones, and is still private.
  const std::string second_key = read_text(key);
  CHECK(second_key.size() > first_key.size());
  std::istringstream lines(first_key);
  for (std::string line; std::getline(lines, line);) {
    INFO(line);
    CHECK(second_key.find(line + "\n") != std::string::npos);
  }
  REQUIRE(::stat(key.c_str(), &status) == 0);
  CHECK((status.st_mode & 0777) == 0600);
  // Nothing original in what the second run wrote.
  const std::string written = read_text(dir / "b/day2.txt");
  CHECK(written.find("cn0003") == std::string::npos);
  CHECK(written.find("7cfe900300a1b220") == std::string::npos);

  // A key written before the version line is read too.
  std::string old_key = second_key;
  old_key.replace(0, old_key.find('\n') + 1, "# ibpm-anonymize key: original -> anonymized.\n");
  write_text(dir / "old.key", old_key);
  const ProcessRun old =
      anonymize({"--topology", dir / "day2.txt", "-o", dir / "c", "--key", dir / "old.key"});
  INFO(old.out << old.err);
  CHECK(old.exit_code == 0);
  CHECK(read_text(dir / "c/day2.txt") == read_text(dir / "b/day2.txt"));
}

TEST_CASE("ibpm-anonymize refuses a key that is not one in one line and leaves it alone") {
  TempDir dir("anonymize-bad-key");
  write_text(dir / "day1.txt", dump(2));
  const std::string head = "ibpm-anonymize-key 1\n";
  const std::string good = "guid 0x0c42a10300f3e000 0x0a00000000000001\n";
  const std::map<std::string, std::string> keys{
      {"text", "hello\n"},
      {"empty", ""},
      {"version 2", "ibpm-anonymize-key 2\n" + good},
      {"unknown line", head + "port 0x1 0x2\n"},
      {"short GUID", head + "guid 0x1 0x0a00000000000001\n"},
      {"GUID 0", head + "guid 0x0c42a10300f3e000 0x0000000000000000\n"},
      {"not hex", head + "guid 0x0c42a10300f3e00g 0x0a00000000000001\n"},
      {"third GUID", head + "guid 0x0c42a10300f3e000 0x0a00000000000001 0x1\n"},
      {"original twice", head + good + good},
      {"one anonymous for two", head + good + "guid 0x0c42a10300f3e001 0x0a00000000000001\n"},
      {"name unquoted", head + "name leaf01 \"switch-0001\"\n"},
      {"name not closed", head + "name \"leaf01\" \"switch-0001\n"},
      {"unknown escape", head + "name \"leaf\\q01\" \"switch-0001\"\n"},
      {"empty name", head + "name \"leaf01\" \"\"\n"},
      {"name twice", head + "name \"a\" \"switch-0001\"\nname \"b\" \"switch-0001\"\n"},
      {"binary", head + std::string("\0\xff\x01guid", 7)},
  };
  for (const auto& [what, text] : keys) {
    INFO(what);
    const std::string key = dir / "bad.key";
    write_text(key, text);
    const ProcessRun run =
        anonymize({"--topology", dir / "day1.txt", "-o", dir / "out", "--key", key});
    INFO(run.out << run.err);
    CHECK(run.exit_code != 0);
    CHECK(run.err.rfind("ibpm-anonymize: " + key + ": ", 0) == 0);
    CHECK(run.err.find('\n') == run.err.size() - 1);
    CHECK(read_text(key) == text);
    CHECK(!std::filesystem::exists(dir / "out/day1.txt"));
  }
  // A link to a good key, a FIFO (never waited on), a folder.
  const std::string real = dir / "real.key";
  write_text(real, head + good);
  std::filesystem::create_symlink(real, dir / "link.key");
  REQUIRE(::mkfifo((dir / "fifo.key").c_str(), 0600) == 0);
  std::filesystem::create_directory(dir / "folder.key");
  for (const std::string name : {"link.key", "fifo.key", "folder.key"}) {
    INFO(name);
    const ProcessRun run =
        anonymize({"--topology", dir / "day1.txt", "-o", dir / "out", "--key", dir / name});
    INFO(run.out << run.err);
    CHECK(run.exit_code != 0);
    CHECK(run.err.rfind("ibpm-anonymize: " + (dir / name) + ": ", 0) == 0);
    CHECK(run.err.find('\n') == run.err.size() - 1);
  }
  CHECK(std::filesystem::is_symlink(dir / "link.key"));
  CHECK(read_text(real) == head + good);
}
