// SPDX-License-Identifier: MIT
// mad_probe: the MAD queries named on the command line, in one MadEngine run, one line per reply.
// test_mad_live runs it as a client of ibsim (the MAD engine needs libumad2sim preloaded).
//
//   mad_probe [--window N] [--timeout MS] [--retries N] [--deadline MS] [--caps MASK]
//             [--ready-file PATH --go-file PATH --done-file PATH --resumed-file PATH]
//             [--again QUERY] QUERY...
//   mad_probe --sample [--caps MASK] [--caps2 MASK2] [--window N] ... LID:PORT...
//
// With --sample the ports are read by poll::sample_ports, the agents' capabilities given as
// known (CapabilityMask MASK and CapabilityMask2 MASK2 for every LID) and nothing else asked
// (no NodeInfo, no PortInfo, no ClassPortInfo): only the counter queries the capabilities call
// for go out, and the stats line counts them. One line per port:
//   sample 0 2:5 answered=1 extended=1 all_extended=1 SymbolErrorCounter=0 ...
//   QUERY   pc:LID:PORT          PortCounters (decoded with capability mask MASK, default 0x1200)
//           pcx:LID:PORT         PortCountersExtended
//           cpi:LID              PMA ClassPortInfo
//           reset:LID:PORT:MASK  PortCounters Set clearing the counters in MASK (a CounterMask)
//
// With --ready-file and --go-file it creates the first once attached to the simulator and waits
// for the second before the run (so a test can freeze ibsim in between); --done-file is created
// when the run is over (libumad2sim needs ibsim again to detach at exit). With --resumed-file it
// then waits for that file (the test creates it once ibsim runs again) and reads the late answers
// ibsim had queued until none comes for 300 ms: libumad2sim's exit handler takes the lock its
// receiving thread needs for a packet, then waits for that thread, so a packet arriving while the
// program exits can hang it for good. With --again QUERY a second run of that one query follows in
// the same engine once that file exists (no deadline), before the late answers are read: answers
// to the first run's tries then arrive during the second. Its reply prints as an "again" line.
//
// Output, in query order, then one stats line (the deadline counts from just before the run):
//   reply 0 pc:2:5 answered mad_status=0x0000 tries=1 port_select=5 SymbolErrorCounter=0 ...
//   reply 1 cpi:4 answered mad_status=0x0000 tries=1 capmask=4608
//   reply 2 pc:49136:1 timed_out mad_status=0x0000 tries=2
//   stats queries=3 sent=4 retries=1 ignored=0 elapsed_ms=412
// (with --again, the second run's reply comes before the stats line, which counts both runs:
//   again 0 pc:2:6 answered mad_status=0x0000 tries=1 port_select=6 SymbolErrorCounter=0 ...)
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "mad/mad_engine.hpp"
#include "mad/pma.hpp"
#include "poll/port_sampler.hpp"

using namespace ibpm;
using namespace ibpm::mad;

namespace {

// Waits up to 60 s for `path` to exist.
void wait_for_file(const std::string& path) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(path)) {
    if (std::chrono::steady_clock::now() > give_up) throw std::runtime_error("no " + path);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

// Once `resumed` exists, reads (and drops) whatever ibsim still sends until nothing comes for
// 300 ms, so that no packet arrives while libumad2sim detaches at exit.
void drain_late_answers(const UmadPort& umad, const std::string& resumed) {
  wait_for_file(resumed);
  std::vector<std::uint8_t> packet(umad_size() + 256);
  while (umad_poll(umad.fd(), 300) == 0) {
    int length = 256;
    if (umad_recv(umad.fd(), packet.data(), &length, 0) < 0) break;
  }
}

struct Parsed {
  std::string kind;
  MadQuery query;
};

Parsed parse_query(const std::string& text) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
  auto number = [&](std::size_t i) {
    if (i >= parts.size()) throw std::invalid_argument("query '" + text + "' is too short");
    return static_cast<unsigned>(std::stoul(parts[i], nullptr, 0));
  };
  const std::string& kind = parts.empty() ? text : parts[0];
  if (kind == "pc") return {kind, port_counters_query(number(1), number(2))};
  if (kind == "pcx") return {kind, port_counters_extended_query(number(1), number(2))};
  if (kind == "cpi") return {kind, class_port_info_query(number(1))};
  if (kind == "reset") return {kind, reset_port_counters_query(number(1), number(2), number(3))};
  throw std::invalid_argument("unknown query '" + text + "'");
}

std::string status_name(ReplyStatus status) {
  switch (status) {
    case ReplyStatus::answered:
      return "answered";
    case ReplyStatus::timed_out:
      return "timed_out";
    case ReplyStatus::cut:
      return "cut";
    case ReplyStatus::failed:
      return "failed";
  }
  return "?";
}

void print_values(const std::string& kind, const MadData& data, const PmaCapabilities& caps) {
  auto* raw = const_cast<std::uint8_t*>(data.data());
  if (kind == "cpi") {
    std::printf(" capmask=%u", decode_class_port_info(data).mask);
    return;
  }
  CounterValues values;
  if (kind == "pcx") {
    std::printf(" port_select=%u", mad_get_field(raw, 0, IB_PC_EXT_PORT_SELECT_F));
    decode_port_counters_extended(data, values);
  } else {
    std::printf(" port_select=%u", mad_get_field(raw, 0, IB_PC_PORT_SELECT_F));
    decode_port_counters(data, caps, values);
  }
  for (const counters::CounterSpec& s : counters::counter_specs())
    if (const auto& v = values[static_cast<std::size_t>(s.id)])
      std::printf(" %.*s=%llu", static_cast<int>(s.name.size()), s.name.data(),
                  static_cast<unsigned long long>(*v));
}

// --sample: the ports through poll::sample_ports with the capabilities known up front.
int run_sample(const std::vector<std::string>& texts, const std::string& caps_text,
               const std::string& caps2_text, std::size_t window, int timeout_ms, int retries) {
  const PmaCapabilities caps{static_cast<std::uint16_t>(std::stoul(caps_text, nullptr, 0)),
                             static_cast<std::uint32_t>(std::stoul(caps2_text, nullptr, 0))};
  std::vector<poll::PortTarget> targets;
  std::vector<poll::SampleHint> hints;
  poll::KnownCapabilities known;
  static const LinkState no_change{};  // the hints point at a PortInfo that outlives the sampling
  for (const std::string& text : texts) {
    const auto colon = text.find(':');
    if (colon == std::string::npos) throw std::invalid_argument("not LID:PORT: '" + text + "'");
    poll::PortTarget t;
    t.lid = static_cast<unsigned>(std::stoul(text.substr(0, colon), nullptr, 0));
    t.port = static_cast<PortNumber>(std::stoul(text.substr(colon + 1), nullptr, 0));
    t.type = NodeType::ca;  // no port 0 PortInfo: nothing but the counters is asked anyway
    t.name = text;
    targets.push_back(t);
    known[t.lid] = caps;
    poll::SampleHint hint;
    hint.live = &no_change;
    hint.ask_port_info = false;
    hint.verify_node = false;
    hints.push_back(hint);
  }
  UmadPort umad("", 0);
  MadEngine engine(umad);
  EngineOptions options;
  options.window = window;
  options.backoff.timeout = Milliseconds{timeout_ms};
  options.backoff.retries = retries;
  const std::vector<poll::PortReading> samples =
      poll::sample_ports(engine, targets, known, options, false, hints);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const poll::PortReading& s = samples[i];
    std::printf("sample %zu %s answered=%d extended=%d all_extended=%d", i, texts[i].c_str(),
                s.answered ? 1 : 0, s.extended ? 1 : 0, s.all_extended ? 1 : 0);
    for (const counters::CounterSpec& spec : counters::counter_specs())
      if (const auto& v = s.values[static_cast<std::size_t>(spec.id)])
        std::printf(" %.*s=%llu", static_cast<int>(spec.name.size()), spec.name.data(),
                    static_cast<unsigned long long>(*v));
    std::printf("\n");
  }
  const EngineStats& stats = engine.stats();
  std::printf("stats queries=%zu sent=%zu retries=%zu ignored=%zu elapsed_ms=0\n", samples.size(),
              stats.sent, stats.retries, stats.ignored);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Runs PMA queries through the MAD engine and prints the replies"};
  std::size_t window = 64;
  int timeout_ms = 1000, retries = 3, deadline_ms = 0;
  std::string caps_text = "0x1200";
  std::string caps2_text = "0";
  bool sample = false;
  std::string again;
  std::string ready_file, go_file, done_file, resumed_file;
  std::vector<std::string> texts;
  app.add_option("--window", window, "Queries in flight");
  app.add_option("--timeout", timeout_ms, "Per-try timeout in ms");
  app.add_option("--retries", retries, "Retries after the first try");
  app.add_option("--deadline", deadline_ms, "Deadline in ms from the start (0: none)");
  app.add_option("--caps", caps_text, "PMA capability mask used to decode PortCounters");
  app.add_option("--caps2", caps2_text, "PMA CapabilityMask2 (with --sample)");
  app.add_flag("--sample", sample, "Read LID:PORT... through poll::sample_ports");
  app.add_option("--ready-file", ready_file, "Created once the HCA port is open");
  app.add_option("--go-file", go_file, "Waited for (up to 60 s) before the run");
  app.add_option("--done-file", done_file, "Created when the run is over");
  app.add_option("--resumed-file", resumed_file,
                 "Waited for (up to 60 s) after the run, then late answers read until quiet");
  app.add_option("--again", again,
                 "Once --resumed-file exists, a second run of this query in the same engine");
  app.add_option("queries", texts, "pc:LID:PORT pcx:LID:PORT cpi:LID reset:LID:PORT:MASK")
      ->required();
  CLI11_PARSE(app, argc, argv);

  try {
    if (sample) return run_sample(texts, caps_text, caps2_text, window, timeout_ms, retries);
    std::vector<Parsed> parsed;
    for (const std::string& text : texts) parsed.push_back(parse_query(text));
    std::vector<MadQuery> queries;
    for (const Parsed& p : parsed) queries.push_back(p.query);
    const PmaCapabilities caps{static_cast<std::uint16_t>(std::stoul(caps_text, nullptr, 0))};

    UmadPort umad("", 0);
    MadEngine engine(umad);
    if (!ready_file.empty()) std::ofstream(ready_file) << "ready\n";
    if (!go_file.empty()) wait_for_file(go_file);
    EngineOptions options;
    options.window = window;
    options.backoff.timeout = Milliseconds{timeout_ms};
    options.backoff.retries = retries;
    const auto start = std::chrono::steady_clock::now();
    if (deadline_ms > 0) options.deadline = start + Milliseconds{deadline_ms};
    const std::vector<MadReply> replies = engine.run(queries, options);
    const auto elapsed =
        std::chrono::duration_cast<Milliseconds>(std::chrono::steady_clock::now() - start);
    if (!done_file.empty()) std::ofstream(done_file) << "done\n";
    std::vector<MadReply> second;
    const Parsed again_query = again.empty() ? Parsed{} : parse_query(again);
    if (!again.empty() && !resumed_file.empty()) {
      wait_for_file(resumed_file);
      options.deadline.reset();
      second = engine.run({again_query.query}, options);
    }
    if (!resumed_file.empty()) drain_late_answers(umad, resumed_file);

    auto print = [&](const char* word, std::size_t i, const std::string& text,
                     const std::string& kind, const MadReply& r) {
      std::printf("%s %zu %s %s mad_status=0x%04x tries=%d", word, i, text.c_str(),
                  status_name(r.status).c_str(), r.mad_status, r.tries);
      if (r.ok()) print_values(kind, r.data, caps);
      std::printf("\n");
    };
    for (std::size_t i = 0; i < replies.size(); ++i)
      print("reply", i, texts[i], parsed[i].kind, replies[i]);
    if (!second.empty()) print("again", 0, again, again_query.kind, second[0]);
    const EngineStats& stats = engine.stats();
    std::printf("stats queries=%zu sent=%zu retries=%zu ignored=%zu elapsed_ms=%lld\n",
                replies.size(), stats.sent, stats.retries, stats.ignored,
                static_cast<long long>(elapsed.count()));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mad_probe: %s\n", e.what());
    return 2;
  }
}
