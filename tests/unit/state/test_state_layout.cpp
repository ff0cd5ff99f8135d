// SPDX-License-Identifier: MIT
// The state directory's map: every path the checks, sweep, analyzers and tools use, joined with
// one '/' whether or not the directory ends in one.
#include <catch2/catch.hpp>

#include "layout/state_layout.hpp"

using ibpm::layout::StateLayout;

TEST_CASE("StateLayout names every file and folder of the state directory") {
  const StateLayout state("/var/lib/ibpm");
  CHECK(state.topology() == "/var/lib/ibpm/topology.ibnetdiscover");
  CHECK(state.slices_dir() == "/var/lib/ibpm/targets");
  CHECK(state.slice("leaf01") == "/var/lib/ibpm/targets/leaf01.ibnetdiscover");
  CHECK(state.samples_dir() == "/var/lib/ibpm/samples");
  CHECK(state.sample_record("fabric") == "/var/lib/ibpm/samples/fabric.rec");
  CHECK(state.node_locks() == "/var/lib/ibpm/node.locks");
  CHECK(state.sweep_dir() == "/var/lib/ibpm/sweep");
  CHECK(state.sweep_summary("shard-1-of-2") == "/var/lib/ibpm/sweep/shard-1-of-2.json");
  CHECK(state.routes() == "/var/lib/ibpm/routes.lft");
  CHECK(state.sm_dir() == "/var/lib/ibpm/sm");
  CHECK(state.sm_state("mlx5_0", 1) == "/var/lib/ibpm/sm/mlx5_0-1.state");
  CHECK(state.baseline() == "/var/lib/ibpm/baseline.cache");
  CHECK(state.port_history(0x2c903004f3a30, 7) == "/var/lib/ibpm/0x0002c903004f3a30/port7.rrd");
  CHECK(StateLayout::relative_port_history(0x2c903004f3a30, 7) == "0x0002c903004f3a30/port7.rrd");
}

TEST_CASE("StateLayout joins with one slash, and names a bare file for no directory") {
  CHECK(StateLayout("state/").routes() == "state/routes.lft");
  CHECK(StateLayout("state").routes() == "state/routes.lft");
  CHECK(StateLayout("").routes() == "routes.lft");
  CHECK(StateLayout("/").node_locks() == "/node.locks");
}

TEST_CASE("StateLayout names a port's file at the edges of GUIDs and port numbers") {
  CHECK(StateLayout::relative_port_history(0, 0) == "0x0000000000000000/port0.rrd");
  CHECK(StateLayout::relative_port_history(0xffffffffffffffffULL, 255) ==
        "0xffffffffffffffff/port255.rrd");
  CHECK(StateLayout("state/").port_history(0xabc, 36) == "state/0x0000000000000abc/port36.rrd");
  CHECK(StateLayout("").port_history(1, 1) == "0x0000000000000001/port1.rrd");
  CHECK(StateLayout("/").port_history(1, 1) == "/0x0000000000000001/port1.rrd");
}
