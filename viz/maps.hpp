// SPDX-License-Identifier: MIT
// What viz offers the dashboard, in one header: the map's annotation model (what the pages say
// about links and nodes), the overview and drill-down maps written together, and the caption of
// the window the annotations cover.
#pragma once

#include "viz/history_annotations.hpp"
#include "viz/map_model.hpp"
#include "viz/map_set.hpp"
