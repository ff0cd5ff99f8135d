// SPDX-License-Identifier: MIT

#include "poll/state_lines.hpp"

namespace ibpm::poll {

void add_state_lines(plugin::Check& check, const std::vector<std::string>& notes,
                     const std::optional<std::string>& record_failure) {
  for (const std::string& note : notes)
    check.subchecks.push_back({plugin::State::ok, note, {}, {}});
  if (!record_failure) return;
  check.subchecks.push_back(
      {plugin::State::warning,
       "sample record not saved (" + *record_failure +
           "): the next runs report the same events again and start their BER and flapping "
           "history afresh",
       {},
       {}});
  if (check.state) check.state = plugin::worst(*check.state, plugin::State::warning);
}

}  // namespace ibpm::poll
