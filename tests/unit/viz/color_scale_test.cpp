// SPDX-License-Identifier: MIT

#include "viz/color_scale.hpp"

#include <catch2/catch.hpp>

using namespace ibpm::viz;

TEST_CASE("Utilization colours: one per bin - grey without data") {
  CHECK(utilization_color(std::nullopt) == kNoDataColor);
  CHECK(utilization_color(0.0) == utilization_scale().front().color);
  CHECK(utilization_color(0.3) == "#d4b300");
  CHECK(utilization_color(0.95) == utilization_scale().back().color);
  CHECK(utilization_color(1.5) == utilization_scale().back().color);  // bursts above capacity
  for (const ColorBin& bin : utilization_scale()) CHECK(bin.color != kNoDataColor);
}

TEST_CASE("Locality colours: purple for traffic that leaves - green for traffic that stays") {
  CHECK(locality_color(0.05) == "#af8dc3");
  CHECK(locality_color(0.9) == "#7fbf7b");
  CHECK(locality_color(std::nullopt) == "#ffffff");
}

TEST_CASE("Line width grows with capacity and stays within 1..10") {
  CHECK(capacity_penwidth(std::nullopt) == 1.0);
  CHECK(capacity_penwidth(8e9) == 1.0);  // 4x SDR
  CHECK(capacity_penwidth(100e9) < capacity_penwidth(200e9));
  CHECK(capacity_penwidth(200e9) < capacity_penwidth(800e9));
  CHECK(capacity_penwidth(1e18) == 10.0);
}

TEST_CASE("Health borders: warning and critical stand out from ok") {
  CHECK(health_style(Health::ok).penwidth < health_style(Health::warning).penwidth);
  CHECK(health_style(Health::warning).color != health_style(Health::critical).color);
  CHECK(health_style(Health::unknown).color == health_style(Health::ok).color);
}
