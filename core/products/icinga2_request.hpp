// SPDX-License-Identifier: MIT
// One passive result as Icinga 2's REST API takes it (POST /v1/actions/process-check-result):
//
//   {"type":"Service","service":"leaf01!ib-node","exit_status":2,
//    "plugin_output":"IB NODE CRITICAL - leaf01: ...\n\_[CRITICAL] ...",
//    "performance_data":["'p3_symbol_errors'=5000c", ...],
//    "check_source":"collector01","execution_start":1714564800.25,"execution_end":1714564801.5,
//    "verbose":true}
//
// The JSON is built by a JSON library, so a hostile node description (quotes, backslashes, line
// feeds) stays text inside its string and cannot add a field or a second result.
#pragma once

#include <string>

#include "products/nagios_spool.hpp"

namespace ibpm::products {

// The output without its perfdata: the first line up to " | ", then the long output as it is.
std::string output_without_perfdata(const std::string& output);

// The request's body.
std::string process_check_result_body(const PassiveResult& result, const std::string& check_source,
                                      double start, double finish);

// An answer's reason for a refusal: the first line of its "diagnostic_information" (the request
// is verbose), else its "status" (or the first result's); one line, at most 200 characters; empty
// when the body is not such JSON.
std::string api_answer_reason(const std::string& body);

}  // namespace ibpm::products
