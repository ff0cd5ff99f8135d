// SPDX-License-Identifier: MIT
// A Report the SA sends the listener unasked: the ReportResp it must be answered with (the same
// transaction ID, the Notice echoed: the SA resends a Report it gets no answer to), and the trap
// it carries as the record the OpenSM plugin would have handed over, so that both ways in are
// treated alike (trap_intake.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "events/trap_record.hpp"
#include "mad/notice.hpp"

namespace ibpm::events {

struct ReportHandling {
  std::optional<mad::Mad> response;  // when the MAD is a whole Report at all, whatever it says
  std::optional<TrapRecord> trap;    // when its Notice could be read
  std::string error;                 // why not, when it could not
};

// `mad`: the MAD as received, from its first byte (after the umad header).
ReportHandling handle_report(std::span<const std::uint8_t> mad);

// The Notice's fields in the plugin's record (no send time, sequence or drop count: the SA has
// none).
TrapRecord trap_record_of(const mad::Notice& notice);

}  // namespace ibpm::events
