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

TEST_CASE("a hostlist bomb is refused before its hosts are made") {
  // Five lines of a million hosts each: more than a jobs file may hold.
  std::string bomb;
  for (const char* job : {"1", "2", "3", "4", "5"}) {
    bomb += job;
    bomb += " node[1-999999]\n";
  }
  std::istringstream in(bomb);
  CHECK_THROWS_WITH(parse_jobs(in, "jobs.txt"),
                    Catch::Equals("jobs.txt line 5: more than 4000000 hosts in the file"));
  CHECK(kMaxJobsFileHosts == 4'000'000);
}

TEST_CASE("hosts the caller does not know are dropped as they expand") {
  std::istringstream in("1001 cn[0001-0004],gpu01\n1002 node[1-999999]\n");
  JobsFileLimits limits;
  limits.keep = [](const std::string& host) { return host == "cn0002" || host == "node7"; };
  const auto jobs = parse_jobs(in, "jobs.txt", limits);
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].hosts == std::vector<std::string>{"cn0002"});
  CHECK(jobs[1].hosts == std::vector<std::string>{"node7"});
}

TEST_CASE("a bad hostlist is quoted in the error up to 200 bytes") {
  std::string line = "1001 cn[";
  line.append(1'000'000, '1');
  line += "x]\n";
  std::istringstream in(line);
  try {
    parse_jobs(in, "jobs.txt");
    FAIL("no error");
  } catch (const JobsFileError& e) {
    const std::string what = e.what();
    CHECK(what.size() < 600);  // the hostlist and its bad part, 200 bytes of each
    CHECK_THAT(what, Catch::StartsWith("jobs.txt line 1: hostlist 'cn[111") &&
                         Catch::Contains("... (1000005 bytes)'"));
  }
}
