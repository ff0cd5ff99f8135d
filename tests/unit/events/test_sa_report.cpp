// SPDX-License-Identifier: MIT
// The listener's handling of the SA's Reports (events/listener/sa_report.hpp, trap_intake.hpp):
// a Report is answered with its ReportResp (method 0x86, the same transaction ID, the Notice
// echoed) and the trap it carries is treated as the plugin's would be: trap 128 queues its
// switch for a re-poll. Cut or malformed Reports are counted, answered when they are Reports at
// all, and invent nothing; unknown trap numbers, LIDs that are no unicast LID and a flood naming
// one LID are each said once. The MADs are written out byte by byte in the IBA's layout (MAD
// header, SA header, Notice from byte 56), not made by the codec under test.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "repoll_queue.hpp"
#include "sa_report.hpp"
#include "trap_intake.hpp"

using namespace ibpm::events;
using namespace std::chrono_literals;

namespace sa_report_test {

using MadBytes = std::vector<std::uint8_t>;

void put(MadBytes& into, std::size_t offset, std::initializer_list<std::uint8_t> bytes) {
  std::copy(bytes.begin(), bytes.end(), into.begin() + static_cast<std::ptrdiff_t>(offset));
}

// A SubnAdmReport(Notice) as an SA sends it: base version 1, class 0x03, class version 2,
// method 0x06, TID 0x0000000102dab001 (bytes 8-15), attribute Notice 0x0002 (16-17); the Notice
// from byte 56: IsGeneric and Type (56), ProducerType (57-59), TrapNumber (60-61), IssuerLID
// (62-63), toggle and count (64-65), DataDetails (66-119: trap 128's LID in 66-67), IssuerGID
// (120-135).
MadBytes report(std::uint16_t trap, std::uint16_t issuer, std::uint16_t lid) {
  MadBytes mad(256, 0);
  put(mad, 0, {0x01, 0x03, 0x02, 0x06});
  put(mad, 8, {0x00, 0x00, 0x00, 0x01, 0x02, 0xda, 0xb0, 0x01});
  put(mad, 16, {0x00, 0x02});
  put(mad, 56, {0x81, 0x00, 0x00, 0x02});  // generic, urgent; from a switch
  put(mad, 60, {static_cast<std::uint8_t>(trap >> 8), static_cast<std::uint8_t>(trap)});
  put(mad, 62, {static_cast<std::uint8_t>(issuer >> 8), static_cast<std::uint8_t>(issuer)});
  put(mad, 64, {0x00, 0x07});
  put(mad, 66, {static_cast<std::uint8_t>(lid >> 8), static_cast<std::uint8_t>(lid)});
  put(mad, 120, {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x02, 0xc9, 0x03, 0x00, 0x00, 0x00, 0x05});
  return mad;
}

const RepollQueue::Clock::time_point kReportsAt = RepollQueue::Clock::time_point() + 1000s;

// A queue and the intake in front of it, and what the intake said.
struct ReportListener {
  RepollQueue queue{RepollLimits{.settle = 0ms}};
  std::vector<std::string> said;
  TrapIntake intake{queue, 256, [this](const std::string& line) { said.push_back(line); }};

  // The Report handed over as the listener does: answered, its trap taken; the answer.
  std::optional<ibpm::mad::Mad> hand(const MadBytes& mad) {
    const ReportHandling handling = handle_report(mad);
    if (handling.trap) intake.take(*handling.trap, kReportsAt, 1.0, "SA");
    return handling.response;
  }
};

}  // namespace sa_report_test

using namespace sa_report_test;

TEST_CASE("sa report: trap 128 is answered with its ReportResp and queues its switch") {
  const MadBytes mad = report(128, 5, 0x0017);
  ReportListener listener;
  const auto response = listener.hand(mad);
  REQUIRE(response);
  // The same MAD but the method byte: ReportResp 0x86 (response bit and Report), status 0.
  MadBytes expected = mad;
  expected[3] = 0x86;
  CHECK(MadBytes(response->begin(), response->end()) == expected);
  CHECK(std::equal(response->begin() + 8, response->begin() + 16, mad.begin() + 8));     // TID
  CHECK(std::equal(response->begin() + 56, response->begin() + 136, mad.begin() + 56));  // Notice

  // The action: LID 0x17 waits for a re-poll, said as for the plugin's traps.
  CHECK(listener.queue.waiting() == 1);
  CHECK(listener.queue.start(kReportsAt) == std::vector<unsigned>{0x17});
  REQUIRE(listener.said.size() == 1);
  CHECK(listener.said[0] == "trap 128 from LID 5 (SA): re-poll of LID 23 queued");
  CHECK(listener.intake.counts().traps == 1);
  CHECK(listener.intake.counts().by_trap.at(128) == 1);
}

TEST_CASE("sa report: the record handed on is the plugin's, field by field") {
  const ReportHandling handling = handle_report(report(144, 9, 0));
  // Trap 144 carries its LID at byte 2 of the details: none here, so the codec refuses it.
  CHECK_FALSE(handling.trap);
  MadBytes mad = report(144, 9, 0);
  put(mad, 68, {0x00, 0x2a});
  const ReportHandling ok = handle_report(mad);
  REQUIRE(ok.trap);
  CHECK(ok.trap->generic);
  CHECK(ok.trap->type == 1);
  CHECK(ok.trap->producer_type == 2);
  CHECK(ok.trap->trap_number == 144);
  CHECK(ok.trap->issuer_lid == 9);
  CHECK(ok.trap->toggle_count == 7);
  CHECK(ok.trap->details_u16(2) == 42);
  CHECK(ok.trap->issuer_gid[15] == 0x05);
  CHECK(lid_to_repoll(*ok.trap) == 42u);
}

TEST_CASE("sa report: a cut or malformed Report is answered when it is one, and invents nothing") {
  ReportListener listener;
  // Cut: 100 bytes of a Report. No whole MAD to answer, nothing read.
  const MadBytes whole = report(128, 5, 0x0017);
  const ReportHandling cut = handle_report(std::span(whole).first(100));
  CHECK_FALSE(cut.response);
  CHECK_FALSE(cut.trap);
  CHECK(cut.error.find("cut short") != std::string::npos);

  // A Report whose trap 128 names LID 0: answered (the SA must not send it again), not acted on.
  const ReportHandling no_lid = handle_report(report(128, 5, 0));
  CHECK(no_lid.response);
  CHECK_FALSE(no_lid.trap);
  CHECK(no_lid.error == "trap 128 without a switch LID");

  // Not a Report at all (a GetResp of the SA): neither answered nor read.
  MadBytes get_response = whole;
  get_response[3] = 0x81;
  const ReportHandling other = handle_report(get_response);
  CHECK_FALSE(other.response);
  CHECK_FALSE(other.trap);

  // A Report of another attribute than Notice: not ours to answer.
  MadBytes not_notice = whole;
  not_notice[17] = 0x03;
  CHECK_FALSE(handle_report(not_notice).response);

  for (const ReportHandling* h : {&cut, &no_lid, &other})
    if (h->trap) listener.intake.take(*h->trap, kReportsAt, 1.0, "SA");
  CHECK(listener.queue.waiting() == 0);
  CHECK(listener.intake.counts().traps == 0);
  CHECK(listener.said.empty());
}

TEST_CASE("sa report: unknown traps, LIDs that are no unicast LID and a flood: each said once") {
  ReportListener listener;
  // A flood naming one switch: every Report answered, one re-poll waiting, one line said.
  for (int i = 0; i < 100; ++i) CHECK(listener.hand(report(128, 5, 0x0017)));
  CHECK(listener.queue.waiting() == 1);
  CHECK(listener.queue.counts().coalesced == 99);
  // A trap number the listener does not act on, ten times; a multicast LID, five times.
  for (int i = 0; i < 10; ++i) CHECK(listener.hand(report(200, 5, 0x0017)));
  for (int i = 0; i < 5; ++i) CHECK(listener.hand(report(128, 5, 0xc001)));
  // A LID no topology has (the re-poll says so, check_ib_fabric --node): queued like any other.
  CHECK(listener.hand(report(128, 5, 0xbfff)));
  CHECK(listener.intake.counts().traps == 116);
  CHECK(listener.intake.counts().ignored == 15);
  const std::vector<std::string> expected{
      "trap 128 from LID 5 (SA): re-poll of LID 23 queued",
      "trap 200 from LID 5 (SA): not acted on (said once per trap number)",
      "trap 128 from LID 5 (SA): names no unicast LID (49153): ignored (said once per LID)",
      "trap 128 from LID 5 (SA): re-poll of LID 49151 queued"};
  CHECK(listener.said == expected);
}
