// SPDX-License-Identifier: MIT

#include "sweep/recorded_fixture.hpp"

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace ibpm::test::recorded {

namespace {

std::filesystem::path file_of(const std::filesystem::path& folder, int n, const std::string& ext) {
  return folder / ("run-" + std::to_string(n) + "." + ext);
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot read it");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) throw std::runtime_error(path.string() + ": cannot write it");
}

}  // namespace

std::vector<std::string> argv_of(const std::vector<std::string>& command,
                                 const std::filesystem::path& folder, const std::string& state,
                                 const std::string& mode, const std::filesystem::path& recording) {
  std::vector<std::string> argv{
      command.front(),   "--state-dir", state, "--cache", (folder / "fabric.cache").string(), mode,
      recording.string()};
  argv.insert(argv.end(), command.begin() + 1, command.end());
  return argv;
}

std::filesystem::path recording_of(const std::filesystem::path& folder, int n) {
  return file_of(folder, n, "pcap");
}

void write_run(const std::filesystem::path& folder, int n, const std::vector<std::string>& command,
               int exit_code, const std::string& out) {
  std::string args;
  for (const std::string& arg : command) args += arg + "\n";
  write_text(file_of(folder, n, "args"), args);
  write_text(file_of(folder, n, "exit"), std::to_string(exit_code) + "\n");
  write_text(file_of(folder, n, "out"), out);
}

std::vector<Run> read_runs(const std::filesystem::path& folder) {
  std::vector<Run> runs;
  for (int n = 1; std::filesystem::exists(file_of(folder, n, "args")); ++n) {
    Run run;
    std::istringstream args(read_text(file_of(folder, n, "args")));
    for (std::string arg; std::getline(args, arg);) run.command.push_back(arg);
    if (run.command.empty())
      throw std::runtime_error(file_of(folder, n, "args").string() + ": empty");
    run.recording = recording_of(folder, n);
    if (!std::filesystem::exists(run.recording))
      throw std::runtime_error(run.recording.string() + ": missing");
    const std::string exit_text = read_text(file_of(folder, n, "exit"));
    try {
      run.exit_code = std::stoi(exit_text);
    } catch (const std::exception&) {
      throw std::runtime_error(file_of(folder, n, "exit").string() + ": not an exit code");
    }
    run.out = read_text(file_of(folder, n, "out"));
    runs.push_back(std::move(run));
  }
  return runs;
}

std::string time_independent(const std::string& output) {
  std::string text = std::regex_replace(output, std::regex(R"( polled in [0-9.]+ s)"), " polled");
  text = std::regex_replace(text, std::regex(R"((sweep_time|poll_time)=[0-9.e-]+s)"), "$1=T");
  text = std::regex_replace(text, std::regex(R"(sweep [0-9.]+ s \(polling and state [0-9.]+ s\))"),
                            "sweep T");
  return text;
}

}  // namespace ibpm::test::recorded
