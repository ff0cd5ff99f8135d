// SPDX-License-Identifier: MIT
// Performance data: 'label'=value[UOM];[warn];[crit];[min];[max]
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "plugin/range.hpp"

namespace ibpm::plugin {

struct Perfdata {
  std::string label;
  double value = 0;
  std::string uom;  // see is_standard_uom()
  std::optional<Range> warn;
  std::optional<Range> crit;
  std::optional<double> min;
  std::optional<double> max;
};

// The guidelines' units of measurement: "" (a number), "s", "ms", "us", "%", "B", "KB",
// "MB", "TB", "c" (a continuous counter). Anything else (e.g. "/s", "GB", "pkts") is
// emitted as given, but graphers may reject or ignore it. For rates, prefer the raw
// counter with "c" and let the grapher derive the rate, or put the unit into the label
// ("xmit_bytes_per_s") with uom "".
bool is_standard_uom(std::string_view uom);

// The label as it is written: valid UTF-8, with ''' and '=' (the format's delimiters),
// '|' (ends the perfdata section) and control characters replaced by '_'; an empty
// label becomes "_". Spaces and other characters are kept, the label is then quoted.
// Graphers map labels further to their own file and data-source names (pnp4nagios and
// RRD replace most punctuation); keep labels to [A-Za-z0-9_.-] where the name matters.
std::string sanitize_label(std::string_view label);

// One item. The label is quoted when the sanitised label contains anything outside
// [A-Za-z0-9_.-]. Numbers use base::format_number (locale-independent, no exponent); a value
// that is NaN or infinite is written "U" (undetermined) without a unit. The UOM loses
// characters that would break the syntax (digits, '.', '+', '-', ';', '=', quotes, '|',
// whitespace, controls). Trailing empty fields are dropped: "'a b'=3;;5" not "...;5;;".
// Infinite min/max are left empty.
std::string format_perfdata(const Perfdata& perfdata);

// Items separated by single spaces.
std::string format_perfdata(std::span<const Perfdata> perfdata);

}  // namespace ibpm::plugin
