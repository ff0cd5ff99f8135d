// SPDX-License-Identifier: MIT
// The packaged rrdcached serving the checks Nagios runs, as a site runs it: the daemon started
// from ibpm-rrdcached.service's own ExecStart as the user ibpm (umask 0002), the checks
// (check_ib_fabric, check_ib_port, check_ib_node) as the user nagios with the supplementary group
// ibpm (umask 0022), the state folder 3775 nagios:ibpm as the postinst makes it. Both ways round:
// files the checks made themselves then written by the daemon, and files the daemon made (in the
// folders the checks made) then read and flushed through it by the checks. Every port is judged
// (no UNKNOWN), and only the RRD files and their folders are shared with the group. The host's
// nagios and ibpm users where it has them, else ids no account has (setpriv takes numbers); the
// group ibpm (rrdcached's -s wants a name) made as the postinst makes it where there is none.
// Needs root, setpriv and rrdcached; Skipped without them.
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/rrdcached_daemon.hpp"
#include "support/simulator.hpp"
#include "support/skip.hpp"

using namespace ibpm::test;
namespace fs = std::filesystem;

namespace site_rrdcached_live {

// The site's accounts: the users nagios and ibpm where this host has them, else ids no account
// or group has (setpriv takes numbers); the group ibpm by name (the unit's `-s ibpm` needs one),
// made as the postinst makes it when the host has none.
struct Accounts {
  unsigned nagios = 0;        // the user Nagios runs the checks as
  unsigned nagios_group = 0;  // its own group
  unsigned ibpm = 0;          // the user ibpm-rrdcached runs as
  unsigned ibpm_group = 0;    // the group ibpm
};

bool id_is_free(unsigned id) { return !::getpwuid(id) && !::getgrgid(id); }

unsigned free_id(unsigned from) {
  while (!id_is_free(from)) ++from;
  return from;
}

std::optional<Accounts> site_accounts() {
  if (!::getgrnam("ibpm")) {
    const std::string groupadd = find_program("groupadd");
    if (groupadd.empty() ||
        run_process({groupadd, "--system", "ibpm"}, {.env = {}, .stderr_to = Stderr::discarded})
                .exit_code != 0)
      return std::nullopt;
  }
  const group* ibpm_group = ::getgrnam("ibpm");
  if (!ibpm_group) return std::nullopt;
  Accounts accounts;
  accounts.ibpm_group = ibpm_group->gr_gid;
  if (const passwd* ibpm = ::getpwnam("ibpm"))
    accounts.ibpm = ibpm->pw_uid;
  else
    accounts.ibpm = free_id(61000);
  if (const passwd* nagios = ::getpwnam("nagios")) {
    accounts.nagios = nagios->pw_uid;
    accounts.nagios_group = nagios->pw_gid;
  } else {
    accounts.nagios = accounts.nagios_group = free_id(accounts.ibpm + 1);
  }
  return accounts;
}

// Whether every folder above `path` lets others through (the checks run as another user).
bool reachable_by_others(const fs::path& path) {
  for (fs::path p = path.parent_path(); !p.empty() && p != p.root_path(); p = p.parent_path()) {
    struct stat info {};
    if (::stat(p.c_str(), &info) != 0 || (info.st_mode & S_IXOTH) == 0) return false;
  }
  return true;
}

unsigned mode_of(const fs::path& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return 0;
  return info.st_mode & 07777;
}

unsigned owner_of(const fs::path& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return ~0u;
  return info.st_uid;
}

unsigned group_of(const fs::path& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return ~0u;
  return info.st_gid;
}

std::string octal(unsigned mode) {
  std::ostringstream out;
  out << std::oct << mode;
  return out.str();
}

// ibpm-rrdcached.service's ExecStart, its folders moved under `site`, split into words (the line
// has no quoting).
std::vector<std::string> unit_command(const fs::path& site) {
  std::ifstream unit(std::string(IBPM_SOURCE_DIR) + "/packaging/systemd/ibpm-rrdcached.service");
  std::string line;
  for (std::string l; std::getline(unit, l);)
    if (l.starts_with("ExecStart=")) line = l.substr(10);
  const auto replace_all = [&line](const std::string& from, const std::string& to) {
    for (std::size_t at = line.find(from); at != std::string::npos;
         at = line.find(from, at + to.size()))
      line.replace(at, from.size(), to);
  };
  replace_all("/run/ibpm", (site / "run").string());
  replace_all("/var/lib/ibpm", (site / "state").string());
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// The folders as the package makes them (postinst, RuntimeDirectory=), ibpm-rrdcached running
// over them as the user ibpm, and the checks run as the user nagios in the group ibpm.
class Site {
 public:
  Site(LiveFabric& live, const Accounts& accounts, const std::string& name)
      : live_(live), accounts_(accounts), dir_("site-" + name) {
    const fs::path& site = dir_.path();
    ::chmod(site.c_str(), 0755);
    make(site / "state", accounts.nagios, accounts.ibpm_group, 03775);
    make(site / "state" / "journal", accounts.ibpm, accounts.ibpm_group, 0750);
    make(site / "run", accounts.ibpm, accounts.ibpm_group, 0750);
    make(site / "clients", accounts.nagios, accounts.nagios_group, 0755);
    std::vector<std::string> argv{find_program("setpriv"),
                                  "--reuid=" + std::to_string(accounts.ibpm),
                                  "--regid=" + std::to_string(accounts.ibpm_group),
                                  "--clear-groups",
                                  "--",
                                  "sh",
                                  "-c",
                                  "umask 0002 && exec \"$@\"",
                                  "sh"};
    for (const std::string& word : unit_command(site)) argv.push_back(word);
    daemon_.emplace(argv, site / "rrdcached.log");
  }

  fs::path state() const { return dir_.path() / "state"; }
  std::string socket() const { return (dir_.path() / "run" / "rrdcached.sock").string(); }
  std::string daemon_log() const {
    std::ifstream in(dir_.path() / "rrdcached.log");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  bool wait_until_listening() {
    for (int i = 0; i < 250; ++i) {
      if (!daemon_->running()) return false;
      if (fs::is_socket(socket())) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  // bin/PROGRAM as Nagios runs it: the user nagios, its group and the group ibpm, umask 0022,
  // no RRDCACHED_ADDRESS of the test's (the daemon only where the arguments name it).
  ProcessRun check(const std::string& program, std::vector<std::string> args) {
    const std::string nagios = std::to_string(accounts_.nagios);
    std::vector<std::string> argv{find_program("setpriv"),
                                  "--reuid=" + nagios,
                                  "--regid=" + std::to_string(accounts_.nagios_group),
                                  "--groups=" + std::to_string(accounts_.ibpm_group),
                                  "--",
                                  "sh",
                                  "-c",
                                  "unset RRDCACHED_ADDRESS; umask 0022 && cd \"$0\" && exec \"$@\"",
                                  (dir_.path() / "clients").string(),
                                  bin(program),
                                  "--state-dir",
                                  state().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    ProcessRun run;
    run.exit_code = live_.fabric.run_client(argv, &run.out, &run.err);
    return run;
  }

  std::vector<std::string> through_daemon(std::vector<std::string> args) const {
    args.push_back("--rrdcached");
    args.push_back("unix:" + socket());
    return args;
  }

  // The daemon writes what it holds of `file` (as a site's reports would ask it to).
  bool flush(const std::string& file) {
    return run_process(
               {find_program("rrdtool"), "flushcached", "--daemon", "unix:" + socket(), file})
               .exit_code == 0;
  }

 private:
  static void make(const fs::path& dir, unsigned user, unsigned group, unsigned mode) {
    fs::create_directories(dir);
    REQUIRE(::chown(dir.c_str(), user, group) == 0);
    REQUIRE(::chmod(dir.c_str(), mode) == 0);
  }

  LiveFabric& live_;
  Accounts accounts_;
  TempDir dir_;
  std::optional<BackgroundProcess> daemon_;
};

// Every port judged: the check's exit code and no UNKNOWN anywhere in its output.
void require_judged(const ProcessRun& run, int expected = 0) {
  INFO(run.out << run.err);
  CHECK(run.exit_code == expected);
  CHECK(run.out.find("UNKNOWN") == std::string::npos);
  CHECK(run.out.find("Permission denied") == std::string::npos);
}

std::vector<std::string> sweep_args() { return {"--no-syslog"}; }
std::vector<std::string> port_args() { return {"-n", "leaf01", "-p", "3"}; }
std::vector<std::string> node_args() { return {"-n", "leaf02"}; }

}  // namespace site_rrdcached_live

using namespace site_rrdcached_live;

TEST_CASE("Checks run as nagios write through the packaged rrdcached run as ibpm, both ways") {
  IBPM_REQUIRE_SIMULATOR();
  if (::geteuid() != 0) IBPM_SKIP("needs root to run the daemon and the checks as other users");
  if (find_program("setpriv").empty()) IBPM_SKIP("setpriv is not installed (util-linux)");
  if (!fs::exists(kRrdcached) || find_program("rrdtool").empty())
    IBPM_SKIP("rrdcached or rrdtool is not installed (apt-get install rrdcached rrdtool)");
  if (!reachable_by_others(fs::temp_directory_path() / "x"))
    IBPM_SKIP("the temporary folder is not reachable by other users");
  LiveFabric live = LiveFabric::start();
  const std::optional<Accounts> found = site_accounts();
  if (!found) IBPM_SKIP("no group ibpm, and groupadd could not make it");
  const Accounts& accounts = *found;
  const std::string leaf01 = live.guid_of("leaf01");

  SECTION("files the checks made are written by the daemon") {
    Site site(live, accounts, "checks-first");
    if (!site.wait_until_listening()) FAIL("ibpm-rrdcached does not listen: " << site.daemon_log());
    // The checks alone first (no daemon yet in their configuration): they make the files.
    require_judged(site.check("check_ib_fabric", sweep_args()));
    const fs::path node = site.state() / leaf01;
    const fs::path rrd = node / "port3.rrd";
    REQUIRE(fs::exists(rrd));
    CHECK(owner_of(rrd) == accounts.nagios);
    // The folder's group policy: the daemon (group ibpm) may make and rewrite files there, and
    // no one may remove or replace another's (the sticky bit, as on the state folder).
    CHECK(octal(mode_of(node)) == "3775");
    CHECK(octal(mode_of(rrd)) == "664");
    // What the daemon never writes stays the checks' own.
    CHECK((mode_of(site.state() / "samples") & (S_IWGRP | S_IWOTH)) == 0);
    for (const auto& entry : fs::directory_iterator(site.state() / "samples")) {
      INFO(entry.path());
      CHECK((mode_of(entry.path()) & (S_IWGRP | S_IWOTH)) == 0);
    }
    const double direct = sample_time(rrd);
    // Then through the daemon: it writes the files the checks made.
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    require_judged(site.check("check_ib_fabric", site.through_daemon(sweep_args())));
    require_judged(site.check("check_ib_port", site.through_daemon(port_args())));
    require_judged(site.check("check_ib_node", site.through_daemon(node_args())));
    INFO(site.daemon_log());
    REQUIRE(site.flush(rrd.string()));
    CHECK(sample_time(rrd) > direct);
    CHECK(owner_of(rrd) == accounts.nagios);
  }

  SECTION("files the daemon made are read and flushed through it by the checks") {
    Site site(live, accounts, "daemon-first");
    if (!site.wait_until_listening()) FAIL("ibpm-rrdcached does not listen: " << site.daemon_log());
    // Through the daemon from the start: it makes the files, in the folders the checks made.
    require_judged(site.check("check_ib_fabric", site.through_daemon(sweep_args())));
    const fs::path node = site.state() / leaf01;
    const fs::path rrd = node / "port3.rrd";
    INFO(site.daemon_log());
    REQUIRE(site.flush(rrd.string()));
    REQUIRE(fs::exists(rrd));
    CHECK(owner_of(node) == accounts.nagios);
    CHECK(octal(mode_of(node)) == "3775");
    CHECK(owner_of(rrd) == accounts.ibpm);
    CHECK(group_of(rrd) == accounts.ibpm_group);
    const double first = sample_time(rrd);
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    require_judged(site.check("check_ib_port", site.through_daemon(port_args())));
    require_judged(site.check("check_ib_node", site.through_daemon(node_args())));
    require_judged(site.check("check_ib_fabric", site.through_daemon(sweep_args())));
    REQUIRE(site.flush(rrd.string()));
    CHECK(sample_time(rrd) > first);
  }
}
