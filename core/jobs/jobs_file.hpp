// SPDX-License-Identifier: MIT
// A jobs file: one `JOBID HOSTLIST` line per running job, as `squeue -h -o "%A %N"` prints it.
// Blank lines and lines starting with '#' are skipped; a job without hosts (pending: squeue
// prints its %N empty) is kept with none.
#pragma once

#include <cstddef>
#include <functional>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ibpm::jobs {

struct Job {
  std::string id;
  std::vector<std::string> hosts;
};

class JobsFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Hosts beyond this many in one file, counted as the lines expand (before `keep` drops any), are
// refused: a fabric of 50,000 hosts each shared by 80 jobs. A few lines of "node[1-999999]"
// would otherwise cost gigabytes and seconds.
constexpr std::size_t kMaxJobsFileHosts = 4'000'000;

struct JobsFileLimits {
  std::size_t max_hosts = kMaxJobsFileHosts;
  // Which hosts to keep (those of the fabric); empty: all. Others are dropped as they expand.
  std::function<bool(const std::string&)> keep;
};

// `source` names the input in errors ("jobs.txt line 3: ...").
std::vector<Job> parse_jobs(std::istream& in, const std::string& source,
                            const JobsFileLimits& limits = {});

// Throws JobsFileError when the file cannot be read (or is not a regular file) or a line is
// malformed.
std::vector<Job> read_jobs_file(const std::string& path, const JobsFileLimits& limits = {});

}  // namespace ibpm::jobs
