// SPDX-License-Identifier: MIT
// ibpm-split-recording: a --record recording that holds many runs (appended run after run, as a
// sweep every few minutes writes it) split into one file per run, so that each run replays in
// turn (check_ib_fabric --replay) and a night of sweeps becomes a state directory.
//
// A run starts where the engine starts again (a request's transaction id lower than the last
// request's: each pass of a run opens a new engine, whose ids count from 1) after a pause longer
// than --gap (a run's passes follow each other within milliseconds, its retries keep counting),
// or where a discovery starts after such a pause: libibmad numbers a process's directed-route
// SMPs one after the other from a random start, so one that does not follow the last (the same
// id, a try again, or the next) comes from another run.
#include <pcap/pcap.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "mad/dr_smp.hpp"
#include "mad/ib_frame.hpp"
#include "plugin/add_option.hpp"
#include "plugin/cli.hpp"
#include "plugin/options.hpp"

namespace {

namespace fs = std::filesystem;

struct Options {
  std::string recording;
  std::string out_dir;
  double gap = 1.0;
};

struct PcapCloser {
  void operator()(pcap_t* pcap) const { pcap_close(pcap); }
};
struct DumperCloser {
  void operator()(pcap_dumper_t* dumper) const { pcap_dump_close(dumper); }
};

std::int64_t nanoseconds(const pcap_pkthdr& header) {
  return std::int64_t{header.ts.tv_sec} * 1000000000 + header.ts.tv_usec;  // nano precision
}

void run(const Options& options) {
  const std::string& path = options.recording;
  char error[PCAP_ERRBUF_SIZE] = "";
  const std::unique_ptr<pcap_t, PcapCloser> pcap(
      pcap_open_offline_with_tstamp_precision(path.c_str(), PCAP_TSTAMP_PRECISION_NANO, error));
  if (!pcap) throw std::runtime_error(path + ": " + error);
  if (pcap_datalink(pcap.get()) != ibpm::mad::kLinktypeErf)
    throw std::runtime_error(path + ": link type " + std::to_string(pcap_datalink(pcap.get())) +
                             ", not ERF (" + std::to_string(ibpm::mad::kLinktypeErf) +
                             "): not a --record recording");
  std::error_code made;
  fs::create_directories(options.out_dir, made);
  if (!fs::is_directory(options.out_dir))
    throw std::runtime_error(options.out_dir + ": cannot make the folder: " + made.message());
  const std::string stem = fs::path(path).stem().string();
  const auto gap = static_cast<std::int64_t>(options.gap * 1e9);

  std::unique_ptr<pcap_dumper_t, DumperCloser> dumper;
  int runs = 0;
  std::uint32_t last_tid = 0;     // the engine's last request
  std::uint32_t last_dr_tid = 0;  // the last directed-route SMP (libibnetdisc's discovery)
  std::int64_t last_time = 0;
  std::size_t packets = 0;
  for (std::size_t number = 1;; ++number) {
    pcap_pkthdr* header = nullptr;
    const u_char* bytes = nullptr;
    const int read = pcap_next_ex(pcap.get(), &header, &bytes);
    if (read == PCAP_ERROR_BREAK) break;
    const std::string at = path + ": packet " + std::to_string(number);
    if (read != 1) throw std::runtime_error(at + ": " + pcap_geterr(pcap.get()));
    const auto frame = ibpm::mad::parse_frame({bytes, header->caplen});
    if (!frame)
      throw std::runtime_error(at + " is not an InfiniBand MAD (ERF record, LRH, BTH, DETH)");
    const std::uint8_t* mad = frame->mad.data();
    const bool request = (mad[3] & 0x80) == 0;
    const std::uint32_t tid = ibpm::mad::load_be32(mad + 12);
    const std::int64_t when = nanoseconds(*header);
    const bool directed = ibpm::mad::is_directed_route(mad);
    const bool starts_again =
        directed ? tid != last_dr_tid && tid != last_dr_tid + 1 : tid <= last_tid;
    if (request && (!dumper || (starts_again && when - last_time > gap))) {
      char name[32];
      std::snprintf(name, sizeof name, "-%04d.pcap", ++runs);
      const std::string out = (fs::path(options.out_dir) / (stem + name)).string();
      dumper.reset(pcap_dump_open(pcap.get(), out.c_str()));
      if (!dumper) throw std::runtime_error(out + ": " + pcap_geterr(pcap.get()));
    }
    if (request) (directed ? last_dr_tid : last_tid) = tid;
    last_time = when;
    if (!dumper) continue;  // answers before any request: nothing asked them in this recording
    pcap_dump(reinterpret_cast<u_char*>(dumper.get()), header, bytes);
    ++packets;
  }
  std::cout << path << ": " << runs << " runs, " << packets << " packets, in " << options.out_dir
            << "/" << stem << "-NNNN.pcap\n";
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return ibpm::plugin::run_tool(
      argc, argv,
      {.name = "ibpm-split-recording",
       .description =
           "Splits a --record recording that holds many runs into one file per run "
           "(DIR/NAME-0001.pcap, ...), so that the runs replay in turn: for f in DIR/*.pcap; do "
           "check_ib_fabric --replay $f ...; done feeds a state directory (RRD files at the "
           "recording's times) for ibpm-locality, ibpm-map and ibpm-web. A run starts where "
           "the MAD engine, or a discovery, starts again after a pause longer than --gap.",
       .add_options =
           [&](CLI::App& app) {
             ibpm::plugin::add_option(app, "recording", options.recording,
                                      "The recording (pcap, made with --record)")
                 .required();
             ibpm::plugin::add_output_option(app, options.out_dir,
                                             "Folder for the runs' files (made if missing)")
                 .type_name("DIR")
                 .required();
             ibpm::plugin::add_option(app, "--gap", options.gap,
                                      "Seconds of silence before a new run (its passes and "
                                      "retries follow each other sooner)")
                 .positive()
                 .show_default();
           },
       .run = [&] { run(options); }});
}
