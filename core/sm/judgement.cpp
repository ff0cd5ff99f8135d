// SPDX-License-Identifier: MIT

#include "sm/judgement.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>

#include "base/number.hpp"
#include "base/text.hpp"

namespace ibpm::sm {

namespace {

using plugin::State;
using plugin::Subcheck;

bool is_master(const SmSeen& sm) {
  return sm.act_count && sm.state == static_cast<unsigned>(SmState::master);
}

std::string utc(Clock::time_point time) {
  const std::time_t seconds = Clock::to_time_t(time);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

long long seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration_cast<std::chrono::seconds>(to - from).count();
}

bool matches(const SmSeen& sm, const std::string& wanted) {
  if (auto guid = parse_guid(wanted); guid && wanted.rfind("0x", 0) == 0)
    return *guid == sm.port_guid;
  return sm.name == wanted;
}

}  // namespace

std::string state_name(unsigned code) {
  switch (code) {
    case 0:
      return "not active";
    case 1:
      return "discovering";
    case 2:
      return "standby";
    case 3:
      return "master";
    default:
      return "state " + std::to_string(code);
  }
}

std::string describe(const SmSeen& sm) {
  const std::string name = base::one_line(sm.name);
  return (name.empty() ? std::string("?") : name) + " (" + format_guid(sm.port_guid) + ", LID " +
         std::to_string(sm.lid) + ")";
}

Judgement judge(const std::vector<SmSeen>& sms, const std::optional<Remembered>& before,
                const Expectations& expect, Clock::time_point now,
                std::optional<double> sa_seconds) {
  Judgement result;
  plugin::Check& check = result.check;
  std::vector<std::string> problems[4];  // by State
  auto problem = [&](State state, std::string text) {
    problems[static_cast<int>(state)].push_back(std::move(text));
  };

  std::vector<const SmSeen*> masters, standbys, answering;
  for (const SmSeen& sm : sms) {
    if (sm.state > 3) {
      problem(State::unknown, "SM " + describe(sm) + " reports " + state_name(sm.state));
      continue;
    }
    if (!sm.act_count) continue;
    answering.push_back(&sm);
    if (is_master(sm)) masters.push_back(&sm);
    if (sm.state == static_cast<unsigned>(SmState::standby)) standbys.push_back(&sm);
  }

  const std::optional<SmSeen> last = before ? before->master : std::nullopt;
  result.next.sms = sms;
  std::optional<double> rate;
  const SmSeen* master = masters.size() == 1 ? masters.front() : nullptr;
  if (masters.size() > 1) {
    std::string names;
    for (const SmSeen* m : masters) names += (names.empty() ? "" : ", ") + describe(*m);
    problem(State::critical, std::to_string(masters.size()) + " masters: " + names);
  } else if (!master) {
    if (last && before) {
      const long long silent = seconds_between(before->moved, now);
      if (silent >= expect.stale_after.count())
        problem(State::critical, "master SM " + describe(*last) + " has sent no SMP in " +
                                     std::to_string(silent) + " s (no SM is master)");
      else
        problem(State::critical, "no master SM answers (last master " + describe(*last) + ")");
      result.next.master = last;
      result.next.sampled = before->sampled;
      result.next.moved = before->moved;
    } else {
      problem(State::critical, "no master SM answers");
    }
  }
  if (master) {
    result.next.master = *master;
    result.next.sampled = now;
    result.next.moved = now;
    if (last && last->port_guid == master->port_guid && last->act_count) {
      const double dt = std::chrono::duration<double>(now - before->sampled).count();
      const std::uint32_t delta = *master->act_count - *last->act_count;  // wraps
      if (dt > 0) rate = delta / dt;
      if (delta == 0) {
        result.next.moved = before->moved;
        const long long silent = seconds_between(before->moved, now);
        if (silent >= expect.stale_after.count())
          problem(State::critical, "master SM " + describe(*master) + " has sent no SMP in " +
                                       std::to_string(silent) + " s");
      }
    } else if (last && last->port_guid != master->port_guid) {
      result.failover =
          "failover from " + describe(*last) + " to " + describe(*master) + " at " + utc(now);
      problem(State::warning, result.failover);
    }
    for (const SmSeen* s : standbys)
      if (s->priority > master->priority)
        problem(State::warning, "master " + describe(*master) + " priority " +
                                    std::to_string(master->priority) + " is lower than standby " +
                                    describe(*s) + " priority " + std::to_string(s->priority));
    if (!expect.master.empty() && !matches(*master, expect.master))
      problem(State::warning,
              "master is " + describe(*master) + ", expected " + base::one_line(expect.master));
  }
  if (expect.sms && answering.size() < *expect.sms) {
    std::string text = std::to_string(answering.size()) + " of " + std::to_string(*expect.sms) +
                       " expected SMs answer";
    std::string silent;
    for (const SmSeen& sm : sms)
      if (!sm.act_count) silent += (silent.empty() ? "" : ", ") + describe(sm);
    const std::size_t unknown =
        *expect.sms - answering.size() -
        std::min<std::size_t>(*expect.sms - answering.size(), sms.size() - answering.size());
    if (!silent.empty()) text += "; silent: " + silent;
    if (unknown) text += "; " + std::to_string(unknown) + " never seen";
    problem(State::warning, text);
  }

  // One line per SM in the long output.
  for (const SmSeen& sm : sms) {
    Subcheck line;
    line.output = describe(sm) + ": ";
    if (sm.state > 3) {
      line.state = State::unknown;
      line.output += state_name(sm.state);
    } else if (!sm.act_count) {
      line.output += "does not answer SMInfo (last " + state_name(sm.state) + ")";
      line.state = State::warning;
    } else {
      line.output += state_name(sm.state) + ", priority " + std::to_string(sm.priority) +
                     ", ActCount " + std::to_string(*sm.act_count);
      if (&sm == master && rate)
        line.output += " (" + base::format_number(std::round(*rate * 10) / 10) + "/s)";
      line.state = State::ok;
    }
    check.subchecks.push_back(std::move(line));
  }

  State state = State::ok;
  for (State s : {State::critical, State::warning, State::unknown})
    if (!problems[static_cast<int>(s)].empty()) {
      state = s;
      break;
    }
  check.state = state;
  std::string summary;
  for (State s : {State::critical, State::warning, State::unknown})
    for (const std::string& p : problems[static_cast<int>(s)])
      summary += (summary.empty() ? "" : "; ") + p;
  if (summary.empty()) {
    summary = master
                  ? "master " + describe(*master) + ", priority " + std::to_string(master->priority)
                  : std::string("no master");
  }
  summary += ", " + std::to_string(standbys.size()) +
             (standbys.size() == 1 ? " standby" : " standbys") + ", " +
             std::to_string(answering.size()) + (answering.size() == 1 ? " SM" : " SMs");
  check.summary = summary;

  auto item = [&](std::string label, double value, std::string uom = {}) -> plugin::Perfdata& {
    plugin::Perfdata p;
    p.label = std::move(label);
    p.value = value;
    p.uom = std::move(uom);
    p.min = 0;
    check.perfdata.push_back(std::move(p));
    return check.perfdata.back();
  };
  plugin::Perfdata& count = item("sms", double(answering.size()));
  if (expect.sms) count.warn = plugin::Range{double(*expect.sms), INFINITY, false};
  item("standbys", double(standbys.size()));
  if (master) item("master_priority", double(master->priority)).max = 15;
  if (rate) item("actcount_per_s", *rate);
  if (sa_seconds) item("sa_query_time", *sa_seconds, "s");
  return result;
}

}  // namespace ibpm::sm
