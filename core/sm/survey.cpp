// SPDX-License-Identifier: MIT

#include "sm/survey.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>

#include "mad/sm_info.hpp"
#include "mad/smp.hpp"

namespace ibpm::sm {

Survey survey(mad::MadLink& link, const std::vector<SmSeen>& known,
              const mad::EngineOptions& options, const NodeNameMap* names) {
  Survey result;
  mad::MadEngine& engine = link.engine();
  std::map<unsigned, SmSeen> by_lid;  // what is known of each SM before asking it

  const unsigned sa_lid = link.local().sm_lid;
  if (sa_lid != 0) {
    const auto start = std::chrono::steady_clock::now();
    const auto replies = engine.run({mad::sm_info_records_query(sa_lid)}, options);
    const auto took = std::chrono::steady_clock::now() - start;
    if (replies[0].ok()) {
      result.sa_seconds = std::chrono::duration<double>(took).count();
      for (const mad::SmInfoRecord& record : mad::decode_sm_info_records(replies[0].data)) {
        SmSeen& sm = by_lid[record.lid];
        sm.lid = record.lid;
        sm.port_guid = record.info.port_guid;
        sm.priority = record.info.priority;
        sm.state = record.info.state;
      }
    } else {
      result.sa_problem =
          "SA at LID " + std::to_string(sa_lid) + ": " + mad::describe_failure(replies[0]);
    }
    by_lid[sa_lid].lid = sa_lid;  // the port's master SM is asked in any case
  }
  // Without the SA, the SMs the last run knew are asked directly.
  if (!result.sa_seconds)
    for (const SmSeen& sm : known)
      if (by_lid[sm.lid].port_guid == 0) by_lid[sm.lid] = sm;
  // A port no SM has configured, with none remembered: there is no SM to ask (CRITICAL, as for
  // one that stopped answering). An SA that does not answer: its SM is asked directly.
  if (sa_lid == 0 && known.empty()) {
    result.sa_problem =
        "the local port " + link.local().description + " knows no subnet manager (SM LID 0)";
    result.mads = engine.stats();
    return result;
  }

  std::vector<mad::MadQuery> queries;
  for (const auto& [lid, sm] : by_lid) {
    queries.push_back(mad::sm_info_query(lid));
    queries.push_back(mad::node_description_query(lid));
    if (names) queries.push_back(mad::node_info_query(lid));
  }
  const auto replies = engine.run(queries, options);
  std::size_t i = 0;
  for (auto& [lid, sm] : by_lid) {
    const mad::MadReply& info = replies[i++];
    const mad::MadReply& description = replies[i++];
    if (info.ok()) {
      const mad::SmInfo answer = mad::decode_sm_info(info.data);
      sm.port_guid = answer.port_guid;
      sm.priority = answer.priority;
      sm.state = answer.state;
      sm.act_count = answer.act_count;
      result.answered_at = std::max(result.answered_at.value_or(info.received), info.received);
    } else {
      sm.act_count.reset();
    }
    if (description.ok()) sm.name = mad::decode_node_description(description.data);
    if (names) {
      const mad::MadReply& node = replies[i++];
      if (node.ok())
        if (const std::string* name = names->find(mad::decode_node_info(node.data).node_guid))
          sm.name = *name;
    }
    // A LID nobody answers for and nothing is known about (the port's stale SM LID): no SM.
    if (sm.port_guid != 0) result.sms.push_back(sm);
  }
  result.mads = engine.stats();
  return result;
}

}  // namespace ibpm::sm
