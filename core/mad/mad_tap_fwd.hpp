// SPDX-License-Identifier: MIT
// MadTap (mad_link.hpp) declared only, for the headers that pass a pointer to one along (the
// topology's discovery options) without pulling in the MAD engine.
#pragma once

namespace ibpm::mad {

class MadTap;

}  // namespace ibpm::mad
