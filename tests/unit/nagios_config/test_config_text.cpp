// SPDX-License-Identifier: MIT
// Names and values from the fabric are untrusted: nothing in them may end a line, start a
// comment, expand a macro or close a string.
#include <catch2/catch.hpp>

#include "config_text.hpp"

using namespace ibpm::nagios_config;

TEST_CASE("object names lose what Nagios forbids and what is not printable") {
  CHECK(object_name("leaf01") == "leaf01");
  CHECK(object_name("MF0;CCORE1-001:MQM8700/U1") == "MF0CCORE1-001:MQM8700/U1");
  CHECK(object_name("cn0001 HCA-1") == "cn0001_HCA-1");
  CHECK(object_name("  a \t b  ") == "a_b");
  for (char c : std::string("`~!$%^&*|'\"<>?,()=;#\\")) {
    INFO(c);
    CHECK(object_name(std::string("a") + c + "b") == "ab");
  }
  CHECK(object_name("a\nb\rc\x01"
                    "d\x7f"
                    "e\xc3\xa9") == "abcde");
  CHECK(object_name(";$!") == "");
}

TEST_CASE("Nagios values stay on one line, without macros or comments") {
  CHECK(nagios_value("leaf01") == "leaf01");
  CHECK(nagios_value("MF0;sw") == "MF0\\;sw");
  CHECK(nagios_value("a\nb\r\nc") == "a b  c");
  CHECK(nagios_value("$USER1$ x") == "USER1 x");
  CHECK(nagios_value("a\\;b") == "a\\;b");  // the backslash goes, the ';' is escaped once
  CHECK(nagios_value("  padded  ") == "padded");
}

TEST_CASE("Icinga 2 strings escape quotes, backslashes and macros") {
  CHECK(icinga_string("leaf01") == "\"leaf01\"");
  CHECK(icinga_string("a\"b") == "\"a\\\"b\"");
  CHECK(icinga_string("a\\b") == "\"a\\\\b\"");
  CHECK(icinga_string("$host.name$") == "\"$$host.name$$\"");
  CHECK(icinga_string("a\nb\tc\x01") == "\"a\\nb\\tc\"");
  // A description that tries to close the string and add an attribute stays one string.
  const std::string s = icinga_string("x\"\n  vars.evil = \"1");
  CHECK(s.find('\n') == std::string::npos);
  CHECK(s == "\"x\\\"\\n  vars.evil = \\\"1\"");
}
