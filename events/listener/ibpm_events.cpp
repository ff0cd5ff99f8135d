// SPDX-License-Identifier: MIT
// ibpm-events: the subnet manager's traps, seconds after a link changes, instead of the next
// sweep. It binds the socket the OpenSM event plugin (events/opensm-plugin) hands every trap to,
// and for trap 128 (a switch's link changed state: the switch's LID, no port) and 144 (a node's
// capabilities, description or enabled width or speed changed) it re-polls that switch with the
// command it was given, check_ib_fabric and the sweep's own options, to which it adds --node LID:
// every port's PortInfo and counters read and judged by the sweep's rules, the result delivered
// wherever the sweep delivers (Nagios spool, Icinga 2 API, events file). Traps are coalesced
// (repoll_queue.hpp): one re-poll at a time, a second apart at least, a budget of switches a
// minute. It waits in poll() and uses no CPU while the fabric is quiet. --status-file keeps what it
// did for the check that watches it. A trap 64 for a port the saved topology (--topology) lacks
// (a node joined) has the next re-poll learn that port at the SA and add it to the topology
// (check_ib_fabric --join GUID). With --sa it also subscribes to the traps at the master
// SM's SA, for any subnet manager (sa_subscriber.hpp), and treats its Reports as the plugin's
// traps.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/json.hpp"
#include "events/trap_socket.hpp"
#include "layout/state_layout.hpp"
#include "plugin/add_option.hpp"
#include "plugin/cli.hpp"
#include "plugin/options.hpp"
#include "recheck_list.hpp"
#include "repoll_queue.hpp"
#include "sa_subscriber.hpp"
#include "trap_intake.hpp"

extern char** environ;

namespace {

using namespace ibpm;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string socket = "/run/ibpm-events/events.sock";
  std::string status_file = "/run/ibpm-events/events.json";
  unsigned min_interval_ms = 1000;
  std::size_t max_nodes = 64;
  std::size_t budget = 256;
  unsigned settle_ms = 2000;
  unsigned recheck_s = 10;
  bool sa = false;
  events::SaOptions sa_options;
  unsigned sa_check_s = 60;
  // STATE_DIR/topology.ibnetdiscover of the checks' default state folder.
  std::string topology = layout::StateLayout(plugin::FabricOptions().state_dir).topology();
  std::vector<std::string> command;
};

double epoch_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void say(const std::string& line) { std::cerr << "ibpm-events: " << line << std::endl; }

// What the listener has heard from the plugin and what its re-polls did, for --status-file and
// its log (the traps themselves are counted by the TrapIntake, the SA's by the SaSubscriber).
struct Health {
  double started = epoch_now();
  double last_heard = 0;             // the last record, trap or heartbeat: the plugin is there
  unsigned heartbeat_s = 0;          // the plugin's heartbeat interval, as it says it
  double last_drop = 0;              // the last trap the plugin lost
  std::uint32_t plugin_dropped = 0;  // traps the plugin could not hand over (its count)
  double last_repoll_end = 0;
  int last_repoll_exit = -1;
};

// The SA way in, in the status file (check_ib_events judges it).
std::string sa_status(const events::SaSubscriber& sa, unsigned check_s) {
  const events::SaHealth& h = sa.health();
  std::ostringstream json;
  json.precision(15);
  json << "{\"port\":" << base::json_string(sa.port_name())
       << ",\"subscribed\":" << (h.subscribed ? "true" : "false") << ",\"sm_lid\":" << h.sm_lid
       << ",\"last_confirmed\":" << h.last_confirmed << ",\"check_s\":" << check_s
       << ",\"checks\":" << h.checks << ",\"failures\":" << h.failures
       << ",\"last_failure\":" << base::json_string(h.last_failure)
       << ",\"last_failure_at\":" << h.last_failure_at << ",\"master_changes\":" << h.master_changes
       << ",\"renewed\":" << h.renewed << ",\"reports\":" << h.reports
       << ",\"answered\":" << h.answered << ",\"malformed\":" << h.malformed << "}";
  return json.str();
}

class Listener {
 public:
  explicit Listener(Options options)
      : options_(std::move(options)),
        socket_(options_.socket),
        queue_({.min_interval = std::chrono::milliseconds(options_.min_interval_ms),
                .max_nodes = options_.max_nodes,
                .budget = options_.budget,
                .budget_window = std::chrono::seconds(60),
                .settle = std::chrono::milliseconds(options_.settle_ms)}),
        recheck_(std::chrono::seconds(options_.recheck_s)),
        locator_(options_.topology),
        intake_(queue_, options_.budget, say, options_.topology.empty() ? nullptr : &locator_) {
    intake_.on_join([this](Guid guid) { want_join(guid); });
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGHUP);
    ::sigprocmask(SIG_BLOCK, &signals, nullptr);
    signal_fd_ = ::signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
    if (signal_fd_ < 0) throw std::runtime_error(std::string("signalfd: ") + std::strerror(errno));
    // After the signals are blocked: the threads it starts (its own reader, the simulator's)
    // inherit the mask, so that SIGTERM comes to the signalfd and never ends a thread's process.
    if (options_.sa) {
      options_.sa_options.check_interval = std::chrono::seconds(options_.sa_check_s);
      sa_ = std::make_unique<events::SaSubscriber>(
          options_.sa_options, say, [this](const events::TrapRecord& trap) {
            intake_.take(trap, Clock::now(), epoch_now(), "SA");
          });
    }
  }

  void run() {
    say("listening on " + options_.socket +
        (sa_ ? " and at the SA from " + sa_->port_name() : std::string()));
    if (sa_) sa_->tick(Clock::now());  // the first subscription
    write_status();
    while (!stopping_ || child_ > 0) {
      pollfd fds[4] = {{socket_.fd(), POLLIN, 0},
                       {signal_fd_, POLLIN, 0},
                       {sa_ ? sa_->fd() : -1, POLLIN, 0},
                       {child_fd_, POLLIN, 0}};
      const int count = child_fd_ >= 0 ? 4 : 3;
      if (::poll(fds, count, timeout_ms()) < 0 && errno != EINTR)
        throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
      if (fds[1].revents) read_signals();
      if (fds[0].revents) read_traps();
      if (sa_) tend_sa(fds[2].revents != 0);
      reap_child();
      take_rechecks();
      start_repoll();
    }
    if (sa_) sa_->unsubscribe(std::chrono::seconds(3));
    write_status();
    say("stopped: " + std::to_string(intake_.counts().traps) + " traps, " +
        std::to_string(queue_.counts().runs) + " re-polls");
  }

 private:
  // Until the next re-poll may start, or the SA subscriber's next check or retry; forever when
  // nothing waits (an idle listener sleeps in poll); 50 ms steps while a re-poll runs without a
  // pidfd to wait on.
  int timeout_ms() const {
    if (child_ > 0 && child_fd_ < 0) return 50;
    if (stopping_) return -1;
    Clock::time_point next = Clock::time_point::max();
    if (child_ == 0) {  // (a re-poll in flight: its end wakes the loop)
      if (!joins_.empty()) return 0;
      if (const std::optional<Clock::time_point> start = queue_.next_start()) next = *start;
      if (const std::optional<Clock::time_point> due = recheck_.next_due())
        next = std::min(next, *due);
    }
    if (sa_) next = std::min(next, sa_->next_wake());
    if (next == Clock::time_point::max()) return -1;
    const auto wait = std::chrono::ceil<std::chrono::milliseconds>(next - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(wait, 0, 60000));
  }

  // What arrived from the SA, and the subscriber's timer; the status file when its health moved.
  void tend_sa(bool readable) {
    const events::SaHealth before = sa_->health();
    const std::uint64_t traps = intake_.counts().traps;
    if (readable)
      sa_->read(Clock::now());
    else
      sa_->tick(Clock::now());
    const events::SaHealth& after = sa_->health();
    if (after.last_confirmed != before.last_confirmed || after.failures != before.failures ||
        after.reports != before.reports || after.subscribed != before.subscribed ||
        intake_.counts().traps != traps)
      write_status();
  }

  void read_signals() {
    signalfd_siginfo info{};
    while (::read(signal_fd_, &info, sizeof info) == sizeof info) stopping_ = true;
  }

  void read_traps() {
    const std::uint64_t malformed = socket_.malformed();
    bool any = false;
    while (const std::optional<events::TrapRecord> trap = socket_.receive()) {
      any = true;
      take(*trap);
    }
    if (socket_.malformed() > malformed)
      say(std::to_string(socket_.malformed() - malformed) +
          " datagrams on the socket were not trap records: ignored");
    if (any) write_status();
  }

  void take(const events::TrapRecord& trap) {
    const double now = epoch_now();
    if (health_.heartbeat_s && now - health_.last_heard > 3.0 * health_.heartbeat_s)
      say("the OpenSM plugin is heard again after " +
          std::to_string(static_cast<long>(now - health_.last_heard)) + " s");
    health_.last_heard = now;
    if (trap.dropped > health_.plugin_dropped) {
      say("the OpenSM plugin could not hand over " +
          std::to_string(trap.dropped - health_.plugin_dropped) +
          " traps (the next sweep sees what they said)");
      health_.plugin_dropped = trap.dropped;
      health_.last_drop = now;
    }
    if (trap.heartbeat) {
      if (health_.heartbeat_s == 0)
        say("the OpenSM plugin is there (a heartbeat every " + std::to_string(trap.details_u16(0)) +
            " s)");
      health_.heartbeat_s = trap.details_u16(0);
      return;
    }
    intake_.take(trap, Clock::now(), now);
  }

  // A trap 64 for a port the topology lacks: the next re-poll learns it (--join), unless it is
  // waiting already or was tried within the last minute (a port that flaps in and out, or one
  // the SA cannot say, costs one lookup a minute); at most kJoinsWaiting wait.
  void want_join(Guid guid) {
    static constexpr std::size_t kJoinsWaiting = 64;
    const Clock::time_point now = Clock::now();
    if (std::find(joins_.begin(), joins_.end(), guid) != joins_.end()) return;
    if (const auto tried = join_tried_.find(guid);
        tried != join_tried_.end() && now - tried->second < std::chrono::minutes(1))
      return;
    if (joins_.size() >= kJoinsWaiting) {
      if (++joins_dropped_ == 1 || joins_dropped_ % 100 == 0)
        say(std::to_string(joins_dropped_) +
            " joined ports not learnt: too many waiting (the next discovery adds them)");
      return;
    }
    joins_.push_back(guid);
    join_tried_[guid] = now;
  }

  // The switches of a re-poll that did not end OK, due again (see recheck_list.hpp): queued as
  // a trap's, so the budget and the intervals hold for them too.
  void take_rechecks() {
    if (child_ > 0 || stopping_) return;
    const Clock::time_point now = Clock::now();
    const std::vector<unsigned> lids = recheck_.due(now);
    if (lids.empty()) return;
    std::string named;
    for (unsigned lid : lids) {
      named += (named.empty() ? "" : " ") + std::to_string(lid);
      if (queue_.add(lid, now) == events::RepollQueue::Added::dropped)
        recheck_.ended({lid}, 0, now);  // past the budget: the next sweep reads it
    }
    say("reading LID " + named +
        " again: its re-poll did not end OK (a switch unreachable while the subnet manager moved "
        "the routes that crossed a cable gone down is read now)");
  }

  void start_repoll() {
    if (stopping_ || child_ > 0) return;
    const std::vector<unsigned> lids = queue_.start(Clock::now());
    repoll_lids_ = lids;
    std::vector<Guid> joins;
    while (!joins_.empty() && joins.size() < options_.max_nodes) {
      joins.push_back(joins_.front());
      joins_.erase(joins_.begin());
    }
    if (lids.empty() && joins.empty()) return;
    std::vector<std::string> args = options_.command;
    for (unsigned lid : lids) args.insert(args.end(), {"--node", std::to_string(lid)});
    std::string joined;
    for (Guid guid : joins) {
      std::ostringstream text;
      text << "0x" << std::hex << guid;
      args.insert(args.end(), {"--join", text.str()});
      joined += " " + text.str();
    }
    joins_started_ += joins.size();
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
    pid_t pid = 0;
    const int error = ::posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (error != 0) {
      say("cannot run " + options_.command.front() + ": " + std::strerror(error));
      queue_.finished();
      health_.last_repoll_exit = 127;
      return;
    }
    child_ = pid;
    child_fd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    started_ = Clock::now();
    std::string named;
    for (unsigned lid : lids) named += (named.empty() ? "" : " ") + std::to_string(lid);
    say((named.empty() ? std::string() : "re-polling LID " + named) +
        (joined.empty()
             ? ""
             : (named.empty() ? "learning joined port" : ", learning joined port") + joined));
  }

  void reap_child() {
    if (child_ <= 0) return;
    int status = 0;
    const pid_t done = ::waitpid(child_, &status, WNOHANG);
    if (done != child_) return;
    if (child_fd_ >= 0) ::close(child_fd_);
    child_fd_ = -1;
    child_ = 0;
    queue_.finished();
    health_.last_repoll_end = epoch_now();
    health_.last_repoll_exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    recheck_.ended(repoll_lids_, health_.last_repoll_exit, Clock::now());
    repoll_lids_.clear();
    const double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    std::ostringstream line;
    line.precision(3);
    line << "re-poll done in " << seconds << " s, exit " << health_.last_repoll_exit;
    say(line.str());
    write_status();
  }

  void write_status() const {
    if (options_.status_file.empty()) return;
    const events::RepollCounts& c = queue_.counts();
    const events::TrapCounts& t = intake_.counts();
    std::ostringstream json;
    json.precision(15);
    json << "{\"pid\":" << ::getpid() << ",\"started\":" << health_.started
         << ",\"updated\":" << epoch_now() << ",\"socket\":" << base::json_string(options_.socket)
         << ",\"traps\":" << t.traps << ",\"last_trap\":" << t.last_trap
         << ",\"last_heard\":" << health_.last_heard << ",\"heartbeat_s\":" << health_.heartbeat_s
         << ",\"last_drop\":" << std::max(health_.last_drop, t.last_drop)
         << ",\"plugin_dropped\":" << health_.plugin_dropped
         << ",\"malformed\":" << socket_.malformed() << ",\"ignored\":" << t.ignored
         << ",\"named\":" << c.named << ",\"coalesced\":" << c.coalesced
         << ",\"dropped\":" << c.dropped << ",\"repolls\":" << c.runs
         << ",\"rechecked\":" << recheck_.rechecked() << ",\"repolled\":" << c.polled
         << ",\"settled\":" << c.settled << ",\"waiting\":" << queue_.waiting()
         << ",\"joins\":" << joins_started_ << ",\"joins_dropped\":" << joins_dropped_
         << ",\"last_repoll_end\":" << health_.last_repoll_end
         << ",\"last_repoll_exit\":" << health_.last_repoll_exit << ",\"by_trap\":{";
    bool first = true;
    for (const auto& [trap, count] : t.by_trap) {
      json << (first ? "" : ",") << "\"" << trap << "\":" << count;
      first = false;
    }
    json << "}";
    if (sa_) json << ",\"sa\":" << sa_status(*sa_, options_.sa_check_s);
    json << "}\n";
    try {
      base::replace_file_with(options_.status_file, [&](std::ostream& out) { out << json.str(); });
    } catch (const std::exception& e) {
      say(std::string("status file not written: ") + e.what());
    }
  }

  Options options_;
  events::TrapSocket socket_;
  events::RepollQueue queue_;
  events::RecheckList recheck_;
  events::PortLocator locator_;
  events::TrapIntake intake_;
  std::unique_ptr<events::SaSubscriber> sa_;
  Health health_;
  int signal_fd_ = -1;
  pid_t child_ = 0;
  int child_fd_ = -1;
  Clock::time_point started_;
  bool stopping_ = false;
  std::vector<unsigned> repoll_lids_;  // the LIDs of the re-poll in flight
  std::vector<Guid> joins_;            // ports of traps 64 the topology lacks, to learn (--join)
  std::map<Guid, Clock::time_point> join_tried_;
  std::uint64_t joins_started_ = 0;
  std::uint64_t joins_dropped_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return plugin::run_tool(
      argc, argv,
      {.name = "ibpm-events",
       .description =
           "Listens for the subnet manager's traps, handed over by the OpenSM event plugin "
           "(libibpm_event_plugin.so, event_plugin_name ibpm_event_plugin in opensm.conf) or, "
           "with --sa, sent by the master SM's SA (any subnet manager: traps 64, 65, 128, 144 "
           "and 145 subscribed from the port -C/-P, every Report answered, the subscription "
           "checked every --sa-check seconds and made again at a new master, removed on exit), "
           "and "
           "re-polls at once the switch a trap 128 (link state change) or the node a 144 "
           "(capability, "
           "description or enabled width/speed change) or 145 (system image GUID) names (the "
           "re-poll also writes a changed description or system image GUID into the saved "
           "topology, and its ports' series into the --openmetrics file), or that holds or is "
           "cabled to the "
           "port of a trap 64/65 (GID in or out of service, placed by --topology; a port "
           "coming into service that the topology lacks is learnt at the SA and added to it by "
           "the re-poll, with --join GUID): COMMAND "
           "(check_ib_fabric and the "
           "sweep's own options, after --) is run with --node LID added, so the switch's ports "
           "are judged by the sweep's rules and its result goes wherever the sweep's goes. "
           "Traps are coalesced: one re-poll at a time, a switch --min-interval apart, at most "
           "--max-nodes "
           "switches each, --budget switches a minute (what is past it is dropped and counted: "
           "the next sweep sees it).",
       .add_options =
           [&](CLI::App& app) {
             plugin::add_option(app, "--socket", options.socket,
                                "The socket the plugin sends to (its event_plugin_options "
                                "ibpm_socket=PATH)")
                 .show_default();
             plugin::add_option(app, "--status-file", options.status_file,
                                "Keep what the listener saw and did here (JSON, replaced at each "
                                "event and heartbeat), for check_ib_events; empty: nowhere")
                 .show_default();
             plugin::add_option(app, "--min-interval", options.min_interval_ms,
                                "Milliseconds before a switch re-polled is read again (one re-poll "
                                "runs at a time)")
                 .in_range(0u, 3600000u)
                 .show_default();
             plugin::add_option(app, "--max-nodes", options.max_nodes,
                                "Switches one re-poll reads at most (the rest wait for the next)")
                 .in_range(1ul, 100000ul)
                 .show_default();
             plugin::add_option(app, "--budget", options.budget,
                                "Switches re-polled per minute at most: a storm of traps costs no "
                                "more MADs than that many switches' ports")
                 .in_range(1ul, 1000000ul)
                 .show_default();
             plugin::add_option(app, "--settle", options.settle_ms,
                                "A switch named by 3 traps within this many milliseconds is in a "
                                "storm: it is read once no trap named it for as long, so that its "
                                "result is the state the storm left")
                 .in_range(0u, 600000u)
                 .show_default();
             plugin::add_option(app, "--recheck", options.recheck_s,
                                "Seconds after a re-poll that did not end OK before its switches "
                                "are read once more (a switch at the far end of a cable gone down "
                                "may be unreachable until the subnet manager moved the routes "
                                "that crossed it); 0: never")
                 .in_range(0u, 3600u)
                 .show_default();
             const plugin::OptionRef sa_flag =
                 plugin::add_flag(
                     app, "--sa", options.sa,
                     "Also subscribe to the traps at the master SM's SA, from the port "
                     "-C/-P (for a subnet manager that is not an OpenSM with the plugin)")
                     .group("SA subscription");
             plugin::add_local_port_options(app, options.sa_options.ca, options.sa_options.port,
                                            "SA subscription");
             plugin::add_option(app, "--record", options.sa_options.record,
                                "With --sa: append every MAD of the SA way in (the checks' "
                                "requests and answers, the SA's Reports and their ReportResps) "
                                "to FILE, a pcap recording as the checks' --record writes (the "
                                "re-polls record with the command's own --record)")
                 .type_name("FILE")
                 .needs(sa_flag)
                 .group("SA subscription");
             plugin::add_option(app, "--sa-check", options.sa_check_s,
                                "Seconds between two checks that the SA still lists the "
                                "subscription (and who the master is)")
                 .in_range(1u, 86400u)
                 .show_default()
                 .group("SA subscription");
             plugin::add_option(app, "--topology", options.topology,
                                "The topology the sweep saves (STATE_DIR/topology.ibnetdiscover): "
                                "for a trap 64 or 65 (a port's GID in or out of service) the "
                                "switch that holds the port or is cabled to it is re-polled, so "
                                "its result says at once that the link came up or went down; "
                                "empty: 64/65 are logged only")
                 .show_default();
             plugin::add_option(app, "command", options.command,
                                "The re-poll: check_ib_fabric and its options, after --")
                 .required();
           },
       .run = [&] { Listener(std::move(options)).run(); }});
}
