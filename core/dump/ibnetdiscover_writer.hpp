// SPDX-License-Identifier: MIT
// Writes a Fabric as ibnetdiscover text that ibnetdiscover-reading tools (and our own parser)
// accept: vendid/devid/sysimgguid/switchguid|caguid|rtguid lines, node headers and one line per
// cabled port, each cable from both ends.
//
// Output is deterministic: switches, then CAs, then routers, each by GUID; ports by number. No
// timestamp is written. Nodes of unknown type are written as CAs. Values the model does not know
// are written as ibnetdiscover does for them (LID 0, width "??", speed "???").
// The format cannot carry '"' or line breaks inside a description: they are written as '\'' and
// ' ', and a comment at the top says so.
#pragma once

#include <ostream>

#include "fabric/fabric.hpp"

namespace ibpm::dump {

void write_ibnetdiscover(std::ostream& out, const Fabric& fabric);

}  // namespace ibpm::dump
