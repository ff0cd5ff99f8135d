// SPDX-License-Identifier: MIT
// Text from the fabric (node descriptions, node-name-map names) is untrusted: a switch can be
// given any NodeDescription. These turn it into object names and values that cannot break out
// of the line, the string or the object they are written into.
#pragma once

#include <string>
#include <string_view>

namespace ibpm::nagios_config {

// A name for a host or group object, valid in Nagios 4 and Icinga 2: whitespace becomes '_';
// removed are the characters Nagios forbids in object names by default (`~!$%^&*|'"<>?,()=),
// ';' (starts a Nagios comment), '#' and '\', and everything that is not printable ASCII.
// May be empty. (products::object_name: the sweep names its passive results' hosts so too.)
std::string object_name(std::string_view text);

// A value for a Nagios object directive: one line (control characters become spaces), no
// macros ('$' removed), no escape characters ('\' removed), ';' escaped so it does not start a
// comment, surrounding spaces trimmed. Non-ASCII bytes are removed. May be empty.
std::string nagios_value(std::string_view text);

// An Icinga 2 DSL string literal with its quotes: '"' and '\' escaped, control characters as
// \n, \t or removed, '$' doubled so macro resolution leaves it as it is, non-ASCII removed.
std::string icinga_string(std::string_view text);

}  // namespace ibpm::nagios_config
