// SPDX-License-Identifier: MIT

#include "mad_live_support.hpp"

#include <signal.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "counters/counter.hpp"

namespace ibpm::test {

namespace {

void read_pairs(std::istringstream& in, std::map<std::string, std::uint64_t>& into) {
  for (std::string word; in >> word;) {
    auto eq = word.find('=');
    if (eq != std::string::npos)
      into[word.substr(0, eq)] = std::stoull(word.substr(eq + 1), nullptr, 0);
  }
}

void check(const ProbeRun& run, const std::vector<std::string>& queries) {
  INFO("mad_probe output:\n" << run.out << run.errors);
  REQUIRE(run.exit_code == 0);
  REQUIRE(run.replies.size() == queries.size());
  for (std::size_t i = 0; i < queries.size(); ++i) REQUIRE(run.replies[i].query == queries[i]);
  REQUIRE(run.stats.count("elapsed_ms"));
}

}  // namespace

std::uint64_t ProbeReply::at(const std::string& key) const {
  auto it = values.find(key);
  if (it == values.end()) {
    FAIL("the reply to " << query << " (" << status << ") has no " << key);
    return 0;
  }
  return it->second;
}

Discovery LiveTree::discover() { return ibpm::test::discover(fabric); }

unsigned LiveTree::lid(const std::string& node) const {
  auto it = discovered.lids.find(node);
  REQUIRE(it != discovered.lids.end());
  REQUIRE(it->second > 0);
  return static_cast<unsigned>(it->second);
}

std::vector<SwitchPort> LiveTree::switch_ports() const {
  std::vector<SwitchPort> out;
  for (std::size_t n = 0; n < tree.topology.nodes().size(); ++n) {
    const sim::NetNode& node = tree.topology.node(n);
    if (node.type != NodeType::sw) continue;
    for (int p = 1; p <= node.port_count; ++p)
      if (tree.topology.link_at({n, p})) out.push_back({node.name, p, lid(node.name)});
  }
  return out;
}

void LiveTree::set_counter(const std::string& node, int port, const std::string& field,
                           std::uint64_t value) {
  console("PerformanceSet \"" + node + "\"[" + std::to_string(port) + "] " + field + "=" +
          std::to_string(value));
}

// No Catch assertions here: probe_frozen runs it on a thread.
ProbeRun LiveTree::run_probe(const std::vector<std::string>& options,
                             const std::vector<std::string>& queries) {
  std::vector<std::string> argv{IBPM_MAD_PROBE};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), queries.begin(), queries.end());
  ProbeRun run;
  run.exit_code = fabric.run_client(argv, &run.out, &run.errors);
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::string word, index;
    in >> word;
    if (word == "stats") {
      read_pairs(in, run.stats);
    } else if (word == "reply" || word == "again") {
      ProbeReply reply;
      in >> index >> reply.query >> reply.status;
      read_pairs(in, reply.values);
      reply.tries = static_cast<int>(reply.values["tries"]);
      (word == "reply" ? run.replies : run.again).push_back(reply);
    } else if (word == "sample") {  // mad_probe --sample: answered=... extended=... counters
      ProbeReply reply;
      in >> index >> reply.query;
      reply.status = "sample";
      read_pairs(in, reply.values);
      run.replies.push_back(reply);
    }
  }
  return run;
}

ProbeRun LiveTree::probe(const std::vector<std::string>& options,
                         const std::vector<std::string>& queries) {
  ProbeRun run = run_probe(options, queries);
  check(run, queries);
  return run;
}

ProbeRun LiveTree::probe_frozen(std::vector<std::string> options,
                                const std::vector<std::string>& queries,
                                std::chrono::milliseconds frozen) {
  // mad_probe attaches, says "ready", waits for "go", runs, says "done", then waits for
  // "resumed" and reads what ibsim still sends before it exits (it needs ibsim again to detach,
  // and no packet may arrive while it does).
  auto file = [&](const char* name) {
    auto path = fabric.work_dir() / name;
    std::filesystem::remove(path);
    return path;
  };
  const auto ready = file("probe.ready"), go = file("probe.go"), done = file("probe.done"),
             resumed = file("probe.resumed");
  options.insert(options.end(), {"--ready-file", ready.string(), "--go-file", go.string(),
                                 "--done-file", done.string(), "--resumed-file", resumed.string()});
  ProbeRun run;
  std::exception_ptr failure;
  std::atomic<bool> finished{false};
  std::thread client([&] {
    try {
      run = run_probe(options, queries);
    } catch (...) {
      failure = std::current_exception();
    }
    finished = true;
  });
  struct Resume {  // ibsim runs again whatever happens
    pid_t pid;
    ~Resume() { ::kill(pid, SIGCONT); }
  } resume{fabric.ibsim_pid()};
  auto wait_for = [&](const std::filesystem::path& path) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!std::filesystem::exists(path) && !finished &&
           std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return std::filesystem::exists(path);
  };

  const bool attached = wait_for(ready);
  if (attached) ::kill(fabric.ibsim_pid(), SIGSTOP);
  std::ofstream(go) << "go\n";
  if (frozen.count() > 0)
    std::this_thread::sleep_for(frozen);
  else
    wait_for(done);
  ::kill(fabric.ibsim_pid(), SIGCONT);
  // The probe reads the answers ibsim had queued before it exits (see mad_probe.cpp).
  std::ofstream(resumed) << "resumed\n";
  client.join();
  if (failure) std::rethrow_exception(failure);
  REQUIRE(attached);
  check(run, queries);
  return run;
}

std::vector<std::string> pc_queries(const std::vector<SwitchPort>& ports) {
  std::vector<std::string> out;
  for (const SwitchPort& p : ports) out.push_back(p.pc());
  return out;
}

std::vector<std::string> error_counter_names() {
  std::vector<std::string> out;
  for (const counters::CounterSpec& s : counters::counter_specs())
    if (s.error) out.emplace_back(s.name);
  return out;
}

}  // namespace ibpm::test
