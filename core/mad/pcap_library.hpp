// SPDX-License-Identifier: MIT
// libpcap, loaded the first time a recording is opened (--record, --replay), not at every check's
// start: linked, it brings D-Bus, systemd, libgcrypt and five more libraries into every process,
// 1.3 million instructions of dynamic linking, a third of what a check costs before its first MAD
// (tests/checks' start-up guard counts them). The tools that only work on recordings link it.
#pragma once

#include <pcap/pcap.h>

namespace ibpm::mad {

// The libpcap functions recordings use, resolved from the library.
struct PcapLibrary {
  decltype(&::pcap_open_dead_with_tstamp_precision) open_dead_with_tstamp_precision;
  decltype(&::pcap_open_offline_with_tstamp_precision) open_offline_with_tstamp_precision;
  decltype(&::pcap_dump_open_append) dump_open_append;
  decltype(&::pcap_dump) dump;
  decltype(&::pcap_dump_flush) dump_flush;
  decltype(&::pcap_dump_close) dump_close;
  decltype(&::pcap_close) close;
  decltype(&::pcap_next_ex) next_ex;
  decltype(&::pcap_datalink) datalink;
  decltype(&::pcap_datalink_val_to_name) datalink_val_to_name;
  decltype(&::pcap_geterr) geterr;
};

// Loaded once per process; throws MadError("cannot load libpcap (...): reason") when it is not
// installed (Debian's libpcap0.8).
const PcapLibrary& pcap_library();

}  // namespace ibpm::mad
