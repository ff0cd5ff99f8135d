// SPDX-License-Identifier: MIT
// The site's style sheet and scripts (web/assets/), embedded at build time.
#pragma once

#include <string_view>

namespace ibpm::web::assets {

extern const std::string_view style_css;
extern const std::string_view sort_js;
extern const std::string_view map_js;

}  // namespace ibpm::web::assets
