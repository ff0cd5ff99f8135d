// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <cfloat>
#include <clocale>
#include <limits>
#include <string>

#include "base/csv.hpp"
#include "base/json.hpp"
#include "base/number.hpp"
#include "base/text.hpp"
#include "plugin/range.hpp"

using namespace ibpm::base;
using namespace ibpm::plugin;
using namespace std::string_literals;

namespace {
const std::string kFffd = "\xEF\xBF\xBD";
}

TEST_CASE("format_number: shortest round-trip / fixed notation", "[plugin][text]") {
  CHECK(format_number(3) == "3");
  CHECK(format_number(-3) == "-3");
  CHECK(format_number(0.25) == "0.25");
  CHECK(format_number(-1.5) == "-1.5");
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(0.1 + 0.2) == "0.30000000000000004");
  CHECK(format_number(1e6) == "1000000");
  CHECK(format_number(1e21) == "1000000000000000000000");
  CHECK(format_number(1e-7) == "0.0000001");
  CHECK(format_number(4294967296.5) == "4294967296.5");
  CHECK(format_number(0.0) == "0");
  CHECK(format_number(-0.0) == "0");
  const std::string max = format_number(DBL_MAX);
  CHECK(max.size() == 309);
  CHECK(max.find('e') == std::string::npos);
  CHECK(format_number(std::numeric_limits<double>::denorm_min()).find('e') == std::string::npos);
  CHECK(format_number(std::numeric_limits<double>::quiet_NaN()) == "nan");
  CHECK(format_number(-std::numeric_limits<double>::infinity()) == "-inf");
}

TEST_CASE("numbers ignore the C locale", "[plugin][text]") {
  const char* comma_locales[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "de_DE"};
  const std::string saved = std::setlocale(LC_ALL, nullptr);
  const char* used = nullptr;
  for (const char* name : comma_locales)
    if (std::setlocale(LC_ALL, name)) {
      used = name;
      break;
    }
  if (!used) WARN("no decimal-comma locale installed; only the C locale is exercised");
  CHECK(format_number(0.5) == "0.5");
  CHECK(parse_range("0.5:1.5") == Range{0.5, 1.5, false});
  CHECK_THROWS(parse_range("0,5"));
  std::setlocale(LC_ALL, saved.c_str());
}

TEST_CASE("valid_utf8 replaces malformed bytes with U+FFFD", "[plugin][text]") {
  CHECK(valid_utf8("plain ascii") == "plain ascii");
  CHECK(valid_utf8("gr\xC3\xBC\xC3\x9F \xE2\x82\xAC \xF0\x9F\x98\x80") ==
        "gr\xC3\xBC\xC3\x9F \xE2\x82\xAC \xF0\x9F\x98\x80");
  CHECK(valid_utf8("cut \xC3") == "cut " + kFffd);                         // truncated sequence
  CHECK(valid_utf8("\x80x") == kFffd + "x");                               // stray continuation
  CHECK(valid_utf8("\xC0\xAF") == kFffd + kFffd);                          // overlong '/'
  CHECK(valid_utf8("\xED\xA0\x80") == kFffd + kFffd + kFffd);              // surrogate
  CHECK(valid_utf8("\xF4\x90\x80\x80") == kFffd + kFffd + kFffd + kFffd);  // > U+10FFFF
  CHECK(valid_utf8("\xFF") == kFffd);
  CHECK(valid_utf8("a\0b"s) == "a\0b"s);
}

TEST_CASE("one_line keeps untrusted text on one output line", "[plugin][text]") {
  CHECK(one_line("sw01 | rack 3") == "sw01 / rack 3");
  CHECK(one_line("line1\nline2\r\nline3\tx") == "line1 line2  line3 x");
  CHECK(one_line("\x1B[31mred\x7F") == " [31mred ");
  CHECK(one_line("a\xC2\x9B"
                 "b") == "a b");  // C1 control CSI
  CHECK(one_line("nul\0byte"s) == "nul byte");
  CHECK(one_line("<script>alert('x')</script> \"q\"") == "<script>alert('x')</script> \"q\"");
  CHECK(one_line("caf\xC3\xA9 \xFF") == "caf\xC3\xA9 " + kFffd);
}

TEST_CASE("json_string escapes exactly what JSON requires", "[plugin][json]") {
  CHECK(json_string("") == "\"\"");
  CHECK(json_string("plain") == "\"plain\"");
  CHECK(json_string("q\"b\\s/") == "\"q\\\"b\\\\s/\"");
  CHECK(json_string("\n\r\t\b\f") == "\"\\n\\r\\t\\b\\f\"");
  CHECK(json_string("\x01\x1F\x7F"s) == "\"\\u0001\\u001f\\u007f\"");
  CHECK(json_string("a\0b"s) == "\"a\\u0000b\"");
  CHECK(json_string("<script>|</script>") == "\"<script>|</script>\"");
  CHECK(json_string("gr\xC3\xBC\xC3\x9F \xF0\x9F\x98\x80") ==
        "\"gr\xC3\xBC\xC3\x9F \xF0\x9F\x98\x80\"");
  CHECK(json_string("bad \xFF") == "\"bad " + kFffd + "\"");
}

TEST_CASE("json_number: null for what JSON cannot hold", "[plugin][json]") {
  CHECK(json_number(2.5) == "2.5");
  CHECK(json_number(-0.0) == "0");
  CHECK(json_number(1e6) == "1000000");
  CHECK(json_number(std::numeric_limits<double>::quiet_NaN()) == "null");
  CHECK(json_number(std::numeric_limits<double>::infinity()) == "null");
}

TEST_CASE("fixed decimals never show a negative zero") {
  CHECK(ibpm::base::format_fixed(-0.0001, 2) == "0.00");
  CHECK(ibpm::base::format_fixed(-0.0, 1) == "0.0");
  CHECK(ibpm::base::format_fixed(-0.006, 2) == "-0.01");
  CHECK(ibpm::base::format_fixed(-3, 0) == "-3");
}

TEST_CASE("csv_text: no control characters, no spreadsheet formulas, numbers untouched",
          "[plugin][text]") {
  // Issue 16: cells kept control characters and could start with = + - @.
  CHECK(csv_text("=HYPERLINK(\"http://x\")") == "\"'=HYPERLINK(\"\"http://x\"\")\"");
  CHECK(csv_text("+1+1") == "'+1+1");
  CHECK(csv_text("-2+3") == "'-2+3");
  CHECK(csv_text("@SUM(A1)") == "'@SUM(A1)");
  CHECK(csv_text("cn0001\x1b]0;pwn\x07 HCA-1") == "cn0001 ]0;pwn  HCA-1");
  CHECK(csv_text("a\r\nb\tc\x7f") == "a  b c ");
  CHECK(csv_text("x\xC2\x85y") == "x y");  // C1 NEL
  CHECK(csv_text("\xff") == "\xEF\xBF\xBD");
  CHECK(csv_text("leaf01[3]") == "leaf01[3]");
  CHECK(csv_text("a,b") == "\"a,b\"");
  // Numbers are not text cells: csv_field leaves them alone.
  CHECK(csv_field("-1.5") == "-1.5");
}
