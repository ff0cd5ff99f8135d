// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>

#include "topology/link_speed_check.hpp"

using namespace ibpm;

namespace {
WidthSet widths(std::initializer_list<LinkWidth> list) {
  WidthSet s;
  for (auto w : list) s.insert(w);
  return s;
}
SpeedSet speeds(std::initializer_list<LinkSpeed> list) {
  SpeedSet s;
  for (auto v : list) s.insert(v);
  return s;
}

struct End {
  LinkWidth width;
  LinkSpeed speed;
  WidthSet widths_enabled;
  SpeedSet speeds_enabled;
};

Fabric cable(End a, End b) {
  Fabric f;
  f.add_node(1, NodeType::sw, "leaf01", 36);
  f.add_node(2, NodeType::ca, "cn0001", 1);
  f.connect({1, 3}, {2, 1});
  auto set = [&](PortRef ref, const End& e) {
    Port& p = f.port(ref);
    p.width = e.width;
    p.speed = e.speed;
    p.widths_enabled = e.widths_enabled;
    p.speeds_enabled = e.speeds_enabled;
  };
  set({1, 3}, a);
  set({2, 1}, b);
  return f;
}
}  // namespace

TEST_CASE("a link at the best rate both ends enable is not degraded") {
  Fabric f = cable({LinkWidth::x4, LinkSpeed::hdr, widths({LinkWidth::x1, LinkWidth::x4}),
                    speeds({LinkSpeed::edr, LinkSpeed::hdr})},
                   {LinkWidth::x4, LinkSpeed::hdr, widths({LinkWidth::x1, LinkWidth::x4}),
                    speeds({LinkSpeed::hdr})});
  CHECK_FALSE(topology::check_link_rate(f, f.links()[0], std::nullopt));
}

TEST_CASE("a 4x link running 1x is degraded in width") {
  Fabric f = cable({LinkWidth::x1, LinkSpeed::hdr, widths({LinkWidth::x1, LinkWidth::x4}),
                    speeds({LinkSpeed::hdr})},
                   {LinkWidth::x1, LinkSpeed::hdr, widths({LinkWidth::x1, LinkWidth::x4}),
                    speeds({LinkSpeed::hdr})});
  topology::Degradation d = topology::check_link_rate(f, f.links()[0], std::nullopt);
  CHECK(d.width);
  CHECK_FALSE(d.speed);
  CHECK(d.describe() == "1x HDR, expected 4x HDR");
}

TEST_CASE("an HDR link running EDR is degraded in speed") {
  Fabric f = cable({LinkWidth::x4, LinkSpeed::edr, widths({LinkWidth::x4}),
                    speeds({LinkSpeed::edr, LinkSpeed::hdr})},
                   {LinkWidth::x4, LinkSpeed::edr, widths({LinkWidth::x4}),
                    speeds({LinkSpeed::edr, LinkSpeed::hdr})});
  topology::Degradation d = topology::check_link_rate(f, f.links()[0], std::nullopt);
  CHECK(d.speed);
  CHECK_FALSE(d.width);
}

TEST_CASE("an end that enables less sets the yardstick / not what the other supports") {
  // An EDR HCA on an HDR switch: EDR is the best both enable.
  Fabric f =
      cable({LinkWidth::x4, LinkSpeed::edr, widths({LinkWidth::x4}),
             speeds({LinkSpeed::edr, LinkSpeed::hdr})},
            {LinkWidth::x4, LinkSpeed::edr, widths({LinkWidth::x4}), speeds({LinkSpeed::edr})});
  CHECK_FALSE(topology::check_link_rate(f, f.links()[0], std::nullopt));
}

TEST_CASE("without enabled sets (text dumps) only the baseline is a yardstick") {
  Fabric f =
      cable({LinkWidth::x1, LinkSpeed::qdr, {}, {}}, {LinkWidth::x1, LinkSpeed::qdr, {}, {}});
  CHECK_FALSE(topology::check_link_rate(f, f.links()[0], std::nullopt));
  topology::Degradation d =
      topology::check_link_rate(f, f.links()[0], topology::LinkRate{LinkWidth::x4, LinkSpeed::qdr});
  CHECK(d.width);
  CHECK(d.describe() == "1x QDR, expected 4x QDR");
}

TEST_CASE("the active rate of a cable is the lower of its two ends") {
  Fabric f =
      cable({LinkWidth::x4, LinkSpeed::hdr, {}, {}}, {LinkWidth::x4, LinkSpeed::edr, {}, {}});
  topology::LinkRate r = topology::active_rate(f, f.links()[0]);
  CHECK(r.width == LinkWidth::x4);
  CHECK(r.speed == LinkSpeed::edr);
}
