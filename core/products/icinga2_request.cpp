// SPDX-License-Identifier: MIT

#include "products/icinga2_request.hpp"

#include <nlohmann/json.hpp>

#include "base/text.hpp"

namespace ibpm::products {

std::string output_without_perfdata(const std::string& output) {
  std::string text = output;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  const std::size_t line_end = std::min(text.find('\n'), text.size());
  const std::size_t bar = text.find(" | ");
  if (bar == std::string::npos || bar > line_end) return text;
  return text.substr(0, bar) + text.substr(line_end);
}

std::string process_check_result_body(const PassiveResult& result, const std::string& check_source,
                                      double start, double finish) {
  nlohmann::json body = {
      {"type", "Service"},
      {"service", result.host + "!" + result.service},
      {"exit_status", plugin::exit_code(result.state)},
      {"plugin_output", output_without_perfdata(result.output)},
      {"performance_data", result.perfdata},
      {"check_source", check_source},
      {"execution_start", start},
      {"execution_end", finish},
      // A refusal then says why ("Missing permission: ...", "Object does not exist."): Icinga 2
      // answers 404 "No objects found." to both.
      {"verbose", true},
  };
  // Invalid UTF-8 (a description is bytes) becomes U+FFFD rather than an exception.
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string api_answer_reason(const std::string& body) {
  const nlohmann::json answer = nlohmann::json::parse(body, nullptr, false);
  if (!answer.is_object()) return {};
  const auto text = [&](const nlohmann::json& object, const char* key) {
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  // The diagnosis's first line is the precise reason; the status the general one.
  std::string reason = text(answer, "diagnostic_information");
  reason = reason.substr(0, reason.find('\n'));
  if (reason.rfind("Error: ", 0) == 0) reason.erase(0, 7);
  if (reason.empty()) reason = text(answer, "status");
  if (const auto results = answer.find("results"); reason.empty() && results != answer.end() &&
                                                   results->is_array() && !results->empty() &&
                                                   (*results)[0].is_object())
    reason = text((*results)[0], "status");
  reason = base::one_line(reason);
  if (reason.size() > 200) reason = reason.substr(0, 197) + "...";
  return reason;
}

}  // namespace ibpm::products
