// SPDX-License-Identifier: MIT
// A polling run's sample record, still to be saved (poll/port_poller.hpp's save_record), with the
// run's node locks: what a run's result holds until its ports are judged.
#pragma once

#include <memory>
#include <string>

#include "state/node_locks.hpp"
#include "state/sample_record.hpp"

namespace ibpm::poll {

// A run's sample record, still to be saved (the caller may first set each result's `reported`),
// with the run's node locks, which are held until then.
struct PendingRecord {
  state::NodeLocks locks;
  // As loaded, then updated in place by the run: every written sample goes into it, and the
  // results share their samples from it. Saved to `path`; an empty path: the run keeps no record
  // (this one lives only as long as its results).
  std::shared_ptr<state::SampleRecord> record = std::make_shared<state::SampleRecord>();
  std::string path;
  bool keep_other_ports = false;  // ports of earlier runs stay in the record (re-polls)
};

}  // namespace ibpm::poll
