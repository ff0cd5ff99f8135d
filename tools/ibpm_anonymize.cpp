// SPDX-License-Identifier: MIT
// ibpm-anonymize: rewrites the GUIDs and node descriptions of --record recordings and of the
// topology beside them, the same way in every file, so that they can leave the site: the
// anonymized recording replays against the anonymized topology with the same results (LIDs,
// widths, speeds, cables and counters stay). See anonymous_names.hpp for the new names.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "anonymize_fabric.hpp"
#include "anonymize_key.hpp"
#include "anonymize_recording.hpp"
#include "base/atomic_file.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "plugin/add_option.hpp"
#include "plugin/cli.hpp"
#include "plugin/options.hpp"
#include "topology/topology.hpp"

namespace {

namespace fs = std::filesystem;

struct Options {
  std::string topology;
  std::vector<std::string> recordings;
  std::string out_dir;
  std::string key;
};

// DIR/NAME of an input; never the input itself.
std::string output_for(const Options& options, const std::string& input) {
  const fs::path out = fs::path(options.out_dir) / fs::path(input).filename();
  std::error_code error;
  if (fs::equivalent(out, input, error))
    throw std::runtime_error(out.string() + " is the input itself: -o must be another folder");
  return out.string();
}

void run(const Options& options) {
  if (options.topology.empty() && options.recordings.empty())
    throw std::runtime_error("nothing to anonymize: give --topology FILE and/or recordings");
  ibpm::tools::AnonymousNames names;
  // An earlier run's mapping first: its nodes keep their names, new ones are numbered after.
  if (!options.key.empty())
    if (const auto key = ibpm::tools::read_key_file(options.key)) {
      for (const auto& [original, anonymous] : key->guids) names.keep_guid(original, anonymous);
      for (const auto& [original, anonymous] : key->names) names.keep_name(original, anonymous);
    }
  std::optional<ibpm::topology::Topology> topology;
  if (!options.topology.empty()) {
    topology = ibpm::topology::load_topology_file(options.topology);
    ibpm::tools::learn_fabric(topology->fabric, names);
  }
  for (const std::string& recording : options.recordings)
    ibpm::tools::learn_recording(recording, names);
  names.assign();
  // The key before the files: a file written is never one its key cannot read back.
  if (!options.key.empty()) ibpm::tools::write_key_file(options.key, names);

  std::error_code error;
  fs::create_directories(options.out_dir, error);
  if (!fs::is_directory(options.out_dir))
    throw std::runtime_error(options.out_dir + ": cannot make the folder: " + error.message());
  if (topology) {
    const ibpm::Fabric fabric = ibpm::tools::anonymized_fabric(topology->fabric, names);
    const std::string out = output_for(options, options.topology);
    ibpm::base::replace_file_with(
        out, [&](std::ostream& stream) { ibpm::dump::write_ibnetdiscover(stream, fabric); });
    std::cout << out << ": " << fabric.nodes().size() << " nodes, " << fabric.links().size()
              << " cables (ibnetdiscover dump)\n";
  }
  for (const std::string& recording : options.recordings) {
    const std::string out = output_for(options, recording);
    const std::size_t packets = ibpm::tools::anonymize_recording(recording, out, names);
    std::cout << out << ": " << packets << " packets\n";
  }
  std::cout << names.guid_count() << " GUIDs and " << names.name_count()
            << " descriptions rewritten";
  if (!options.key.empty())
    std::cout << "; key in " << options.key << " (" << names.kept_guid_count() << " GUIDs and "
              << names.kept_name_count() << " descriptions from it before)";
  std::cout << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return ibpm::plugin::run_tool(
      argc, argv,
      {.name = "ibpm-anonymize",
       .description =
           "Rewrites the GUIDs (node, port, system image) and node descriptions of --record "
           "recordings and of the topology beside them, consistently across all the files "
           "given, so they can be shared outside the site. The fabric keeps its shape: LIDs, "
           "cables, widths, speeds, counters and times stay, so the anonymized recording "
           "replays (--replay, with --cache on the anonymized topology) with the same "
           "results. New GUIDs count from 0x0a00000000000001; descriptions become switch-0001, "
           "host-0001 (an HCA's ' HCA-1' or ' mlx5_0' kept), router-0001. Each input is written "
           "to -o DIR under its own file name; the topology (an ibnetdiscover dump or a "
           "libibnetdisc cache file) is written as an ibnetdiscover dump.",
       .add_options =
           [&](CLI::App& app) {
             ibpm::plugin::add_option(app, "recordings", options.recordings,
                                      "Recordings made with --record (pcap)");
             ibpm::plugin::add_option(app, "--topology", options.topology,
                                      "The fabric's topology: ibnetdiscover dump or libibnetdisc "
                                      "cache file")
                 .type_name("FILE");
             ibpm::plugin::add_output_option(app, options.out_dir,
                                             "Folder for the anonymized files (made if missing)")
                 .type_name("DIR")
                 .required();
             ibpm::plugin::add_option(
                 app, "--key", options.key,
                 "The mapping (original -> new GUIDs and names): read from FILE when it exists, "
                 "so that files anonymized in separate runs map the same nodes the same way, and "
                 "written back to it with this run's additions (mode 0600, replaced whole, never "
                 "through a symbolic link). It undoes the anonymization: keep it at the site")
                 .type_name("FILE");
           },
       .run = [&] { run(options); }});
}
