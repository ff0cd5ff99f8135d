// CSV fields as RFC 4180 wants them, for every command that writes CSV.
#pragma once

#include <string>
#include <string_view>

namespace ibpm::plugin {

// A field with a comma, quote or line break goes in quotes, its quotes doubled.
std::string csv_field(std::string_view text);

}  // namespace ibpm::plugin
