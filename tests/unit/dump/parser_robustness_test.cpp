// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dump/ibnetdiscover_parser.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "dump/ibsim_net_writer.hpp"
#include "dump/ports_report_parser.hpp"
#include "fixtures.hpp"
#include "sample_dumps.hpp"

using namespace ibpm;
using namespace ibpm::test;

namespace {

// Lines the mutations start from: every kind of record line, in its odd variants too.
const std::vector<std::string> kSeeds = {
    "vendid=0x2c9",
    "devid=0xd2f0",
    "sysimgguid=0xb8cef603008fbe36",
    "switchguid=0xb8cef603008fbe36(b8cef6030019c882)",
    "caguid=0xcccccccccccccc1",
    "rtguid=0x20",
    "Switch\t36 \"S-e41d2d030003e470\"\t\t# \"SwitchIB Mellanox Technologies \" base port 0 lid "
    "268 lmc 0",
    "Switch41 \"S-0c42a10300a9b026\"# \"MF0;sat11:MQM8700/U1\" enhanced port 0 lid 3894 lmc 0",
    "Ca\t2 \"H-e41d2d030061f957\"\t\t# \"r-ufm216 HCA-2\"",
    "Rt\t2 \"R-0000000000000020\"\t\t# \"gateway rt\"",
    "[1]\t\"S-e41d2d030003e470\"[2]\t\t# \"SwitchIB Mellanox Technologies \" lid 268 4xEDR",
    "[34]\t\"H-e41d2d030061f957\"[1](e41d2d030061f958) \t\t# \"r-ufm216 HCA-2\" lid 2 4xEDR",
    "[1](e41d2d030061f958) \t\"S-e41d2d030003e470\"[34]\t\t# lid 2 lmc 0 \"SwitchIB \" lid 268 "
    "4xEDR",
    "[3](1/2/1) \"S-b0cf0e0300e5b940\"[63]      # \"Quantum-2 Mellanox Technologies\" lid 24 4xNDR",
    "[1](B184D0F0/0/0/1)(5c25730300c06f60) \"S-b0cf0e0300e5b940\"[1] # lid 156 lmc 0 \"Q\" lid 24 "
    "4xNDR",
    "[1]\"H-1c34da03005503dc\"[1](1c34da03005503dc) # \"SAT111092710053 ibp11s0f0\" lid 65535 "
    "4xHDR",
    "[1]\t\"H-003048ffff9386f1\"[1](3048ffff9386f2) \t\t# \"gw201-1\" lid 21 4xQDR s=4 w=2 v=4",
    "[3][ext 5]\t\"S-0000000000000001\"[4][ext 2]\t\t# \"a\" lid 1 4xSDR",
    "[1]\t\"S-1111111111111111\"[2]         # \"Voltaire 4036 # 4036-8C5C\" lid  4x???",
    "[root@pg-compute-ufm001.clovanap dgxa100]# ibnetdiscover",
    "=~=~=~=~=~=~=~=~=~=~=~= PuTTY log 2021.06.15 12:06:05 =~=~=~=~=~=~=~=~=~=~=~=",
    "Chassis 1 (guid 0x8f104004121ca)",
    "# comment",
    "",
    "CA   134  1 0x7cfe9003003b4bde 4x EDR - SW  1719 10 0x7cfe9003009ce5b0 ( 'o1' - 'sw' )",
};

const std::vector<std::string> kTokens = {
    "[",
    "]",
    "(",
    ")",
    "\"",
    "#",
    " ",
    "\t",
    "S-",
    "H-",
    "R-",
    "?-",
    "lid",
    "lmc",
    "4x",
    "HDR",
    "???",
    "Switch",
    "Ca",
    "Rt",
    "vendid=",
    "switchguid=",
    "0x",
    "255",
    "256",
    "0",
    "65535",
    "-",
    "'",
    "\r",
    "\xEF\xBB\xBF",
    "\xff",
    std::string(1, '\0'),
    "[ext ",
    "base port 0",
    "=",
};

class Mutator {
 public:
  explicit Mutator(unsigned seed) : rng_(seed) {}

  std::string line() {
    switch (pick(4)) {
      case 0:
        return random_bytes();
      case 1:
        return random_tokens();
      default:
        return mutate(kSeeds[pick(kSeeds.size())]);
    }
  }

  std::size_t pick(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
  }

 private:
  std::string random_bytes() {
    std::string s(pick(120), '\0');
    for (char& c : s) c = static_cast<char>(pick(256));
    return s;
  }
  std::string random_tokens() {
    std::string s;
    for (std::size_t n = pick(20); n > 0; --n) {
      s += kTokens[pick(kTokens.size())];
      if (pick(3) == 0) s += std::to_string(pick(70000));
    }
    return s;
  }
  std::string mutate(std::string s) {
    for (std::size_t n = 1 + pick(4); n > 0; --n) {
      std::size_t at = s.empty() ? 0 : pick(s.size() + 1);
      switch (pick(4)) {
        case 0:
          if (!s.empty() && at < s.size()) s.erase(at, 1 + pick(5));
          break;
        case 1:
          s.insert(at, kTokens[pick(kTokens.size())]);
          break;
        case 2:
          if (at < s.size()) s[at] = static_cast<char>(pick(256));
          break;
        default:
          s.insert(at, std::to_string(pick(1u << 20)));
          break;
      }
    }
    return s;
  }

  std::mt19937 rng_;
};

bool written_text_is_faithful(const Fabric& f) {
  for (const Node& n : f.nodes()) {
    if (n.type == NodeType::unknown) return false;
    if (n.description.find('"') != std::string::npos) return false;
    for (const Port& p : n.ports)
      if (p.label.find_first_of("()\"") != std::string::npos) return false;
  }
  return true;
}

// Parses doc; anything but DumpError fails the test. Whatever parses must also survive both
// writers, and the ibnetdiscover text written must read back to the same fabric.
bool check_document(const std::string& doc) {
  dump::ParsedDump d;
  try {
    d = parse_text(doc);
  } catch (const dump::DumpError&) {
    return false;
  } catch (const std::exception& e) {
    FAIL_CHECK("unexpected " << e.what() << " for input:\n" << doc);
    return false;
  }
  try {
    std::ostringstream text;
    dump::write_ibnetdiscover(text, d.fabric);
    std::ostringstream net;
    dump::write_ibsim_net(net, d.fabric);
    dump::ParsedDump again = parse_text(text.str());
    if (written_text_is_faithful(d.fabric)) {
      std::string diff = fabric_difference(d.fabric, again.fabric, false);
      if (!diff.empty())
        FAIL_CHECK(diff << " after writing and reading:\n" << doc << "\n---\n" << text.str());
    }
  } catch (const std::exception& e) {
    FAIL_CHECK("writing or re-reading failed: " << e.what() << " for input:\n" << doc);
  }
  return true;
}

}  // namespace

TEST_CASE("mutated lines inside a valid dump never crash the parser", "[dump][parser][fuzz]") {
  Mutator m(20240611);
  const std::string before = kSample.substr(0, kSample.find("[3]"));
  const std::string after = kSample.substr(kSample.find("[3]"));
  int parsed = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string doc = before;
    for (std::size_t n = 1 + m.pick(3); n > 0; --n) doc += m.line() + (m.pick(2) ? "\n" : "\r\n");
    doc += after;
    parsed += check_document(doc);
  }
  // Both outcomes must have been exercised.
  CHECK(parsed > 300);
  CHECK(parsed < 3000);
}

TEST_CASE("documents of random lines never crash the parser", "[dump][parser][fuzz]") {
  Mutator m(7);
  for (int i = 0; i < 300; ++i) {
    std::string doc;
    for (std::size_t n = m.pick(40); n > 0; --n) doc += m.line() + "\n";
    check_document(doc);
    std::istringstream in(doc);
    try {
      dump::parse_ports_report(in, "t");
    } catch (const dump::DumpError&) {
    } catch (const std::exception& e) {
      FAIL_CHECK("ports report: unexpected " << e.what() << " for input:\n" << doc);
    }
  }
}
