// SPDX-License-Identifier: MIT

#include "viz/graphviz_text.hpp"

#include <catch2/catch.hpp>

using namespace ibpm::viz;

TEST_CASE("HTML label text: markup and quotes become entities - backslashes are doubled") {
  CHECK(html_text("<script>alert(\"x\")</script>") ==
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  CHECK(html_text("a & b 'c'") == "a &amp; b &#39;c&#39;");
  CHECK(html_text("\\N") == "\\\\N");
  CHECK(html_text("&lt;") == "&amp;lt;");  // an entity in a description stays text
}

TEST_CASE("Control characters and broken UTF-8 never reach Graphviz") {
  CHECK(printable("a\nb\tc\x7f") == "a b c ");
  CHECK(printable("x\xc2\x85y") == "x y");  // C1 control NEL
  CHECK(printable("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(printable("bad\xff") == "bad\xef\xbf\xbd");  // U+FFFD
}

TEST_CASE("Tooltips: a backslash takes four - lines join with Graphviz's line break") {
  CHECK(tooltip_text("a\\Nb") == "a\\\\\\\\Nb");
  CHECK(tooltip({"one", "two\\"}) == "one\\ntwo\\\\\\\\");
  CHECK(tooltip_text("<b>\"") == "<b>\"");  // the SVG writer escapes these itself
}

TEST_CASE("URLs: backslashes - quotes - brackets - spaces and non-ASCII are percent-encoded") {
  CHECK(url_text("nodes/0x0002c9.html") == "nodes/0x0002c9.html");
  CHECK(url_text("https://x/a b\\N\"<>'") == "https://x/a%20b%5CN%22%3C%3E%27");
  CHECK(url_text("\xc3\xa9") == "%C3%A9");
}
