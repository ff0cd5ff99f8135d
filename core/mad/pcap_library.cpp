// SPDX-License-Identifier: MIT

#include "mad/pcap_library.hpp"

#include <dlfcn.h>

#include <string>

#include "mad/umad_port.hpp"

namespace ibpm::mad {

namespace {

template <typename Function>
void resolve(void* library, const char* name, Function& function) {
  function = reinterpret_cast<Function>(::dlsym(library, name));
  if (!function) throw MadError(std::string("cannot load libpcap: it has no ") + name);
}

PcapLibrary load() {
  void* library = nullptr;
  std::string reason;
  for (const char* soname : {"libpcap.so.0.8", "libpcap.so.1", "libpcap.so"}) {
    library = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library) break;
    if (reason.empty()) reason = ::dlerror();
  }
  if (!library) throw MadError("cannot load libpcap (apt-get install libpcap0.8): " + reason);
  PcapLibrary pcap{};
  resolve(library, "pcap_open_dead_with_tstamp_precision", pcap.open_dead_with_tstamp_precision);
  resolve(library, "pcap_open_offline_with_tstamp_precision",
          pcap.open_offline_with_tstamp_precision);
  resolve(library, "pcap_dump_open_append", pcap.dump_open_append);
  resolve(library, "pcap_dump", pcap.dump);
  resolve(library, "pcap_dump_flush", pcap.dump_flush);
  resolve(library, "pcap_dump_close", pcap.dump_close);
  resolve(library, "pcap_close", pcap.close);
  resolve(library, "pcap_next_ex", pcap.next_ex);
  resolve(library, "pcap_datalink", pcap.datalink);
  resolve(library, "pcap_datalink_val_to_name", pcap.datalink_val_to_name);
  resolve(library, "pcap_geterr", pcap.geterr);
  return pcap;  // the library stays loaded for the process
}

}  // namespace

const PcapLibrary& pcap_library() {
  static const PcapLibrary library = load();
  return library;
}

}  // namespace ibpm::mad
