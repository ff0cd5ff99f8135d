// SPDX-License-Identifier: MIT
// The body of an Icinga 2 process-check-result request: a hostile node description stays text
// inside its JSON string (quotes, backslashes, line feeds escaped), the perfdata an array of
// items apart from the output, and an answer's reason for a refusal read from its diagnosis.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "products/icinga2_request.hpp"

using namespace ibpm;
using namespace ibpm::products;

TEST_CASE("the output loses its perfdata, which goes into an array of items") {
  const PassiveResult result{"leaf01",
                             "ib-node",
                             plugin::State::critical,
                             "IB NODE CRITICAL - leaf01: 1 port | 'p3_symbol_errors'=5000c "
                             "'p3 rate'=2.5;1;2\n\\_[CRITICAL] leaf01[3] <-> spine01[1]\n",
                             {"'p3_symbol_errors'=5000c", "'p3 rate'=2.5;1;2"}};
  const std::string body = process_check_result_body(result, "collector01", 100.25, 101.5);
  const nlohmann::json json = nlohmann::json::parse(body);
  CHECK(json["type"] == "Service");
  CHECK(json["service"] == "leaf01!ib-node");
  CHECK(json["exit_status"] == 2);
  CHECK(json["plugin_output"] ==
        "IB NODE CRITICAL - leaf01: 1 port\n\\_[CRITICAL] leaf01[3] <-> spine01[1]");
  CHECK(json["performance_data"] ==
        nlohmann::json::array({"'p3_symbol_errors'=5000c", "'p3 rate'=2.5;1;2"}));
  CHECK(json["check_source"] == "collector01");
  CHECK(json["execution_start"] == 100.25);
  CHECK(json["execution_end"] == 101.5);
  CHECK(json["verbose"] == true);
  CHECK(body.find('\n') == std::string::npos);  // one line: the line feeds are escaped
}

TEST_CASE("a hostile description cannot add a field or a second result") {
  const std::string hostile = "evil\", \"exit_status\": 0, \"x\": \"\\\nIB NODE OK - forged | a=1";
  const PassiveResult result{"leaf01",
                             "ib-node",
                             plugin::State::critical,
                             "IB NODE CRITICAL - " + hostile + " | 'p1_x'=1\n",
                             {"'p1_x'=1"}};
  const std::string body = process_check_result_body(result, "c", 1, 2);
  CHECK(body.find("\\\"exit_status\\\": 0") != std::string::npos);  // quotes escaped
  CHECK(body.find("\\\\\\n") != std::string::npos);                 // backslash, line feed
  const nlohmann::json json = nlohmann::json::parse(body);
  CHECK(json.size() == 9);
  CHECK(json["exit_status"] == 2);
  // The text as it came (no " | " on its first line: nothing taken for perfdata).
  CHECK(json["plugin_output"] == "IB NODE CRITICAL - " + hostile + " | 'p1_x'=1");
  // Invalid UTF-8 in a description becomes U+FFFD, never an exception.
  const PassiveResult bytes{"leaf01", "ib-node", plugin::State::ok, "IB NODE OK - \xff\xfe", {}};
  CHECK(nlohmann::json::parse(process_check_result_body(bytes, "c", 1, 2))["plugin_output"] ==
        "IB NODE OK - \xef\xbf\xbd\xef\xbf\xbd");
}

TEST_CASE("output without perfdata keeps a '|' that is not the first line's") {
  CHECK(output_without_perfdata("A - b\n") == "A - b");
  CHECK(output_without_perfdata("A - b | x=1\nlong | text\n") == "A - b\nlong | text");
  CHECK(output_without_perfdata("A - b\nlong | text") == "A - b\nlong | text");
}

TEST_CASE("an answer's reason: the diagnosis first, else the status") {
  CHECK(api_answer_reason(R"({"diagnostic_information":"Error: Missing permission: )"
                          R"(actions/process-check-result\n","error":404,"status":"No objects )"
                          R"(found."})") == "Missing permission: actions/process-check-result");
  CHECK(api_answer_reason(R"({"diagnostic_information":"Error: Object does not exist.\n\n)"
                          R"(Stacktrace:\n 0# x","error":404,"status":"No objects found."})") ==
        "Object does not exist.");
  CHECK(api_answer_reason(R"({"error":401,"status":"Unauthorized."})") == "Unauthorized.");
  CHECK(api_answer_reason(R"({"results":[{"code":500,"status":"Bad"}]})") == "Bad");
  CHECK(api_answer_reason("<html>") == "");
  CHECK(api_answer_reason(std::string(R"({"status":")") + std::string(300, 'x') + "\"}").size() ==
        200);
}
