// SPDX-License-Identifier: MIT

#include "jobs/jobs_file.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "base/input_file.hpp"
#include "jobs/hostlist.hpp"

namespace ibpm::jobs {

std::vector<Job> parse_jobs(std::istream& in, const std::string& source,
                            const JobsFileLimits& limits) {
  std::vector<Job> jobs;
  std::size_t hosts = 0;  // in the file so far, kept or not
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
      if (hostlist != "(null)")
        for_each_host(hostlist, std::min(kMaxHostlistHosts, limits.max_hosts - hosts),
                      [&](const std::string& host) {
                        ++hosts;
                        if (!limits.keep || limits.keep(host)) job.hosts.push_back(host);
                      });
    } catch (const TooManyHosts& e) {
      if (hosts + kMaxHostlistHosts <= limits.max_hosts) throw JobsFileError(where + e.what());
      throw JobsFileError(where + "more than " + std::to_string(limits.max_hosts) +
                          " hosts in the file");
    } catch (const HostlistError& e) {
      throw JobsFileError(where + e.what());
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

std::vector<Job> read_jobs_file(const std::string& path, const JobsFileLimits& limits) {
  std::ifstream in;
  try {
    in = base::open_input_file(path);
  } catch (const std::runtime_error& e) {
    throw JobsFileError(std::string("jobs file ") + e.what());
  }
  return parse_jobs(in, path, limits);
}

}  // namespace ibpm::jobs
