// SPDX-License-Identifier: MIT
// A run's samples go into its sample record in place of the previous ones (one sample a port is
// held, shared with the results). save_record must then leave the record as the ports' files
// are: a sample not written gives way to the record file's previous one, and the results keep
// showing what the run read.
#include <catch2/catch.hpp>

#include "support/port_results.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;
using namespace ibpm::test;

namespace {

constexpr Guid kNode = 0x0002c90300001234;

state::PortRecord sample_at(double time, std::uint64_t symbol_errors) {
  state::PortRecord sample;
  sample.time = time;
  sample.raw[at(counters::Counter::symbol_errors)] = symbol_errors;
  return sample;
}

// The record a previous run saved: ports 1 and 2 at t=100, port 2 reported CRITICAL.
void save_previous_run(const std::string& path) {
  state::SampleRecord record;
  record.runs = 7;
  record.put(kNode, 1, state::PortMemory{}).sample = sample_at(100, 5);
  state::PortMemory& two = record.put(kNode, 2, state::PortMemory{});
  two.sample = sample_at(100, 9);
  two.reported = 2;
  record.save(path);
}

// This run's record as poll_ports leaves it: loaded, with the answered ports' samples (t=110)
// in it and their results sharing them.
struct Run {
  poll::PendingRecord pending;
  std::vector<poll::PortResult> results;
};

Run run_with_samples(const std::string& path, std::initializer_list<PortNumber> answered,
                     std::initializer_list<PortNumber> silent) {
  Run run;
  std::string warning;
  run.pending.path = path;
  run.pending.record =
      std::make_shared<state::SampleRecord>(state::SampleRecord::load(path, warning));
  REQUIRE(warning.empty());
  for (PortNumber port : answered) {
    poll::PortResult r = quiet_port(port);
    state::PortMemory* memory = run.pending.record->find(kNode, port);
    if (!memory) memory = &run.pending.record->put(kNode, port, state::PortMemory{});
    memory->sample = sample_at(110, 50 + port);
    r.record = std::shared_ptr<const state::PortRecord>(run.pending.record, &memory->sample);
    run.results.push_back(std::move(r));
  }
  for (PortNumber port : silent) run.results.push_back(unanswered_port(port));
  return run;
}

state::SampleRecord saved(const std::string& path) {
  std::string warning;
  state::SampleRecord record = state::SampleRecord::load(path, warning);
  REQUIRE(warning.empty());
  return record;
}

}  // namespace

TEST_CASE("A written sample goes on in the record, a silent port keeps its last one") {
  TempDir dir("save-record");
  const std::string path = dir / "run.rec";
  save_previous_run(path);
  Run run = run_with_samples(path, {1}, {2});
  run.results[0].reported = 0;
  run.results[1].reported = 3;

  REQUIRE_FALSE(poll::save_record(run.pending, run.results));
  const state::SampleRecord next = saved(path);
  CHECK(next.runs == 8);
  REQUIRE(next.find(kNode, 1));
  CHECK(next.find(kNode, 1)->sample == sample_at(110, 51));
  CHECK(next.find(kNode, 1)->reported == std::optional<std::uint8_t>(0));
  REQUIRE(next.find(kNode, 2));
  CHECK(next.find(kNode, 2)->sample == sample_at(100, 9));
  CHECK(next.find(kNode, 2)->reported == std::optional<std::uint8_t>(3));
  // The results outlive the run's record object and still show their samples.
  CHECK_FALSE(run.pending.record);
  CHECK(*run.results[0].record == sample_at(110, 51));
}

TEST_CASE("A sample whose write failed gives way to the record's previous one") {
  TempDir dir("save-record-failed");
  const std::string path = dir / "run.rec";
  save_previous_run(path);
  // Port 1 was in the record; port 3 is new (its previous sample came from its file).
  Run run = run_with_samples(path, {1, 3}, {});
  for (poll::PortResult& r : run.results) {
    r.state_error = "rrdcached: update refused";
    r.reported = 3;
  }

  REQUIRE_FALSE(poll::save_record(run.pending, run.results));
  const state::SampleRecord next = saved(path);
  REQUIRE(next.find(kNode, 1));
  CHECK(next.find(kNode, 1)->sample == sample_at(100, 5));  // as its file still has it
  CHECK(next.find(kNode, 1)->reported == std::optional<std::uint8_t>(3));
  CHECK_FALSE(next.find(kNode, 3));  // the next run reads its file
  CHECK_FALSE(next.find(kNode, 2));  // not among this run's ports
  // What the run read stays in the results, for the report.
  CHECK(*run.results[0].record == sample_at(110, 51));
  CHECK(*run.results[1].record == sample_at(110, 53));
}

TEST_CASE("After a reset the record goes on from the sample after it, the result shows the read") {
  TempDir dir("save-record-reset");
  const std::string path = dir / "run.rec";
  save_previous_run(path);
  Run run = run_with_samples(path, {1}, {});
  state::PortRecord cleared = sample_at(110.5, 0);
  cleared.last_reset = 110.5;
  run.results[0].after_reset = std::make_shared<const state::PortRecord>(cleared);

  REQUIRE_FALSE(poll::save_record(run.pending, run.results));
  CHECK(saved(path).find(kNode, 1)->sample == cleared);
  CHECK(*run.results[0].record == sample_at(110, 51));
}
