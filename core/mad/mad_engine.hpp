// SPDX-License-Identifier: MIT
// Many MADs in flight at once through one UmadPort.
//
// Queries go out up to `window` at a time. Each try waits for its answer as long as the
// randomized exponential backoff allows (backoff.hpp); a try that times out is sent again with a
// fresh transaction id until the query's schedule is spent. Everything stops at the deadline
// (the plugin's -t), so a dead node costs at most its own schedule, in parallel with the rest.
//
// Replies are matched by transaction id, which names the try's slot in a table allocated once a
// run (in_flight_table.hpp): a MAD sent allocates nothing. A reply nobody waits for any more
// (late, duplicate, for another agent's query, malformed) is counted and dropped.
//
// With a recorder (--record), every packet sent and received is also written to a pcap file; an
// engine made on a ReplaySource (--replay) sends nothing and answers each query from a recording.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "mad/backoff.hpp"
#include "mad/engine_options.hpp"
#include "mad/umad_port.hpp"

namespace ibpm::mad {

class PcapRecorder;
class ReplaySource;

// The attribute data of a MAD: everything after the 64 bytes of MAD and class headers
// (the PMA's data area; an SMP uses the first 64 bytes). The SA's data starts at byte 56
// (data_offset): its first 192 bytes are copied.
constexpr std::size_t kMadDataOffset = 64;
constexpr std::size_t kMadSize = 256;
using MadData = std::array<std::uint8_t, kMadSize - kMadDataOffset>;
// A request's payload: the first bytes of the attribute data, the rest zero. Every Get and Set we
// send fits (PortSelect, CounterSelect and CounterSelect2 lie in the first 19 bytes: test_pma
// checks it; a Set of a LinearForwardingTable block takes 64); a query list of 50,000 entries
// then takes 4 MB instead of 10.
constexpr std::size_t kMadRequestSize = 64;
using MadRequestData = std::array<std::uint8_t, kMadRequestSize>;

// The method byte as sent. report_response (SubnAdmReportResp) answers a Report the SA sent us
// (notice.hpp); it is never a query of the engine.
enum class MadMethod : std::uint8_t {
  get = 0x01,
  set = 0x02,
  get_table = 0x12,
  report_response = 0x86,
};

// Where a class's attribute data starts in the MAD: 56 for the SA, 64 otherwise.
std::size_t data_offset(MgmtClass mgmt_class);

struct MadQuery {
  unsigned lid = 0;  // destination LID
  MgmtClass mgmt_class = MgmtClass::performance;
  MadMethod method = MadMethod::get;
  std::uint16_t attribute = 0;
  std::uint32_t modifier = 0;
  MadRequestData data{};             // request payload (PortSelect etc.)
  std::uint64_t component_mask = 0;  // SA queries: which fields of `data` select records
};

enum class ReplyStatus {
  answered,   // a response arrived; see mad_status
  timed_out,  // every try of its schedule timed out
  cut,        // the deadline came first: the query (or its next try) never had its chance
  failed,     // could not be encoded, or the port refused every try
};

struct MadReply {
  ReplyStatus status = ReplyStatus::timed_out;
  std::uint16_t mad_status = 0;  // the response's MAD status field (0 = success)
  MadData data{};
  int tries = 0;
  std::chrono::system_clock::time_point received;  // when the answer arrived

  bool ok() const { return status == ReplyStatus::answered && mad_status == 0; }
};

class MadEngine {
 public:
  // `recorder`, when not null, writes every packet sent and received (it outlives the engine).
  explicit MadEngine(const UmadPort& port, PcapRecorder* recorder = nullptr)
      : port_(&port), recorder_(recorder) {}
  // Answers from a recording instead of the fabric, in query order, at the recording's times;
  // a query the recording lacks throws ReplayMissing.
  explicit MadEngine(ReplaySource& replay) : replay_(&replay) {}

  // Runs every query to an answer or to the end of its schedule; replies in query order.
  std::vector<MadReply> run(const std::vector<MadQuery>& queries, const EngineOptions& options);

  // The same, handing each reply to `on_reply` as soon as its query ends (in the order they
  // end), without keeping it. on_reply may append queries to `queries`: they go out in the same
  // run, so that a node's next queries start as soon as its first one answers, with no round
  // to wait for. Queries are sent in the order they stand in `queries`.
  using OnReply = std::function<void(std::size_t index, const MadReply& reply)>;
  void run(std::vector<MadQuery>& queries, const EngineOptions& options, const OnReply& on_reply);

  // The same with each query made as it goes out: `at(index)` for every index below `count()`,
  // which on_reply may raise. A caller that can make a query again from what it asks keeps none
  // (a sweep of 23,328 ports would keep 5 MB of them).
  struct QuerySource {
    std::function<std::size_t()> count;
    std::function<MadQuery(std::size_t index)> at;
  };
  void run(const QuerySource& queries, const EngineOptions& options, const OnReply& on_reply);

  // Totals over every run() of this engine.
  const EngineStats& stats() const { return stats_; }

 private:
  const UmadPort* port_ = nullptr;
  PcapRecorder* recorder_ = nullptr;
  ReplaySource* replay_ = nullptr;
  EngineStats stats_;
  std::uint32_t last_tid_ = 0;  // the last transaction id given
};

// Why a reply is not ok(): "MAD status 0x000c", "no answer after 4 tries", "MAD could not be
// sent".
std::string describe_failure(const MadReply& reply);

}  // namespace ibpm::mad
