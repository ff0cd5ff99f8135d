// SPDX-License-Identifier: MIT
// Turning a Check into the text a monitoring system reads.
#pragma once

#include <string>
#include <string_view>

#include "plugin/result.hpp"

namespace ibpm::plugin {

enum class OutputFormat { text, json };

// Monitoring Plugins text output:
//
//   PREFIX STATE - summary | perfdata perfdata ...
//   \_[STATE] subcheck output
//     \_[STATE] child output            (two more spaces per level)
//
// All perfdata (the check's, then the subchecks' depth-first) is on the first line; the
// guidelines' alternative of continuing it after a '|' in the long output is not used.
// The "[STATE]" tokens are what Icinga Web shows as state badges. Every string passes
// through base::one_line(), so untrusted text cannot add lines or a second '|'; perfdata labels
// through sanitize_label(). An empty prefix leaves the line starting with the state.
// Ends with a newline.
std::string render_text(const Check& check, std::string_view prefix);

// One JSON object on one line, ending with a newline:
//   {"prefix":"IB TOPOLOGY","state":"CRITICAL","exit_code":2,"summary":"...",
//    "perfdata":[P...],"subchecks":[S...]}
//   S = {"state":"OK","output":"...","perfdata":[P...],"subchecks":[S...]}
//   P = {"label":"...","value":1.5,"uom":"s","warn":"10:20","crit":null,"min":0,"max":null}
// States are effective states; strings are kept as given (only JSON-escaped, invalid
// UTF-8 replaced); warn/crit are range strings, absent or non-finite numbers are null.
std::string render_json(const Check& check, std::string_view prefix);

std::string render(const Check& check, std::string_view prefix, OutputFormat format);

}  // namespace ibpm::plugin
