// SPDX-License-Identifier: MIT
// A jobs file: one `JOBID HOSTLIST` line per running job, as `squeue -h -o "%A %N"` prints it.
// Blank lines and lines starting with '#' are skipped; a job without hosts (pending: squeue
// prints its %N empty) is kept with none.
#pragma once

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

// `source` names the input in errors ("jobs.txt line 3: ...").
std::vector<Job> parse_jobs(std::istream& in, const std::string& source);

// Throws JobsFileError when the file cannot be read or a line is malformed.
std::vector<Job> read_jobs_file(const std::string& path);

}  // namespace ibpm::jobs
