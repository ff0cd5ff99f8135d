// SPDX-License-Identifier: MIT

#include "html.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

#include "base/text.hpp"
#include "graphs/rrd_graph_call.hpp"

using namespace ibpm::web;

TEST_CASE("escape turns markup and quotes into entities, control characters into U+FFFD") {
  CHECK(escape("<script>alert('x')</script>") == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
  CHECK(escape("a & \"b\"") == "a &amp; &quot;b&quot;");
  CHECK(escape("\x1b[31mred\ttab") == "\xEF\xBF\xBD[31mred\ttab");
  CHECK(escape("spine01") == "spine01");
}

TEST_CASE("link escapes both its target and its text") {
  CHECK(ibpm::web::link("nodes/0x1.html", "<b>") == "<a href=\"nodes/0x1.html\">&lt;b&gt;</a>");
}

TEST_CASE("a table carries sort values for numeric cells and a note when empty") {
  Table table{"t", {"Name", "Rate"}, {}, "nothing here"};
  CHECK(render(table).find("nothing here") != std::string::npos);
  table.rows.push_back({text_cell("a<b"), number_cell(0.25, "25 %")});
  table.rows.push_back({state_cell("CRITICAL"), number_cell(std::nullopt, "-")});
  const std::string html = render(table);
  CHECK(html.find("<table class=\"sortable\" id=\"t\">") != std::string::npos);
  CHECK(html.find("<th>Name</th><th>Rate</th>") != std::string::npos);
  CHECK(html.find("<td>a&lt;b</td><td class=\"num\" data-value=\"0.25\">25 %</td>") !=
        std::string::npos);
  CHECK(html.find(
            "<td class=\"state critical\">CRITICAL</td><td class=\"num\" data-value=\"\">-</td>") !=
        std::string::npos);
  CHECK(html.find("nothing here") == std::string::npos);
}

TEST_CASE("invalid UTF-8 from a description never reaches the HTML or librrd's text") {
  // Issue 16: one such description made ibpm-web print 100 Pango warnings (cron mail).
  const std::string bad = "leaf\xff\xc3(01\xed\xa0\x80";
  const std::string shown = escape(bad);
  CHECK(shown == ibpm::base::valid_utf8(shown));
  CHECK(shown.find("leaf") == 0);
  namespace detail = ibpm::graphs::detail;
  for (const std::string& text : {detail::legend_text(bad), detail::graph_text(bad)}) {
    INFO(text);
    CHECK(text == ibpm::base::valid_utf8(text));
    CHECK(text.find('\xff') == std::string::npos);
  }
  ibpm::graphs::ProfileGraph graph;
  graph.output = "x.png";
  graph.title = "leaf01 \xff\x1b[31m <-> spine01";
  const auto head = detail::graph_head(graph, "%");
  const auto title = std::find(head.begin(), head.end(), "--title");
  REQUIRE(title + 1 != head.end());
  CHECK(title[1] == ibpm::base::valid_utf8(title[1]));
  CHECK(title[1].find('\x1b') == std::string::npos);
}
