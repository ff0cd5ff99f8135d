// SPDX-License-Identifier: MIT

#include "sa_report.hpp"

#include <algorithm>

namespace ibpm::events {

TrapRecord trap_record_of(const mad::Notice& notice) {
  TrapRecord trap;
  trap.generic = notice.is_generic;
  trap.type = static_cast<std::uint8_t>(notice.type & 0x7f);
  trap.trap_number = static_cast<std::uint16_t>(notice.trap_number);
  trap.producer_type = notice.producer & 0xffffff;
  trap.issuer_lid = static_cast<std::uint16_t>(notice.issuer_lid);
  trap.toggle_count =
      static_cast<std::uint16_t>((notice.toggle ? 0x8000 : 0) | (notice.count & 0x7fff));
  std::copy(notice.issuer_gid.begin(), notice.issuer_gid.end(), trap.issuer_gid.begin());
  static_assert(mad::kNoticeDetailsSize == kTrapDetailsSize);
  std::copy(notice.data_details.begin(), notice.data_details.end(), trap.details.begin());
  return trap;
}

ReportHandling handle_report(std::span<const std::uint8_t> mad) {
  ReportHandling handling;
  handling.response = mad::encode_report_response(mad);
  std::string error;
  if (const std::optional<mad::Report> report = mad::decode_report(mad, &error))
    handling.trap = trap_record_of(report->notice);
  else
    handling.error = error;
  return handling;
}

}  // namespace ibpm::events
