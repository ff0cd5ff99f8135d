// SPDX-License-Identifier: MIT
// The central store against a collector's record: rrdcached's LAST rounds to the file's step, a
// later update is another writer's, an earlier one (or none) a loss, one ahead of the clock named.
#include <catch2/catch.hpp>

#include "state/store_check.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;
using namespace ibpm::state;

TEST_CASE("The central store's last updates judged against the record") {
  ibpm::test::TempDir dir("store-check");
  const PortStore store(StoreOptions{(dir.path() / "state").string(), "127.0.0.1:1", {}});
  const Guid node = 0x0002c90300d00000;
  const std::vector<PortRef> ports{{node, 1}, {node, 2}, {node, 3}, {node, 4}, {node, 5}};
  const double now = 1700000400.0;
  // Every record at 1700000125.7: LAST says 1700000100 (a 60 s step) when the store agrees.
  const std::vector<double> recorded(ports.size(), 1700000125.7);
  const std::vector<std::optional<std::time_t>> last{
      1700000100,    // as recorded
      1700000160,    // a later sample: another collector's
      1700000040,    // an earlier one: the store lost a sample
      std::nullopt,  // no file: lost whole
      1700000460};   // ahead of the clock
  StoreLoss loss;
  const std::vector<StoreDifference> differences =
      judge_against_store(store, ports, recorded, last, now, loss);
  REQUIRE(differences.size() == 4);
  CHECK(differences[0].index == 1);
  CHECK(differences[0].updated_since);
  CHECK(differences[0].ahead_of_clock.empty());
  CHECK(differences[1].index == 2);
  CHECK_FALSE(differences[1].updated_since);
  CHECK(differences[2].index == 3);
  CHECK_FALSE(differences[2].last);
  CHECK(differences[3].index == 4);
  CHECK_THAT(differences[3].ahead_of_clock,
             Catch::Contains("port5.rrd: last update 60 s ahead of the clock"));
  CHECK(loss.ports == 2);
  CHECK(loss.missing == 1);
  CHECK(loss.longest == 60);
  CHECK_THAT(loss.describe(), Catch::StartsWith("the store lost samples it had taken for 2 ports "
                                                "(up to 60 s of history), 1 of them with the "
                                                "whole file"));
  // The store could not say about the last ports: they are not judged.
  StoreLoss none;
  CHECK(judge_against_store(store, ports, recorded, {1700000100}, now, none).empty());
  CHECK(none.ports == 0);
}
