// SPDX-License-Identifier: MIT
// The verdict on the subnet managers: judge() and the checks it is made of.

#include "sm/judgement.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>

#include "base/number.hpp"
#include "base/text.hpp"
#include "state/port_store.hpp"

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

namespace {

// The problems found this run, by state, each in the order found.
class Problems {
 public:
  void add(State state, std::string text) { by_state_[index(state)].push_back(std::move(text)); }

  // CRITICAL before WARNING before UNKNOWN; OK when there is none.
  State worst() const {
    for (State s : kOrder)
      if (!by_state_[index(s)].empty()) return s;
    return State::ok;
  }

  // Every problem in the order of worst(), "; " between them; empty when there is none.
  std::string joined() const {
    std::string text;
    for (State s : kOrder)
      for (const std::string& p : by_state_[index(s)]) text += (text.empty() ? "" : "; ") + p;
    return text;
  }

 private:
  static constexpr State kOrder[] = {State::critical, State::warning, State::unknown};
  static int index(State state) { return static_cast<int>(state); }

  std::vector<std::string> by_state_[4];
};

// The SMs that answer SMInfo, and among them the masters and the standbys.
struct Roles {
  std::vector<const SmSeen*> masters, standbys, answering;
};

// An SM whose state is outside 0..3 is a problem of its own and takes no role.
Roles sort_by_role(const std::vector<SmSeen>& sms, Problems& problems) {
  Roles roles;
  for (const SmSeen& sm : sms) {
    if (sm.state > 3) {
      problems.add(State::unknown, "SM " + describe(sm) + " reports " + state_name(sm.state));
      continue;
    }
    if (!sm.act_count) continue;
    roles.answering.push_back(&sm);
    if (is_master(sm)) roles.masters.push_back(&sm);
    if (sm.state == static_cast<unsigned>(SmState::standby)) roles.standbys.push_back(&sm);
  }
  return roles;
}

// More than one master, or none: CRITICAL. With none, the last master is remembered on, and is
// named "silent" once its ActCount last moved --stale-after ago.
void judge_no_single_master(const std::vector<const SmSeen*>& masters,
                            const std::optional<Remembered>& before, const Expectations& expect,
                            Clock::time_point now, Problems& problems, Remembered& next) {
  if (masters.size() > 1) {
    std::string names;
    for (const SmSeen* m : masters) names += (names.empty() ? "" : ", ") + describe(*m);
    problems.add(State::critical, std::to_string(masters.size()) + " masters: " + names);
    return;
  }
  const std::optional<SmSeen> last = before ? before->master : std::nullopt;
  if (!last || !before) {
    problems.add(State::critical, "no master SM answers");
    return;
  }
  const long long silent = seconds_between(before->moved, now);
  if (silent >= expect.stale_after.count())
    problems.add(State::critical, "master SM " + describe(*last) + " has sent no SMP in " +
                                      std::to_string(silent) + " s (no SM is master)");
  else
    problems.add(State::critical, "no master SM answers (last master " + describe(*last) + ")");
  next.master = last;
  next.sampled = before->sampled;
  next.moved = before->moved;
}

// The same master as last run: the rate of its ActCount (nullopt when no time passed), and
// CRITICAL when the count has not moved for --stale-after.
std::optional<double> follow_act_count(const SmSeen& master, const SmSeen& last,
                                       const Remembered& before, const Expectations& expect,
                                       Clock::time_point now, Problems& problems,
                                       Remembered& next) {
  std::optional<double> rate;
  const double dt = std::chrono::duration<double>(now - before.sampled).count();
  const std::uint32_t delta = *master.act_count - *last.act_count;  // wraps
  if (dt > 0) rate = delta / dt;
  if (delta == 0) {
    next.moved = before.moved;
    const long long silent = seconds_between(before.moved, now);
    if (silent >= expect.stale_after.count())
      problems.add(State::critical, "master SM " + describe(master) + " has sent no SMP in " +
                                        std::to_string(silent) + " s");
  }
  return rate;
}

// WARNING for each standby whose priority is above the master's.
void judge_priorities(const SmSeen& master, const std::vector<const SmSeen*>& standbys,
                      Problems& problems) {
  for (const SmSeen* s : standbys)
    if (s->priority > master.priority)
      problems.add(State::warning, "master " + describe(master) + " priority " +
                                       std::to_string(master.priority) + " is lower than standby " +
                                       describe(*s) + " priority " + std::to_string(s->priority));
}

// The one master: remembered for the next run, its ActCount followed (the returned rate), and
// WARNING on a failover, a higher-priority standby, or a master other than --expect-master.
std::optional<double> judge_master(const SmSeen& master, const std::vector<const SmSeen*>& standbys,
                                   const std::optional<Remembered>& before,
                                   const Expectations& expect, Clock::time_point now,
                                   Problems& problems, Judgement& result) {
  result.next.master = master;
  result.next.sampled = now;
  result.next.moved = now;
  std::optional<double> rate;
  const std::optional<SmSeen> last = before ? before->master : std::nullopt;
  if (last && last->port_guid == master.port_guid && last->act_count) {
    rate = follow_act_count(master, *last, *before, expect, now, problems, result.next);
  } else if (last && last->port_guid != master.port_guid) {
    result.failover =
        "failover from " + describe(*last) + " to " + describe(master) + " at " + utc(now);
    problems.add(State::warning, result.failover);
  }
  judge_priorities(master, standbys, problems);
  if (!expect.master.empty() && !matches(master, expect.master))
    problems.add(State::warning,
                 "master is " + describe(master) + ", expected " + base::one_line(expect.master));
  return rate;
}

// WARNING when fewer SMs answer than --expect-sms: names the silent ones and counts those never
// seen at all.
void judge_answer_count(const std::vector<SmSeen>& sms, std::size_t answering,
                        const Expectations& expect, Problems& problems) {
  if (!expect.sms || answering >= *expect.sms) return;
  std::string text =
      std::to_string(answering) + " of " + std::to_string(*expect.sms) + " expected SMs answer";
  std::string silent;
  for (const SmSeen& sm : sms)
    if (!sm.act_count) silent += (silent.empty() ? "" : ", ") + describe(sm);
  const std::size_t unknown =
      *expect.sms - answering -
      std::min<std::size_t>(*expect.sms - answering, sms.size() - answering);
  if (!silent.empty()) text += "; silent: " + silent;
  if (unknown) text += "; " + std::to_string(unknown) + " never seen";
  problems.add(State::warning, text);
}

// One SM's line in the long output; the master's carries its ActCount rate.
Subcheck sm_line(const SmSeen& sm, bool the_master, std::optional<double> rate) {
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
    if (the_master && rate)
      line.output += " (" + base::format_number(std::round(*rate * 10) / 10) + "/s)";
    line.state = State::ok;
  }
  return line;
}

// The problems, or the master when there is none, then the counts of standbys and SMs.
std::string sm_summary(const Problems& problems, const SmSeen* master, const Roles& roles) {
  std::string summary = problems.joined();
  if (summary.empty()) {
    summary = master
                  ? "master " + describe(*master) + ", priority " + std::to_string(master->priority)
                  : std::string("no master");
  }
  summary += ", " + std::to_string(roles.standbys.size()) +
             (roles.standbys.size() == 1 ? " standby" : " standbys") + ", " +
             std::to_string(roles.answering.size()) +
             (roles.answering.size() == 1 ? " SM" : " SMs");
  return summary;
}

void add_sm_perfdata(plugin::Check& check, const Roles& roles, const SmSeen* master,
                     std::optional<double> rate, const Expectations& expect,
                     std::optional<double> sa_seconds) {
  auto item = [&](std::string label, double value, std::string uom = {}) -> plugin::Perfdata& {
    plugin::Perfdata p;
    p.label = std::move(label);
    p.value = value;
    p.uom = std::move(uom);
    p.min = 0;
    check.perfdata.push_back(std::move(p));
    return check.perfdata.back();
  };
  plugin::Perfdata& count = item("sms", double(roles.answering.size()));
  if (expect.sms) count.warn = plugin::Range{double(*expect.sms), INFINITY, false};
  item("standbys", double(roles.standbys.size()));
  if (master) item("master_priority", double(master->priority)).max = 15;
  if (rate) item("actcount_per_s", *rate);
  if (sa_seconds) item("sa_query_time", *sa_seconds, "s");
}

// The last run's times as this run can trust them. One dated later than `now` was taken before the
// clock stepped back: beyond the sample record's tolerance the ActCount is followed from now on
// (returns the line that says so); within it, the time is taken as now. Either way no time ahead
// of the clock is judged on or remembered for the next run.
std::string distrust_future(Remembered& before, Clock::time_point now) {
  const Clock::time_point latest = std::max(before.sampled, before.moved);
  const auto tolerance = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(state::kClockToleranceSeconds));
  if (latest > now + tolerance) {
    const double ahead = std::chrono::duration<double>(latest - now).count();
    before.sampled = now;
    before.moved = now;
    return "clock stepped back: the last run's state is dated " +
           base::format_number(std::round(ahead)) +
           " s ahead, the master's ActCount is followed from now";
  }
  before.sampled = std::min(before.sampled, now);
  before.moved = std::min(before.moved, now);
  return {};
}

}  // namespace

Judgement judge(const std::vector<SmSeen>& sms, const std::optional<Remembered>& remembered,
                const Expectations& expect, Clock::time_point now,
                std::optional<double> sa_seconds) {
  std::optional<Remembered> before = remembered;
  const std::string clock_back = before ? distrust_future(*before, now) : std::string();
  Judgement result;
  result.next.sms = sms;
  Problems problems;
  const Roles roles = sort_by_role(sms, problems);
  const SmSeen* master = roles.masters.size() == 1 ? roles.masters.front() : nullptr;
  std::optional<double> rate;
  if (master)
    rate = judge_master(*master, roles.standbys, before, expect, now, problems, result);
  else
    judge_no_single_master(roles.masters, before, expect, now, problems, result.next);
  judge_answer_count(sms, roles.answering.size(), expect, problems);

  plugin::Check& check = result.check;
  for (const SmSeen& sm : sms) check.subchecks.push_back(sm_line(sm, &sm == master, rate));
  if (!clock_back.empty()) check.subchecks.push_back({State::ok, clock_back, {}, {}});
  check.state = problems.worst();
  check.summary = sm_summary(problems, master, roles);
  add_sm_perfdata(check, roles, master, rate, expect, sa_seconds);
  return result;
}

}  // namespace ibpm::sm
