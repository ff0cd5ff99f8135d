// SPDX-License-Identifier: MIT

#include "products/nagios_spool.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <regex>
#include <set>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "base/temporary.hpp"

namespace ibpm::products {

namespace {

std::string seconds(double epoch) {
  char text[40];
  std::snprintf(text, sizeof text, "%.6f", epoch);
  return text;
}

// A name-safe field: the generator's object names have no control characters; should one come,
// it must not end the line.
std::string field(const std::string& value) {
  std::string out;
  for (const char c : value) out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
  return out;
}

std::runtime_error failure(const std::string& what, const std::string& path, int error) {
  return std::runtime_error(what + " " + path + ": " + std::strerror(error));
}

}  // namespace

std::string spool_output(const std::string& output) {
  std::string out;
  out.reserve(output.size());
  std::string text = output;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  for (const char c : text) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string checkresult_text(const std::vector<PassiveResult>& results, double start, double finish,
                             double file_time) {
  std::string text = "### Active Check Result File ###\nfile_time=" +
                     std::to_string(static_cast<long long>(file_time)) + "\n";
  for (const PassiveResult& r : results) {
    text += "\n### Nagios Service Check Result ###\n";
    text += "host_name=" + field(r.host) + "\n";
    text += "service_description=" + field(r.service) + "\n";
    text += "check_type=1\ncheck_options=0\nscheduled_check=0\nreschedule_check=0\n";
    text += "latency=0.000000\n";
    text += "start_time=" + seconds(start) + "\nfinish_time=" + seconds(finish) + "\n";
    text += "early_timeout=0\nexited_ok=1\n";
    text += "return_code=" + std::to_string(plugin::exit_code(r.state)) + "\n";
    text += "output=" + spool_output(r.output) + "\n";
  }
  return text;
}

namespace {

// The temporaries of earlier results (".cXXXXXX.tmp-YYYYYY", replace_file_with's) that a killed run
// left: each named for its own random result file, so the writer of this one never meets them.
void remove_stale_result_temporaries(const std::string& dir) {
  static const std::regex temporary(R"(^\.c[A-Za-z0-9]{6}\.tmp-[A-Za-z0-9]{6}$)");
  std::set<std::string> prefixes;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (std::regex_match(name, temporary)) prefixes.insert(name.substr(0, name.size() - 6));
  }
  for (const std::string& prefix : prefixes) base::remove_unheld(dir, prefix, 600);
}

}  // namespace

std::string write_checkresult_file(const std::string& dir,
                                   const std::vector<PassiveResult>& results, double start,
                                   double finish) {
  // The name first: mkstemp makes it ours (an empty file the reaper skips: no marker yet).
  std::string path = dir + "/cXXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) throw failure("cannot create a check result file in", dir, errno);
  ::close(fd);
  try {
    const std::string text =
        checkresult_text(results, start, finish, static_cast<double>(std::time(nullptr)));
    base::replace_file_with(path, [&](std::ostream& out) { out << text; });
    const std::string marker = path + ".ok";
    const int ok = ::open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (ok < 0) throw failure("cannot create", marker, errno);
    ::close(ok);
  } catch (...) {
    ::unlink(path.c_str());
    throw;
  }
  remove_stale_result_temporaries(dir);
  return path;
}

}  // namespace ibpm::products
