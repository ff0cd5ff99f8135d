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
// did for the check that watches it.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "events/trap_socket.hpp"
#include "plugin/add_option.hpp"
#include "plugin/cli.hpp"
#include "repoll_queue.hpp"

extern char** environ;

namespace {

using namespace ibpm;
using Clock = std::chrono::steady_clock;

constexpr unsigned kLinkStateChange = 128;
constexpr unsigned kLocalChanges = 144;

struct Options {
  std::string socket = "/run/ibpm-events/events.sock";
  std::string status_file = "/run/ibpm-events/events.json";
  unsigned min_interval_ms = 1000;
  std::size_t max_nodes = 64;
  std::size_t budget = 256;
  unsigned settle_ms = 2000;
  std::vector<std::string> command;
};

double epoch_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void say(const std::string& line) { std::cerr << "ibpm-events: " << line << std::endl; }

// What the listener has seen and done, for --status-file and its log.
struct Health {
  double started = epoch_now();
  std::uint64_t traps = 0;
  double last_trap = 0;              // epoch seconds, 0: none yet
  double last_trap_sent = 0;         // the plugin's send time of the last trap
  double last_heard = 0;             // the last record, trap or heartbeat: the plugin is there
  unsigned heartbeat_s = 0;          // the plugin's heartbeat interval, as it says it
  double last_drop = 0;              // the last trap the plugin lost or the budget dropped
  std::uint32_t plugin_dropped = 0;  // traps the plugin could not hand over (its count)
  std::map<unsigned, std::uint64_t> by_trap;
  std::uint64_t ignored = 0;  // traps that name nothing to re-poll
  double last_repoll_end = 0;
  int last_repoll_exit = -1;
};

void write_status(const Options& options, const Health& health, const events::RepollQueue& queue,
                  std::uint64_t malformed) {
  if (options.status_file.empty()) return;
  const events::RepollCounts& c = queue.counts();
  std::ostringstream json;
  json.precision(15);
  json << "{\"pid\":" << ::getpid() << ",\"started\":" << health.started
       << ",\"updated\":" << epoch_now() << ",\"socket\":\"" << options.socket << "\""
       << ",\"traps\":" << health.traps << ",\"last_trap\":" << health.last_trap
       << ",\"last_heard\":" << health.last_heard << ",\"heartbeat_s\":" << health.heartbeat_s
       << ",\"last_drop\":" << health.last_drop << ",\"plugin_dropped\":" << health.plugin_dropped
       << ",\"malformed\":" << malformed << ",\"ignored\":" << health.ignored
       << ",\"named\":" << c.named << ",\"coalesced\":" << c.coalesced
       << ",\"dropped\":" << c.dropped << ",\"repolls\":" << c.runs << ",\"repolled\":" << c.polled
       << ",\"settled\":" << c.settled << ",\"waiting\":" << queue.waiting()
       << ",\"last_repoll_end\":" << health.last_repoll_end
       << ",\"last_repoll_exit\":" << health.last_repoll_exit << ",\"by_trap\":{";
  bool first = true;
  for (const auto& [trap, count] : health.by_trap) {
    json << (first ? "" : ",") << "\"" << trap << "\":" << count;
    first = false;
  }
  json << "}}\n";
  try {
    base::replace_file_with(options.status_file, [&](std::ostream& out) { out << json.str(); });
  } catch (const std::exception& e) {
    say(std::string("status file not written: ") + e.what());
  }
}

// The LID a trap asks to re-poll, if any: the switch of a 128, the node of a 144.
std::optional<unsigned> lid_to_repoll(const events::TrapRecord& trap) {
  if (!trap.generic) return std::nullopt;
  if (trap.trap_number == kLinkStateChange) return trap.details_u16(0);
  if (trap.trap_number == kLocalChanges) return trap.details_u16(2);
  return std::nullopt;
}

std::string gid_text(const std::uint8_t* gid) {
  std::ostringstream text;
  text << std::hex;
  for (int i = 0; i < 16; i += 2) {
    if (i) text << ':';
    text << ((gid[i] << 8) | gid[i + 1]);
  }
  return text.str();
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
                .settle = std::chrono::milliseconds(options_.settle_ms)}) {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGHUP);
    ::sigprocmask(SIG_BLOCK, &signals, nullptr);
    signal_fd_ = ::signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
    if (signal_fd_ < 0) throw std::runtime_error(std::string("signalfd: ") + std::strerror(errno));
  }

  void run() {
    say("listening on " + options_.socket);
    write_status(options_, health_, queue_, socket_.malformed());
    while (!stopping_ || child_ > 0) {
      pollfd fds[3] = {{socket_.fd(), POLLIN, 0}, {signal_fd_, POLLIN, 0}, {child_fd_, POLLIN, 0}};
      const int count = child_fd_ >= 0 ? 3 : 2;
      if (::poll(fds, count, timeout_ms()) < 0 && errno != EINTR)
        throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
      if (fds[1].revents) read_signals();
      if (fds[0].revents) read_traps();
      reap_child();
      start_repoll();
    }
    say("stopped: " + std::to_string(health_.traps) + " traps, " +
        std::to_string(queue_.counts().runs) + " re-polls");
  }

 private:
  // Until the next re-poll may start; forever when nothing waits (an idle listener sleeps in
  // poll); 50 ms steps while a re-poll runs without a pidfd to wait on.
  int timeout_ms() const {
    if (child_ > 0 && child_fd_ < 0) return 50;
    const std::optional<Clock::time_point> next = queue_.next_start();
    if (!next || stopping_) return -1;
    const auto wait = std::chrono::ceil<std::chrono::milliseconds>(*next - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(wait, 0, 60000));
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
    if (any) write_status(options_, health_, queue_, socket_.malformed());
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
    ++health_.traps;
    ++health_.by_trap[trap.trap_number];
    health_.last_trap = now;
    health_.last_trap_sent = static_cast<double>(trap.sent_ns) / 1e9;
    const std::string what =
        "trap " + std::to_string(trap.trap_number) + " from LID " + std::to_string(trap.issuer_lid);
    if (const std::optional<unsigned> lid = lid_to_repoll(trap)) {
      if (*lid == 0 || *lid >= 0xc000) {
        ++health_.ignored;
        say(what + ": names no unicast LID (" + std::to_string(*lid) + "): ignored");
        return;
      }
      switch (queue_.add(*lid, Clock::now())) {
        case events::RepollQueue::Added::queued:
          say(what + ": re-poll of LID " + std::to_string(*lid) + " queued");
          break;
        case events::RepollQueue::Added::coalesced:
          break;  // said when it was queued
        case events::RepollQueue::Added::dropped:
          health_.last_drop = now;
          if (queue_.counts().dropped == 1 || queue_.counts().dropped % 100 == 0)
            say(what + ": re-poll budget spent (" + std::to_string(options_.budget) +
                " a minute), " + std::to_string(queue_.counts().dropped) +
                " dropped so far; the next sweep is the backstop");
          break;
      }
      return;
    }
    ++health_.ignored;
    if (trap.generic && (trap.trap_number == 64 || trap.trap_number == 65))
      say(what + ": GID " + gid_text(trap.details.data() + 6) +
          (trap.trap_number == 64 ? " in service" : " out of service"));
    else if (seen_other_.insert(trap.trap_number).second)
      say(what + ": not acted on (said once per trap number)");
  }

  void start_repoll() {
    if (stopping_) return;
    const std::vector<unsigned> lids = queue_.start(Clock::now());
    if (lids.empty()) return;
    std::vector<std::string> args = options_.command;
    for (unsigned lid : lids) args.insert(args.end(), {"--node", std::to_string(lid)});
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
    say("re-polling LID " + named);
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
    const double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    std::ostringstream line;
    line.precision(3);
    line << "re-poll done in " << seconds << " s, exit " << health_.last_repoll_exit;
    say(line.str());
    write_status(options_, health_, queue_, socket_.malformed());
  }

  Options options_;
  events::TrapSocket socket_;
  events::RepollQueue queue_;
  Health health_;
  std::set<unsigned> seen_other_;
  int signal_fd_ = -1;
  pid_t child_ = 0;
  int child_fd_ = -1;
  Clock::time_point started_;
  bool stopping_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return plugin::run_tool(
      argc, argv,
      {.name = "ibpm-events",
       .description =
           "Listens for the subnet manager's traps, handed over by the OpenSM event plugin "
           "(libibpm_event_plugin.so, event_plugin_name ibpm_event_plugin in opensm.conf), and "
           "re-polls at once the switch a trap 128 (link state change) or 144 (capability, "
           "description or enabled width/speed change) names: COMMAND (check_ib_fabric and the "
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
             plugin::add_option(app, "command", options.command,
                                "The re-poll: check_ib_fabric and its options, after --")
                 .required();
           },
       .run = [&] { Listener(std::move(options)).run(); }});
}
