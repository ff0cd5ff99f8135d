// SPDX-License-Identifier: MIT

#include "locality/node_set_file.hpp"

#include <algorithm>
#include <istream>
#include <sstream>
#include <stdexcept>

#include "base/input_file.hpp"
#include "jobs/hostlist.hpp"
#include "jobs/jobs_file.hpp"
#include "locality/host_index.hpp"

namespace ibpm::locality {

namespace {

std::string trimmed(const std::string& text) {
  std::size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

}  // namespace

std::vector<NodeSet> load_node_set_file(const std::string& path, const Fabric& fabric,
                                        const DownSets& down, const NodeNameMap* names) {
  std::ifstream in = base::open_input_file(path);
  HostIndex index(fabric, names);
  std::vector<NodeSet> sets;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    auto fail = [&](const std::string& reason) -> std::runtime_error {
      return std::runtime_error(path + ":" + std::to_string(number) + ": " + reason);
    };
    line = trimmed(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    std::size_t colon = line.find(':');
    if (colon == std::string::npos) throw fail("expected 'NAME: HOSTLIST|GUID ...'");
    NodeSet set;
    set.name = trimmed(line.substr(0, colon));
    if (set.name.empty()) throw fail("the set has no name");
    std::istringstream words(line.substr(colon + 1));
    std::string word;
    while (words >> word) {
      std::vector<std::string> expanded;
      try {
        expanded = jobs::expand_hostlist(word);
      } catch (const std::invalid_argument& e) {
        throw fail(e.what());
      }
      for (const auto& host : expanded) {
        auto found = index.find(host);
        if (found.empty()) throw fail("no host " + host + " in the fabric");
        set.hosts.insert(set.hosts.end(), found.begin(), found.end());
      }
    }
    if (set.hosts.empty()) throw fail("the set " + set.name + " has no hosts");
    std::sort(set.hosts.begin(), set.hosts.end());
    set.hosts.erase(std::unique(set.hosts.begin(), set.hosts.end()), set.hosts.end());
    add_inner_switches(set, fabric, down);
    sets.push_back(std::move(set));
  }
  return sets;
}

std::vector<NodeSet> load_job_sets(const std::string& path, const Fabric& fabric,
                                   const DownSets& down, const NodeNameMap* names,
                                   std::vector<std::string>& warnings) {
  HostIndex index(fabric, names);
  std::vector<NodeSet> sets;
  for (const jobs::Job& job : jobs::read_jobs_file(path)) {
    NodeSet set;
    set.name = "job " + job.id;
    for (const std::string& host : job.hosts) {
      const auto found = index.find(host);
      set.hosts.insert(set.hosts.end(), found.begin(), found.end());
    }
    if (set.hosts.empty()) {
      warnings.push_back(path + ": job " + job.id + " has no host in the fabric: left out");
      continue;
    }
    std::sort(set.hosts.begin(), set.hosts.end());
    set.hosts.erase(std::unique(set.hosts.begin(), set.hosts.end()), set.hosts.end());
    add_inner_switches(set, fabric, down);
    sets.push_back(std::move(set));
  }
  return sets;
}

}  // namespace ibpm::locality
