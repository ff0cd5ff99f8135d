// SPDX-License-Identifier: MIT
// A recording as a test fixture that runs without the fabric it was made on: a folder holding the
// topology and, for each run in order, what the command sent and received and what it printed:
//   fabric.cache  the topology (ibnetdiscover --cache), given to every run as --cache
//   run-N.args    the program (check_ib_fabric, check_ib_node, ...) and its own arguments, a line
//   each run-N.pcap    its --record recording run-N.exit    its exit code run-N.out     its
//   standard output
// The runs replay in order into one fresh state folder, each as PROGRAM --state-dir STATE
// --cache fabric.cache --replay run-N.pcap ARGS..., and must print what they printed
// live. Any recording a site sends, with its topology and the outputs it gave, is such a folder.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ibpm::test::recorded {

struct Run {
  std::vector<std::string> command;  // the program's name, then its own arguments
  std::filesystem::path recording;
  int exit_code = -1;
  std::string out;
};

// The argv of a run of `command` (program name first) on the fixture's topology with state in
// `state`: `mode` is "--record" or "--replay", `recording` its file.
std::vector<std::string> argv_of(const std::vector<std::string>& command,
                                 const std::filesystem::path& folder, const std::string& state,
                                 const std::string& mode, const std::filesystem::path& recording);

// The recording of run `n` in `folder`.
std::filesystem::path recording_of(const std::filesystem::path& folder, int n);

// Writes run `n`'s command, exit code and output beside its recording.
void write_run(const std::filesystem::path& folder, int n, const std::vector<std::string>& command,
               int exit_code, const std::string& out);

// The runs of a fixture folder, in order (run-1, run-2, ... while run-N.args exists). Throws
// std::runtime_error naming a file that is missing or unreadable.
std::vector<Run> read_runs(const std::filesystem::path& folder);

// The output without what depends on the wall clock of the run: the sweep's and the poll's
// durations (status line, perfdata sweep_time and poll_time, the long output's "sweep" line).
std::string time_independent(const std::string& output);

}  // namespace ibpm::test::recorded
