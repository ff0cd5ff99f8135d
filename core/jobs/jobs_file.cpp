// SPDX-License-Identifier: MIT

#include "jobs/jobs_file.hpp"

#include <fstream>
#include <sstream>

#include "jobs/hostlist.hpp"

namespace ibpm::jobs {

std::vector<Job> parse_jobs(std::istream& in, const std::string& source) {
  std::vector<Job> jobs;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream fields(line);
    std::string id, hostlist, extra;
    fields >> id >> hostlist >> extra;
    if (id.empty() || id[0] == '#') continue;
    const std::string where = source + " line " + std::to_string(number) + ": ";
    if (!extra.empty()) throw JobsFileError(where + "more than JOBID HOSTLIST");
    Job job;
    job.id = id;
    try {
      if (hostlist != "(null)") job.hosts = expand_hostlist(hostlist);
    } catch (const HostlistError& e) {
      throw JobsFileError(where + e.what());
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

std::vector<Job> read_jobs_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw JobsFileError("cannot read jobs file " + path);
  return parse_jobs(in, path);
}

}  // namespace ibpm::jobs
