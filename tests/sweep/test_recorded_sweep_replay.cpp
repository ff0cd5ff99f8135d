// SPDX-License-Identifier: MIT
// Every recorded fixture in the build tree's tests/recordings (recorded_fixture.hpp; the one
// test_recorded_sweep_fixture makes on ibsim, and any other put there) replayed without ibsim: a
// plain process (no simulator preloaded, no HCA port opened) per run, in order into one fresh
// state folder, gives the exit code, status line, perfdata and long output the run gave live
// (only the sweep's own durations differ). Skipped when there is no fixture.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"
#include "sweep/recorded_fixture.hpp"

using namespace ibpm::test;

TEST_CASE("A recorded fixture replays without ibsim to the output it gave live") {
  const std::filesystem::path recordings = IBPM_RECORDINGS;
  std::vector<std::filesystem::path> fixtures;
  if (std::filesystem::is_directory(recordings))
    for (const auto& entry : std::filesystem::directory_iterator(recordings))
      if (entry.is_directory() && entry.path().filename().string().front() != '.')
        fixtures.push_back(entry.path());
  if (fixtures.empty())
    IBPM_SKIP("no recording in " << recordings.string()
                                 << " (test_recorded_sweep_fixture makes one on ibsim)");
  std::sort(fixtures.begin(), fixtures.end());
  for (const std::filesystem::path& fixture : fixtures) {
    INFO("fixture " << fixture.string());
    const std::vector<recorded::Run> runs = recorded::read_runs(fixture);
    REQUIRE(!runs.empty());
    TempDir dir("recorded-replay");
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const recorded::Run& run = runs[i];
      std::vector<std::string> argv =
          recorded::argv_of(run.command, fixture, dir / "state", "--replay", run.recording);
      argv.front() = bin(argv.front());
      const ProcessRun replay = run_process(argv);
      INFO("run " << i + 1 << " (" << run.command.front() << "), live:\n"
                  << run.out << "replayed:\n"
                  << replay.out << replay.err);
      CHECK(replay.exit_code == run.exit_code);
      const std::string live = recorded::time_independent(run.out);
      const std::string replayed = recorded::time_independent(replay.out);
      // Status line and perfdata, then the long output: a difference says which part.
      CHECK(replayed.substr(0, replayed.find('\n')) == live.substr(0, live.find('\n')));
      CHECK(replayed == live);
    }
  }
}
