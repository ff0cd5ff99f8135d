// SPDX-License-Identifier: MIT

#include "sim/simulated_fabric.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <random>
#include <utility>

#include "sim/client_slot.hpp"
#include "sim/console_text.hpp"
#include "sim/log_follower.hpp"
#include "sim/process.hpp"
#include "sim/sim_programs.hpp"
#include "sim/sim_state.hpp"
#include "sim/stale_reaper.hpp"
#include "sim/work_dir.hpp"

namespace ibpm::sim {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// Console text written straight into the fifo stays below PIPE_BUF, so that it cannot mix
// with another writer's; bigger batches go through a command file.
constexpr std::size_t kDirectConsoleBytes = 2048;
// libumad2sim would attach clients to another node (SIM_HOST) or send them to a remote ibsim
// (IBSIM_SERVER_*) if this process's environment said so.
const std::vector<std::string> kForeignClientVariables{"SIM_HOST", "IBSIM_SERVER_NAME",
                                                       "IBSIM_SERVER_PORT"};

std::string random_hex(int bytes) {
  static thread_local std::mt19937_64 engine{std::random_device{}()};
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < bytes; ++i) {
    auto b = static_cast<unsigned>(engine() & 0xff);
    out += digits[b >> 4];
    out += digits[b & 0xf];
  }
  return out;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SimulationError("cannot read " + path.string());
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string seconds(std::chrono::milliseconds ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(ms.count()) / 1000.0);
  return text;
}

std::vector<std::string> console_lines(const std::vector<std::string>& commands) {
  std::vector<std::string> lines;
  for (const std::string& c : commands) {
    std::size_t start = 0;
    while (start <= c.size()) {
      std::size_t end = c.find('\n', start);
      if (end == std::string::npos) end = c.size();
      std::string line = c.substr(start, end - start);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") != std::string::npos) lines.push_back(line);
      start = end + 1;
    }
  }
  return lines;
}

std::string with_sbin(std::string path) {
  for (const char* dir : {"/usr/local/sbin", "/usr/sbin", "/sbin"}) {
    std::string padded = ":" + path + ":";
    if (padded.find(std::string(":") + dir + ":") == std::string::npos)
      path += path.empty() ? dir : std::string(":") + dir;
  }
  return path;
}

}  // namespace

// Shared by the threads that use one simulation: its console and ibsim's exit status.
struct SimulatedFabric::Shared {
  std::mutex console_mutex;
  std::mutex state_mutex;
};

SimulatedFabric::SimulatedFabric() : shared_(std::make_unique<Shared>()) {}

SimulatedFabric::SimulatedFabric(SimulatedFabric&& other) noexcept {
  // A moved-from object is stopped and empty: its destructor leaves the simulation alone, and
  // everything but stop() refuses to work (require_running).
  stopped_ = true;
  stop_on_destroy_ = false;
  swap(other);
}

SimulatedFabric& SimulatedFabric::operator=(SimulatedFabric&& other) noexcept {
  if (this != &other) {
    SimulatedFabric old(std::move(*this));  // stopped when `old` goes
    swap(other);
  }
  return *this;
}

void SimulatedFabric::swap(SimulatedFabric& other) noexcept {
  using std::swap;
  swap(options_, other.options_);
  swap(work_dir_, other.work_dir_);
  swap(clients_dir_, other.clients_dir_);
  swap(ld_preload_, other.ld_preload_);
  swap(socket_name_, other.socket_name_);
  swap(ibsim_pid_, other.ibsim_pid_);
  swap(ibsim_exit_code_, other.ibsim_exit_code_);
  swap(console_fd_, other.console_fd_);
  swap(ibsim_is_child_, other.ibsim_is_child_);
  swap(stop_on_destroy_, other.stop_on_destroy_);
  swap(stopped_, other.stopped_);
  swap(owns_work_dir_, other.owns_work_dir_);
  swap(created_work_dir_, other.created_work_dir_);
  swap(separate_clients_dir_, other.separate_clients_dir_);
  swap(sequence_, other.sequence_);
  swap(shared_, other.shared_);
}

SimulatedFabric::~SimulatedFabric() {
  try {
    if (stop_on_destroy_) stop();
  } catch (...) {
    // Nothing sensible to do in a destructor; stop() does not throw in practice.
  }
  if (console_fd_ >= 0) close(console_fd_);
}

SimulatedFabric SimulatedFabric::start(const fs::path& net_file, Options options) {
  std::error_code ec;
  if (!fs::is_regular_file(net_file, ec))
    throw SimulationError("net file " + net_file.string() + " not found");
  return launch(fs::absolute(net_file), read_file(net_file), false, std::move(options));
}

SimulatedFabric SimulatedFabric::start_text(std::string_view net_text, Options options) {
  return launch({}, std::string(net_text), true, std::move(options));
}

SimulatedFabric SimulatedFabric::launch(const fs::path& net_file, const std::string& net_text,
                                        bool write_net, Options options) {
  // Look everything up first: a missing package fails before anything starts.
  fs::path ibsim = require_program(options.ibsim_program);
  fs::path opensm;
  if (options.run_subnet_manager) opensm = require_program(options.opensm_program);
  fs::path umad2sim = require_umad2sim();

  SimulatedFabric fabric;
  fabric.options_ = std::move(options);
  fabric.ld_preload_ = umad2sim;
  try {
    fabric.prepare_work_dir();
    // The net file's text stays in the work dir (started from a file too): clients that need
    // the cabling (ibpm-sim traffic) read it there, whatever becomes of the original.
    const fs::path copy = fabric.work_dir_ / sim_files::net;
    std::ofstream(copy, std::ios::binary) << net_text;
    const fs::path net = write_net ? copy : net_file;
    NetSize size = fabric.options_.capacity.value_or(measure_net(net_text));
    fabric.start_ibsim(ibsim, net, size);
    if (fabric.options_.run_subnet_manager) fabric.run_subnet_manager(opensm);
  } catch (...) {
    fabric.stop();
    throw;
  }
  fabric.stop_on_destroy_ = !fabric.options_.detached;
  fabric.save_state();
  return fabric;
}

SimulatedFabric SimulatedFabric::attach(const fs::path& work_dir) {
  auto state = read_state(work_dir);
  if (!state) throw SimulationError("no simulation in " + work_dir.string() + " (no state file)");
  SimulatedFabric fabric;
  fabric.work_dir_ = fs::absolute(work_dir);
  fabric.clients_dir_ = state->clients_dir;
  fabric.ld_preload_ = state->ld_preload;
  fabric.socket_name_ = state->socket_name;
  fabric.ibsim_pid_ = state->ibsim_pid;
  fabric.owns_work_dir_ = state->owns_work_dir;
  fabric.created_work_dir_ = state->created_work_dir;
  fabric.separate_clients_dir_ = state->separate_clients_dir;
  fabric.ibsim_is_child_ = false;
  fabric.stop_on_destroy_ = false;
  // Read-write, like ibsim's own end: opening never blocks and writing never raises SIGPIPE.
  fabric.console_fd_ =
      open((fabric.work_dir_ / sim_files::console).c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  return fabric;
}

void SimulatedFabric::prepare_work_dir() {
  // work_dir_ is set only once the folder is ours: stop() cleans up whatever it names, and a
  // refused start must not touch the files of a simulation that is running there.
  if (options_.work_dir.empty()) {
    fs::path root = default_work_root();
    reap_stale_simulations(root);
    work_dir_ = make_private_dir(root, "ibpm-sim-");
    owns_work_dir_ = true;
  } else {
    fs::path dir = fs::absolute(options_.work_dir);
    std::error_code ec;
    if (fs::exists(dir, ec)) {
      if (auto old = read_state(dir)) {
        if (old->ibsim_pid > 0 && process_alive(old->ibsim_pid) &&
            process_has_env(old->ibsim_pid, "IBSIM_SOCKNAME=" + old->socket_name))
          throw SimulationError("a simulation is already running in " + dir.string() +
                                " (stop it first: ibpm-sim stop --dir " + dir.string() + ")");
        // Leftovers of a simulation that ended without stop: clear them, keep the folder.
        created_work_dir_ = old->created_work_dir;
        old->owns_work_dir = false;
        old->created_work_dir = false;
        remove_simulation_files(dir, *old);
      }
      if (!fs::is_directory(dir, ec) || !fs::is_empty(dir, ec))
        throw SimulationError("work folder " + dir.string() + " is not an empty folder");
    } else {
      fs::create_directories(dir);
      created_work_dir_ = true;
    }
    work_dir_ = dir;
  }
  // libumad2sim builds its fake sysfs tree in the client's working folder: on tmpfs that
  // costs ~1 ms per client start instead of 15-20 ms.
  if (on_tmpfs(work_dir_)) {
    clients_dir_ = work_dir_ / sim_files::clients;
    fs::create_directory(clients_dir_);
  } else {
    clients_dir_ = make_private_dir(default_work_root(), "ibpm-sim-clients-");
    separate_clients_dir_ = true;
  }
  socket_name_ = "ibpm-" + random_hex(6) + "-" + std::to_string(getpid());
}

void SimulatedFabric::start_ibsim(const fs::path& ibsim, const fs::path& net_file,
                                  const NetSize& size) {
  fs::path fifo = work_dir_ / sim_files::console;
  if (mkfifo(fifo.c_str(), 0600) != 0)
    throw std::system_error(errno, std::generic_category(), "cannot create fifo " + fifo.string());
  std::ofstream(log_path()).close();

  SpawnRequest request;
  request.argv = {ibsim.string(), "-s"};
  for (std::string& arg : ibsim_capacity_args(size)) request.argv.push_back(std::move(arg));
  request.argv.push_back(net_file.string());
  // Not preloaded itself, even when this process runs as a client of some simulation.
  request.env = environment_with({"IBSIM_SOCKNAME=" + socket_name_}, {"LD_PRELOAD"});
  request.cwd = work_dir_;
  // Read-write: ibsim never sees end-of-file on its console (it would spin at 100 % CPU).
  request.stdin_file = fifo;
  request.stdin_flags = O_RDWR;
  request.stdout_file = log_path();
  request.new_session = options_.detached;
  ibsim_pid_ = spawn(request);
  ibsim_is_child_ = true;
  save_state();  // from now on a crashed owner's simulation can be found and reaped
  console_fd_ = open(fifo.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (console_fd_ < 0)
    throw std::system_error(errno, std::generic_category(), "cannot open " + fifo.string());

  // Readiness: ibsim reads its console only in its main loop, which it enters after parsing
  // the net file and binding its sockets. The echo of a comment therefore proves that it
  // serves clients, and a parse error ends it (seen as its exit) before any echo.
  try {
    exchange({}, options_.start_timeout);
  } catch (const SimulationError&) {
    std::string why = running()
                          ? "did not become ready within " + seconds(options_.start_timeout)
                          : "exited with code " + std::to_string(ibsim_exit_code_.value_or(-1));
    fail("ibsim " + why + " on " + net_file.string() + "; its output ends with:\n" +
         file_tail(log_path()));
  }
}

void SimulatedFabric::run_subnet_manager(const fs::path& opensm) {
  fs::path osm = work_dir_ / sim_files::osm;
  fs::create_directories(osm);
  fs::path osm_log = osm / "osm.log";
  SpawnRequest request;
  // -o: one sweep, then exit; OSM_CACHE_DIR keeps its cache files out of /var/cache.
  request.argv = {opensm.string(), "-f", osm_log.string(), "-o"};
  std::vector<std::string> env = client_env_overrides();
  env.push_back("OSM_CACHE_DIR=" + osm.string());
  request.env = environment_with(env, kForeignClientVariables);
  request.cwd = clients_dir_;
  CapturedRun run;
  {
    ClientSlot slot(slots_dir());
    run = run_captured(request, options_.sm_timeout);
  }
  std::string log_text = file_tail(osm_log, 10000);
  if (run.timed_out)
    fail("OpenSM did not finish its sweep within " + seconds(options_.sm_timeout) +
         "; osm.log ends with:\n" + file_tail(osm_log, 20));
  if (run.exit_code != 0 || log_text.find("SUBNET UP") == std::string::npos)
    fail("OpenSM sweep failed (exit code " + std::to_string(run.exit_code) +
         ", no SUBNET UP); output:\n" + run.out + run.err + "osm.log ends with:\n" +
         file_tail(osm_log, 20) + "\nibsim output ends with:\n" + file_tail(log_path(), 10));
}

SimState SimulatedFabric::make_state() const {
  SimState state;
  state.socket_name = socket_name_;
  state.ibsim_pid = ibsim_pid_;
  state.clients_dir = clients_dir_;
  state.ld_preload = ld_preload_;
  state.owner_pid = stop_on_destroy_ ? getpid() : 0;
  state.owns_work_dir = owns_work_dir_;
  state.created_work_dir = created_work_dir_;
  state.separate_clients_dir = separate_clients_dir_;
  return state;
}

void SimulatedFabric::save_state() const { write_state(work_dir_, make_state()); }

fs::path SimulatedFabric::log_path() const { return work_dir_ / sim_files::log; }

fs::path SimulatedFabric::slots_dir() const { return work_dir_ / sim_files::slots; }

std::vector<std::string> SimulatedFabric::client_env_overrides() const {
  std::string preload = ld_preload_.string();
  if (const char* old = std::getenv("LD_PRELOAD");
      old && *old && std::string(old).find(preload) == std::string::npos)
    preload += std::string(":") + old;
  const char* path = std::getenv("PATH");
  std::string asan = std::getenv("ASAN_OPTIONS") ? std::getenv("ASAN_OPTIONS") : "";
  // The preloaded library comes before the sanitizer runtime, which ASan refuses by default.
  asan += std::string(asan.empty() ? "" : ":") + "verify_asan_link_order=0";
  return {"IBSIM_SOCKNAME=" + socket_name_, "LD_PRELOAD=" + preload,
          "PATH=" + with_sbin(path ? path : "/usr/bin:/bin"), "ASAN_OPTIONS=" + asan};
}

std::vector<std::string> SimulatedFabric::client_env() const {
  return environment_with(client_env_overrides(), kForeignClientVariables);
}

bool SimulatedFabric::running() const {
  if (stopped_ || ibsim_pid_ <= 0) return false;
  std::lock_guard lock(shared_->state_mutex);
  if (ibsim_exit_code_) return false;
  if (ibsim_is_child_) {
    if (auto code = try_wait(ibsim_pid_)) {
      ibsim_exit_code_ = *code;
      return false;
    }
    return true;
  }
  return process_alive(ibsim_pid_) && process_has_env(ibsim_pid_, "IBSIM_SOCKNAME=" + socket_name_);
}

std::vector<pid_t> SimulatedFabric::pids() const {
  if (running()) return {ibsim_pid_};
  return {};
}

void SimulatedFabric::require_running() const {
  if (stopped_) throw SimulationError("the simulated fabric is stopped");
  if (!running())
    throw SimulationError("ibsim (pid " + std::to_string(ibsim_pid_) +
                          ") is not running; its output ends with:\n" + file_tail(log_path()));
}

void SimulatedFabric::fail(const std::string& message) {
  stop();
  throw SimulationError(message);
}

int SimulatedFabric::run_client(const std::vector<std::string>& argv, std::string* output,
                                std::string* errors) {
  require_running();
  if (argv.empty()) throw std::invalid_argument("run_client: empty argv");
  SpawnRequest request;
  request.argv = argv;
  request.argv[0] = require_program(argv[0]).string();
  request.env = client_env();
  request.cwd = clients_dir_;
  CapturedRun run;
  {
    ClientSlot slot(slots_dir());
    run = run_captured(request, options_.client_timeout);
  }
  // A client ended by a signal never said goodbye to ibsim and still holds a slot.
  if (run.timed_out || run.exit_code > 128) release_stale_clients();
  if (run.timed_out)
    throw SimulationError(argv[0] + " did not finish within " + seconds(options_.client_timeout) +
                          " and was killed");
  if (output) *output = std::move(run.out);
  if (errors) *errors = std::move(run.err);
  return run.exit_code;
}

int SimulatedFabric::run_client_passthrough(const std::vector<std::string>& argv) {
  require_running();
  if (argv.empty()) throw std::invalid_argument("run_client_passthrough: empty argv");
  SpawnRequest request;
  request.argv = argv;
  request.argv[0] = require_program(argv[0]).string();
  request.env = client_env();
  // The caller's folder, so relative paths mean what the caller meant; libumad2sim removes its
  // sys-PID/ tree there when the client exits (a start on disk costs ~15 ms more than on tmpfs).
  int code;
  {
    ClientSlot slot(slots_dir());
    pid_t pid = spawn(request);
    code = wait_until(pid, Clock::time_point::max()).value_or(-1);
  }
  if (code > 128) release_stale_clients();
  return code;
}

std::string SimulatedFabric::console(const std::string& command) {
  return console(std::vector<std::string>{command});
}

std::string SimulatedFabric::console(const std::vector<std::string>& commands) {
  std::string reply = exchange(commands, options_.console_timeout);
  std::vector<std::string> errors = console_errors(reply, console_lines(commands));
  if (!errors.empty()) {
    std::string message = "ibsim refused a console command:";
    for (const std::string& e : errors) message += "\n  " + e;
    throw SimulationError(message);
  }
  return reply;
}

std::string SimulatedFabric::console_unchecked(const std::vector<std::string>& commands) {
  return exchange(commands, options_.console_timeout);
}

std::string SimulatedFabric::exchange(const std::vector<std::string>& commands,
                                      std::chrono::milliseconds timeout) {
  require_running();
  std::lock_guard console_lock(shared_->console_mutex);  // run_client may call in from threads
  auto deadline = Clock::now() + timeout;
  ++sequence_;
  const std::string token = "ibpm-sim-sync " + std::to_string(getpid()) + "-" +
                            std::to_string(sequence_) + "-" + random_hex(4) + ".";
  std::vector<std::string> lines = console_lines(commands);
  std::string payload;
  bool long_line = false;
  for (const std::string& line : lines) {
    payload += line + "\n";
    if (line.size() > kConsoleLineMax) long_line = true;
  }
  // ibsim cuts console lines after 127 bytes; in a command file ("!FILE") lines may be 4 KiB.
  fs::path command_file;
  if (long_line || payload.size() > kDirectConsoleBytes) {
    command_file = clients_dir_ / ("console-" + std::to_string(getpid()) + "-" +
                                   std::to_string(sequence_) + ".cmds");
    if (command_file.string().size() + 1 > kConsoleLineMax)
      throw SimulationError("command file path " + command_file.string() +
                            " is too long for ibsim's console");
    std::ofstream(command_file, std::ios::binary) << payload;
    payload = "!" + command_file.string() + "\n";
  }
  payload += "# " + token + "\n";

  LogFollower follower(log_path(), log_size(log_path()));
  std::optional<std::string> raw;
  try {
    write_console(payload, deadline);
    raw = follower.wait_for(token, deadline, [this] { return running(); });
  } catch (...) {
    if (!command_file.empty()) fs::remove(command_file);
    throw;
  }
  if (!command_file.empty()) fs::remove(command_file);
  if (!raw) {
    if (!running())
      throw SimulationError("ibsim (pid " + std::to_string(ibsim_pid_) +
                            ") stopped; its output ends with:\n" + file_tail(log_path()));
    throw SimulationError("ibsim did not process console commands within " + seconds(timeout));
  }
  return clean_console_reply(*raw, "# " + token);
}

void SimulatedFabric::write_console(const std::string& payload, Clock::time_point deadline) {
  if (console_fd_ < 0) throw SimulationError("no console fifo open for " + work_dir_.string());
  std::size_t done = 0;
  while (done < payload.size()) {
    ssize_t n = write(console_fd_, payload.data() + done, payload.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR)
      throw std::system_error(errno, std::generic_category(), "writing to ibsim's console");
    // The fifo is full: ibsim is busy or gone.
    if (!running()) throw SimulationError("ibsim stopped while console commands were sent");
    if (Clock::now() >= deadline)
      throw SimulationError("ibsim's console did not take commands in time");
    pollfd p{console_fd_, POLLOUT, 0};
    poll(&p, 1, 50);
  }
}

void SimulatedFabric::release_stale_clients() {
  if (!running()) return;
  for (auto [id, pid] : attached_clients(console_unchecked({"Attached"})))
    if (!process_alive(pid)) console_unchecked({"X " + std::to_string(id)});
}

void SimulatedFabric::stop() {
  if (stopped_) return;
  stopped_ = true;
  if (console_fd_ >= 0) {
    close(console_fd_);
    console_fd_ = -1;
  }
  SimState state = make_state();
  if (ibsim_pid_ > 0) {
    // Our own child cannot have been replaced by another process (it is not reaped yet);
    // anything else is checked by its environment before it is signalled.
    if (ibsim_is_child_) {
      if (!ibsim_exit_code_) end_process(ibsim_pid_);
    } else {
      end_simulation_process(state);
    }
  }
  if (!work_dir_.empty()) remove_simulation_files(work_dir_, state);
}

void SimulatedFabric::detach() {
  stop_on_destroy_ = false;
  if (!stopped_) save_state();
}

}  // namespace ibpm::sim
