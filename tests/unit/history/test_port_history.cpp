// SPDX-License-Identifier: MIT
// HistoryReader on real RRD files written by state::PortStore: average and peak rates over a
// window, how much of the window the rows cover, and ports without history.
#include <catch2/catch.hpp>
#include <ctime>

#include "history/port_history.hpp"
#include "state/port_store.hpp"
#include "support/direct_store.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm;
using namespace ibpm::history;
using ibpm::state::test::direct_options;
using ibpm::test::TempDir;

namespace {

constexpr Guid kNode = 0x0002c90300a1b2c3;
constexpr std::time_t kStart = 1700000040;  // on a 60 s boundary: each row one whole interval

// Port 1 of kNode sampled every 60 s from kStart: xmit_data at 100 words/s for three minutes,
// then 400/s for one; rcv_pkts at 2/s throughout; the error counters never read.
state::PortStore store_history(const TempDir& dir) {
  state::PortStore store(direct_options(dir));
  state::PortRecord r;
  r.time = static_cast<double>(kStart);
  std::uint64_t data = 1000000, packets = 5000;
  const double data_rates[] = {100, 100, 100, 400};
  for (int i = 0;; ++i) {
    r.raw[state::source_index(counters::Counter::xmit_data)] = data;
    r.raw[state::source_index(counters::Counter::rcv_pkts)] = packets;
    store.write(kNode, 1, r);
    if (i == 4) break;
    data += static_cast<std::uint64_t>(data_rates[i] * 60);
    packets += 120;
    r.time += 60;
  }
  return store;
}

}  // namespace

TEST_CASE("history: the average and peak rates over the window, from the RRD archives") {
  TempDir dir("history-rates");
  const state::PortStore store = store_history(dir);
  const HistoryReader reader(store.state_dir());
  CHECK(reader.path(kNode, 1) == store.path(kNode, 1));

  const PortHistory h = reader.read(kNode, 1, Window{kStart, kStart + 240});
  CHECK(h.found);
  CHECK(h.step == 60);
  CHECK(h.covered == 240);
  REQUIRE(h.average_of(counters::Counter::xmit_data));
  CHECK(*h.average_of(counters::Counter::xmit_data) == Approx(175.0));  // (3 x 100 + 400) / 4
  REQUIRE(h.peak_of(counters::Counter::xmit_data));
  CHECK(*h.peak_of(counters::Counter::xmit_data) == Approx(400.0));
  REQUIRE(h.average_of(counters::Counter::rcv_pkts));
  CHECK(*h.average_of(counters::Counter::rcv_pkts) == Approx(2.0));
  CHECK(*h.peak_of(counters::Counter::rcv_pkts) == Approx(2.0));
  // Never read: no rate at all, rather than zero.
  CHECK_FALSE(h.average_of(counters::Counter::symbol_errors));
  CHECK_FALSE(h.peak_of(counters::Counter::symbol_errors));
}

TEST_CASE("history: only the rows inside the window count") {
  TempDir dir("history-part");
  const state::PortStore store = store_history(dir);
  const HistoryReader reader(store.state_dir());

  const PortHistory last_two = reader.read(kNode, 1, Window{kStart + 120, kStart + 240});
  CHECK(last_two.covered == 120);
  CHECK(*last_two.average_of(counters::Counter::xmit_data) == Approx(250.0));  // (100 + 400) / 2
  CHECK(*last_two.peak_of(counters::Counter::xmit_data) == Approx(400.0));

  // A window that ends on a step boundary reads no row after it (rrd_fetch alone would).
  const PortHistory first_two = reader.read(kNode, 1, Window{kStart, kStart + 120});
  CHECK(first_two.covered == 120);
  CHECK(*first_two.average_of(counters::Counter::xmit_data) == Approx(100.0));
  const PortHistory third = reader.read(kNode, 1, Window{kStart + 120, kStart + 180});
  CHECK(third.covered == 60);
  CHECK(*third.average_of(counters::Counter::xmit_data) == Approx(100.0));
  // A window that ends inside a row reads that row.
  const PortHistory into_fourth = reader.read(kNode, 1, Window{kStart + 120, kStart + 190});
  CHECK(into_fourth.covered == 120);
  CHECK(*into_fourth.average_of(counters::Counter::xmit_data) == Approx(250.0));
}

TEST_CASE("history: a window longer than the history is covered only where there are rows") {
  TempDir dir("history-coverage");
  const state::PortStore store = store_history(dir);
  const HistoryReader reader(store.state_dir());

  const PortHistory h = reader.read(kNode, 1, Window{kStart - 600, kStart + 600});
  CHECK(h.found);
  CHECK(h.covered == 240);
  CHECK(*h.average_of(counters::Counter::xmit_data) == Approx(175.0));

  const PortHistory later = reader.read(kNode, 1, Window{kStart + 600, kStart + 1200});
  CHECK_FALSE(later.found);
  CHECK(later.covered == 0);
  CHECK_FALSE(later.average_of(counters::Counter::xmit_data));
}

TEST_CASE("history: without peaks only averages are read") {
  TempDir dir("history-no-peaks");
  const state::PortStore store = store_history(dir);
  const HistoryReader reader(store.state_dir());
  const PortHistory h = reader.read(kNode, 1, Window{kStart, kStart + 240}, false);
  CHECK(*h.average_of(counters::Counter::xmit_data) == Approx(175.0));
  CHECK_FALSE(h.peak_of(counters::Counter::xmit_data));
}

TEST_CASE("history: a port never polled, an empty window and a foreign file") {
  TempDir dir("history-missing");
  const state::PortStore store = store_history(dir);
  const HistoryReader reader(store.state_dir());

  const PortHistory never = reader.read(kNode, 2, Window{kStart, kStart + 240});
  CHECK_FALSE(never.found);
  CHECK(never.covered == 0);
  CHECK(never.step == 0);
  CHECK_FALSE(never.average_of(counters::Counter::xmit_data));
  CHECK_FALSE(reader.read(0x1234, 1, Window{kStart, kStart + 240}).found);
  CHECK_FALSE(reader.read(kNode, 1, Window{kStart + 240, kStart + 240}).found);

  const std::string foreign = reader.path(kNode, 3);
  std::filesystem::create_directories(std::filesystem::path(foreign).parent_path());
  ibpm::test::write_text(foreign, "not an RRD file\n");
  CHECK_THROWS_AS(reader.read(kNode, 3, Window{kStart, kStart + 240}), state::StateError);
  CHECK_THROWS_WITH(reader.read(kNode, 3, Window{kStart, kStart + 240}),
                    Catch::StartsWith(foreign));
}
