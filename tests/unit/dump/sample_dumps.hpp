// SPDX-License-Identifier: MIT
// Small ibnetdiscover texts used by several tests.
#pragma once

#include <string>

namespace ibpm::test {

// Two switches (a self-loop on 1-2, a parallel pair 3/4 between them, FDR10 on one of the pair)
// and one dual-port CA with only port 1 cabled; a description with a trailing space.
inline const std::string kSample =
    "#\n"
    "# Topology file: generated on Mon Jul 25 11:30:26 2016\n"
    "#\n"
    "# Initiated from node 0002c9030004e938 port 0002c9030004e939\n"
    "\n"
    "vendid=0x2c9\n"
    "devid=0xcb20\n"
    "sysimgguid=0xe41d2d030003e470\n"
    "switchguid=0xe41d2d030003e470(e41d2d030003e471)\n"
    "Switch\t36 \"S-e41d2d030003e470\"\t\t# \"SwitchIB Mellanox Technologies \" base port 0 lid "
    "268 lmc 0\n"
    "[1]\t\"S-e41d2d030003e470\"[2]\t\t# \"SwitchIB Mellanox Technologies \" lid 268 4xEDR\n"
    "[2]\t\"S-e41d2d030003e470\"[1]\t\t# \"SwitchIB Mellanox Technologies \" lid 268 4xEDR\n"
    "[3]\t\"S-f4521403005764b0\"[1]\t\t# \"MF0;switch-de779e:SX6012/U1\" lid 174 4xFDR\n"
    "[4]\t\"S-f4521403005764b0\"[2]\t\t# \"MF0;switch-de779e:SX6012/U1\" lid 174 4xFDR10\n"
    "[34]\t\"H-e41d2d030061f957\"[1](e41d2d030061f958) \t\t# \"r-ufm216 HCA-2\" lid 2 4xEDR\n"
    "\n"
    "vendid=0x2c9\n"
    "devid=0xc738\n"
    "sysimgguid=0xf4521403005764b0\n"
    "switchguid=0xf4521403005764b0(f4521403005764b0)\n"
    "Switch\t12 \"S-f4521403005764b0\"\t\t# \"MF0;switch-de779e:SX6012/U1\" enhanced port 0 lid "
    "174 lmc 1\n"
    "[1]\t\"S-e41d2d030003e470\"[3]\t\t# \"SwitchIB Mellanox Technologies \" lid 268 4xFDR\n"
    "[2]\t\"S-e41d2d030003e470\"[4]\t\t# \"SwitchIB Mellanox Technologies \" lid 268 4xFDR10\n"
    "\n"
    "vendid=0x2c9\n"
    "devid=0x1013\n"
    "sysimgguid=0xe41d2d030061f956\n"
    "caguid=0xe41d2d030061f957\n"
    "Ca\t2 \"H-e41d2d030061f957\"\t\t# \"r-ufm216 HCA-2\"\n"
    "[1](e41d2d030061f958) \t\"S-e41d2d030003e470\"[34]\t\t# lid 2 lmc 0 \"SwitchIB Mellanox "
    "Technologies \" lid 268 4xEDR\n";

// Replaces every occurrence of `from` in text.
inline std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += to.size())
    text.replace(pos, from.size(), to);
  return text;
}

}  // namespace ibpm::test
