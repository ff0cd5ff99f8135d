// SPDX-License-Identifier: MIT
// A simulated InfiniBand fabric for tests and demos: ibsim serving a net file, one OpenSM
// sweep to assign LIDs, and clients (ibnetdiscover, perfquery, our own tools) that reach it
// through libumad2sim. RAII: the destructor stops it, so a failing test still cleans up.
//
//   auto fabric = SimulatedFabric::start("fat_tree.net");
//   std::string out;
//   fabric.run_client({"ibnetdiscover"}, &out);
//   fabric.console("PerformanceSet \"leaf01\"[1] PortCounters.SymbolErrorCounter=5");
//
// Every simulation has its own IBSIM_SOCKNAME, so any number can run side by side. Limits of
// ibsim to keep in mind:
//   - it serves at most 10 clients at once (OpenSM counts while it sweeps): run_client (and
//     `ibpm-sim exec`) run at most 8 clients of one simulation at a time, across threads and
//     processes (see ClientSlot); tools started by hand do not take part. A client killed
//     with SIGKILL keeps its place in ibsim until release_stale_clients() (run_client calls
//     it after a timeout).
//   - the SM and every client attach to the first node of the net file: make it a CA, and
//     do not Unlink its link (clients would see nothing else).
//   - console commands act at once, but port state and LIDs change only through an SM:
//     after Unlink/ReLink the links are down/up for discovery, LIDs stay as swept.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/net_file.hpp"

namespace ibpm::sim {

struct SimState;

// Something went wrong with the simulation itself (ibsim or OpenSM failed, ibsim stopped
// answering, a console command was refused, a client timed out).
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SimulatedFabricOptions {
  // Folder for the simulation's files. Empty: a new private folder under /dev/shm (or $TMPDIR,
  // /tmp) that stop() removes. A given folder must be absent, empty, or hold a stopped
  // simulation; stop() removes only what start put there.
  std::filesystem::path work_dir;
  bool run_subnet_manager = true;
  // ibsim gets its own session and the object does not stop it on destruction: it outlives
  // this process until `ibpm-sim stop` (or attach(dir).stop()).
  bool detached = false;
  // ibsim's node / switch / port limits; default: the net file's size when it exceeds them.
  std::optional<NetSize> capacity;
  std::string ibsim_program = "ibsim";
  std::string opensm_program = "opensm";
  std::chrono::milliseconds start_timeout{60'000};
  std::chrono::milliseconds sm_timeout{300'000};
  std::chrono::milliseconds console_timeout{60'000};
  std::chrono::milliseconds client_timeout{300'000};
};

class SimulatedFabric {
 public:
  using Options = SimulatedFabricOptions;

  // Starts ibsim on the net file, waits until it serves, then runs one OpenSM sweep. Throws
  // MissingProgram (naming the Debian package) or SimulationError (with ibsim's or OpenSM's
  // log tail); nothing is left running then.
  static SimulatedFabric start(const std::filesystem::path& net_file, Options options = {});
  // The same for net file text, written to fabric.net in the work folder.
  static SimulatedFabric start_text(std::string_view net_text, Options options = {});
  // Reaches a simulation another process started into `work_dir` (ibpm-sim start). The
  // object does not stop it on destruction; stop() does.
  static SimulatedFabric attach(const std::filesystem::path& work_dir);

  SimulatedFabric(SimulatedFabric&& other) noexcept;
  SimulatedFabric& operator=(SimulatedFabric&& other) noexcept;
  SimulatedFabric(const SimulatedFabric&) = delete;
  SimulatedFabric& operator=(const SimulatedFabric&) = delete;
  ~SimulatedFabric();

  const std::string& socket_name() const { return socket_name_; }
  std::string ld_preload() const { return ld_preload_.string(); }
  // The simulator's variables: IBSIM_SOCKNAME, LD_PRELOAD (libumad2sim first), PATH with the
  // sbin folders, ASAN_OPTIONS tolerating the preload (for sanitizer builds of our tools).
  std::vector<std::string> client_env_overrides() const;
  // This process's environment with those applied: what clients run with.
  std::vector<std::string> client_env() const;
  const std::filesystem::path& work_dir() const { return work_dir_; }
  // Clients' working folder (tmpfs: libumad2sim writes a fake sysfs tree sys-PID/ there).
  const std::filesystem::path& clients_dir() const { return clients_dir_; }
  std::filesystem::path log_path() const;
  pid_t ibsim_pid() const { return ibsim_pid_; }
  // Processes this object started that still run (ibsim while it is up).
  std::vector<pid_t> pids() const;
  bool running() const;

  // Runs a client (argv[0] looked up in PATH and the sbin folders) in clients_dir() with
  // client_env(); safe to call from several threads at once (unlike everything else here);
  // returns its exit code (128 + signal when a signal ended it) and fills
  // `output` / `errors` with its stdout / stderr. Throws MissingProgram when it is not
  // installed and SimulationError at the client timeout (the client is killed).
  int run_client(const std::vector<std::string>& argv, std::string* output = nullptr,
                 std::string* errors = nullptr);
  // The same in the caller's folder, with this process's stdin, stdout and stderr and no timeout
  // (ibpm-sim exec).
  int run_client_passthrough(const std::vector<std::string>& argv);

  // Sends console commands and returns once ibsim has processed them (a unique comment sent
  // after them has come back in its output), with ibsim's reply. Throws SimulationError when
  // ibsim reports a failure ("# nodeid ... not found", "unknown - skipped", ...) or stops
  // answering. Long lines and big batches go through a command file ("!FILE").
  std::string console(const std::string& command);
  std::string console(const std::vector<std::string>& commands);
  // The same without judging the reply.
  std::string console_unchecked(const std::vector<std::string>& commands);

  // Frees the slots of attached clients whose process is gone ("X n" on the console).
  void release_stale_clients();

  // Kills every process this object started (by pid) and removes the files it made.
  // Idempotent; the destructor calls it unless the fabric is detached or attached.
  void stop();
  // The simulation outlives this object (ibpm-sim start).
  void detach();

 private:
  struct Shared;

  SimulatedFabric();
  static SimulatedFabric launch(const std::filesystem::path& net_file, const std::string& net_text,
                                bool write_net, Options options);
  void prepare_work_dir();
  void start_ibsim(const std::filesystem::path& ibsim, const std::filesystem::path& net_file,
                   const NetSize& size);
  void run_subnet_manager(const std::filesystem::path& opensm);
  SimState make_state() const;
  void save_state() const;
  std::string exchange(const std::vector<std::string>& commands, std::chrono::milliseconds timeout);
  void write_console(const std::string& payload, std::chrono::steady_clock::time_point deadline);
  void require_running() const;
  std::filesystem::path slots_dir() const;
  [[noreturn]] void fail(const std::string& message);
  void swap(SimulatedFabric& other) noexcept;

  Options options_;
  std::filesystem::path work_dir_;
  std::filesystem::path clients_dir_;
  std::filesystem::path ld_preload_;
  std::string socket_name_;
  pid_t ibsim_pid_ = 0;
  mutable std::optional<int> ibsim_exit_code_;  // learnt (and reaped) by running()
  int console_fd_ = -1;
  bool ibsim_is_child_ = false;
  bool stop_on_destroy_ = true;
  bool stopped_ = false;
  bool owns_work_dir_ = false;
  bool created_work_dir_ = false;
  bool separate_clients_dir_ = false;
  unsigned long long sequence_ = 0;
  std::unique_ptr<Shared> shared_;
};

}  // namespace ibpm::sim
