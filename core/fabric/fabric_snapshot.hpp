// SPDX-License-Identifier: MIT
// A fabric model as bytes and back, every field kept (a text dump keeps only what ibnetdiscover
// prints: no uncabled ports, no enabled widths, descriptions without quotes). For a copy a run
// keeps for the next one, tagged with what it was made from.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "fabric/fabric.hpp"

namespace ibpm {

// The snapshot of `fabric` under `tag` (one line of text saying what it was made from).
std::string fabric_snapshot(const Fabric& fabric, std::string_view tag);

// The fabric of a snapshot made under the same tag; nullopt for another tag, another version
// of the format, or bytes that are not a whole snapshot (never a partial fabric).
std::optional<Fabric> fabric_from_snapshot(std::string_view bytes, std::string_view tag);

}  // namespace ibpm
