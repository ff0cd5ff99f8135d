// SPDX-License-Identifier: MIT

#include "generator_run.hpp"

#include <catch2/catch.hpp>

#include "support/process.hpp"

namespace ibpm::nagios_test {

using ibpm::test::bin;
using ibpm::test::ProcessRun;
using ibpm::test::run_process;
using ibpm::test::Stderr;

std::string generated_fat_tree(const ibpm::test::TempDir& dir, const std::string& name, int hosts,
                               int radix) {
  const std::string dump = dir / name;
  const ProcessRun run = run_process({bin("ibpm-sim"), "generate", "--hosts", std::to_string(hosts),
                                      "--radix", std::to_string(radix), "--dump", dump},
                                     {{}, Stderr::merged});
  INFO(run.out);
  REQUIRE(run.exit_code == 0);
  return dump;
}

void run_config_generator(const ibpm::test::TempDir& dir, const std::string& format,
                          const std::string& out, const std::string& dump,
                          const std::vector<std::string>& more) {
  std::vector<std::string> argv{bin("ibpm-nagios-config"),
                                "--format",
                                format,
                                "-o",
                                out,
                                "--cache",
                                dump,
                                "--state-dir",
                                dir / "state"};
  argv.insert(argv.end(), more.begin(), more.end());
  const ProcessRun run = run_process(argv, {{}, Stderr::merged});
  INFO(run.out);
  REQUIRE(run.exit_code == 0);
}

}  // namespace ibpm::nagios_test
