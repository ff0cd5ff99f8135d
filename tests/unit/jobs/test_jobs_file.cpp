// SPDX-License-Identifier: MIT
// Jobs files as `squeue -h -o "%A %N"` writes them: pending jobs without hosts, comments,
// Windows line ends; a bad line is named by number.
#include <catch2/catch.hpp>
#include <sstream>

#include "jobs/jobs_file.hpp"

using namespace ibpm::jobs;

TEST_CASE("a jobs file gives each job its hosts") {
  std::istringstream in("# running jobs\n1001 cn[0001-0002]\r\n\n1002 gpu01,gpu02\n1003 \n");
  const auto jobs = parse_jobs(in, "jobs.txt");
  REQUIRE(jobs.size() == 3);
  CHECK(jobs[0].id == "1001");
  CHECK(jobs[0].hosts == std::vector<std::string>{"cn0001", "cn0002"});
  CHECK(jobs[1].hosts == std::vector<std::string>{"gpu01", "gpu02"});
  CHECK(jobs[2].hosts.empty());
}

TEST_CASE("a bad jobs line is named") {
  std::istringstream in("1001 cn[1-2]\n1002 cn[2-1]\n");
  CHECK_THROWS_WITH(parse_jobs(in, "jobs.txt"),
                    Catch::Contains("jobs.txt line 2") && Catch::Contains("runs backwards"));
  std::istringstream extra("1001 cn1 cn2\n");
  CHECK_THROWS_WITH(parse_jobs(extra, "jobs.txt"), Catch::Contains("more than JOBID HOSTLIST"));
  CHECK_THROWS_AS(read_jobs_file("/nonexistent/jobs"), JobsFileError);
}
