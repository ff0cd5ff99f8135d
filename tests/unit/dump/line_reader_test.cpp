// SPDX-License-Identifier: MIT

#include "dump/line_reader.hpp"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using ibpm::dump::LineReader;

namespace {

struct Line {
  std::string text;
  std::size_t number;
  bool truncated;
};

std::vector<Line> read_all(const std::string& bytes) {
  std::istringstream in(bytes);
  LineReader reader(in);
  std::vector<Line> out;
  std::string_view line;
  while (reader.next(line))
    out.push_back({std::string(line), reader.line_number(), reader.truncated()});
  return out;
}

}  // namespace

TEST_CASE("line reader splits LF / CRLF and lone CR", "[dump][line_reader]") {
  auto lines = read_all("a\nb\r\nc\rd\n\ne");
  REQUIRE(lines.size() == 6);
  CHECK(lines[0].text == "a");
  CHECK(lines[1].text == "b");
  CHECK(lines[2].text == "c");
  CHECK(lines[3].text == "d");
  CHECK(lines[4].text.empty());
  CHECK(lines[5].text == "e");  // no final newline
  // Numbers count "\n" only: "c" and "d" share line 3, as in grep -n.
  CHECK(lines[0].number == 1);
  CHECK(lines[1].number == 2);
  CHECK(lines[2].number == 3);
  CHECK(lines[3].number == 3);
  CHECK(lines[4].number == 4);
  CHECK(lines[5].number == 5);
}

TEST_CASE("line reader handles the PuTTY CR CR LF sequence", "[dump][line_reader]") {
  auto lines = read_all("banner\r\n\r\r\n#\r\n\rprompt # ");
  REQUIRE(lines.size() == 6);
  CHECK(lines[1].text.empty());
  CHECK(lines[2].text.empty());
  CHECK(lines[3].text == "#");
  CHECK(lines[3].number == 3);
  CHECK(lines[4].text.empty());
  CHECK(lines[5].text == "prompt # ");
  CHECK(lines[5].number == 4);
}

TEST_CASE("line reader drops a BOM at the start only", "[dump][line_reader]") {
  auto lines = read_all("\xEF\xBB\xBFone\n\xEF\xBB\xBFtwo\n");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].text == "one");
  CHECK(lines[1].text == "\xEF\xBB\xBFtwo");
}

TEST_CASE("line reader on empty input and a lone terminator", "[dump][line_reader]") {
  CHECK(read_all("").empty());
  auto lines = read_all("\n");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].text.empty());
  auto cr = read_all("\r");
  REQUIRE(cr.size() == 1);
  CHECK(cr[0].text.empty());
}

TEST_CASE("line reader keeps lines up to the limit and cuts longer ones", "[dump][line_reader]") {
  const std::size_t max = LineReader::kMaxLine;
  SECTION("a line of exactly the limit, CRLF across the buffer end") {
    // Appended, not concatenated: g++ 12 warns (-Warray-bounds) on a long temporary + literal.
    std::string text(max, 'a');
    text += "\r\nnext\n";
    auto lines = read_all(text);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].text.size() == max);
    CHECK_FALSE(lines[0].truncated);
    CHECK(lines[1].text == "next");
    CHECK(lines[1].number == 2);
  }
  SECTION("a line one byte longer, terminator in the buffer") {
    std::string text(max + 1, 'b');
    text += "\nnext";
    auto lines = read_all(text);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].truncated);
    CHECK(lines[0].text.size() == max);
    CHECK(lines[1].text == "next");
    CHECK(lines[1].number == 2);
  }
  SECTION("a huge line without terminator in the buffer") {
    auto lines = read_all("first\r\n" + std::string(5 * max + 7, 'c') + "\r\nlast\n");
    REQUIRE(lines.size() == 3);
    CHECK(lines[1].truncated);
    CHECK(lines[1].text == std::string(max, 'c'));
    CHECK(lines[2].text == "last");
    CHECK(lines[2].number == 3);
  }
  SECTION("many lines crossing buffer refills keep their text and numbers") {
    std::string bytes;
    for (int i = 0; i < 20000; ++i) bytes += "line " + std::to_string(i) + (i % 3 ? "\r\n" : "\n");
    auto lines = read_all(bytes);
    REQUIRE(lines.size() == 20000);
    for (int i = 0; i < 20000; i += 997) {
      CHECK(lines[i].text == "line " + std::to_string(i));
      CHECK(lines[i].number == static_cast<std::size_t>(i + 1));
    }
  }
}
