// SPDX-License-Identifier: MIT
// The topology side of ibpm-anonymize: the GUIDs and descriptions of a fabric learnt, and the
// same fabric (every node, port, LID, width, speed and cable) under the new GUIDs and names.
#pragma once

#include "anonymous_names.hpp"
#include "fabric/fabric.hpp"

namespace ibpm::tools {

// Adds the fabric's node, system image and port GUIDs and its descriptions to `names`.
void learn_fabric(const Fabric& fabric, AnonymousNames& names);

// The fabric under the new GUIDs and names (learn_fabric, then names.assign(), first).
Fabric anonymized_fabric(const Fabric& fabric, const AnonymousNames& names);

}  // namespace ibpm::tools
