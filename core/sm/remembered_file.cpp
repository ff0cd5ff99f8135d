// SPDX-License-Identifier: MIT

#include "sm/remembered_file.hpp"

#include <sstream>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "base/regular_file.hpp"
#include "base/text.hpp"

namespace ibpm::sm {

namespace {

long long to_ms(Clock::time_point time) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
}

Clock::time_point from_ms(long long ms) {
  return Clock::time_point(
      std::chrono::duration_cast<Clock::duration>(std::chrono::milliseconds(ms)));
}

std::string sm_fields(const SmSeen& sm) {
  return format_guid(sm.port_guid) + " " + std::to_string(sm.lid) + " " +
         std::to_string(sm.priority) + " " + std::to_string(sm.state);
}

SmSeen parse_sm(std::istringstream& in, bool with_count) {
  SmSeen sm;
  std::string guid;
  in >> guid >> sm.lid >> sm.priority >> sm.state;
  if (with_count) {
    std::uint32_t count = 0;
    in >> count;
    sm.act_count = count;
  }
  if (!in) throw std::runtime_error("malformed SM line");
  const auto parsed = parse_guid(guid);
  if (!parsed) throw std::runtime_error("malformed GUID " + base::one_line(guid));
  sm.port_guid = *parsed;
  std::getline(in >> std::ws, sm.name);
  return sm;
}

}  // namespace

std::string format_remembered(const Remembered& r) {
  std::string text = "ibpm-sm 1\n";
  text += "sampled " + std::to_string(to_ms(r.sampled)) + "\n";
  text += "moved " + std::to_string(to_ms(r.moved)) + "\n";
  if (r.master)
    text += "master " + sm_fields(*r.master) + " " +
            std::to_string(r.master->act_count.value_or(0)) + " " + base::one_line(r.master->name) +
            "\n";
  for (const SmSeen& sm : r.sms)
    text += "sm " + sm_fields(sm) + " " + base::one_line(sm.name) + "\n";
  return text;
}

Remembered parse_remembered(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  if (!std::getline(lines, line) || line != "ibpm-sm 1")
    throw std::runtime_error("not an ibpm-sm 1 file");
  Remembered r;
  while (std::getline(lines, line)) {
    std::istringstream in(line);
    std::string key;
    in >> key;
    long long ms = 0;
    if (key == "sampled" && in >> ms) {
      r.sampled = from_ms(ms);
    } else if (key == "moved" && in >> ms) {
      r.moved = from_ms(ms);
    } else if (key == "master") {
      r.master = parse_sm(in, true);
    } else if (key == "sm") {
      SmSeen sm = parse_sm(in, false);
      r.sms.push_back(std::move(sm));
    } else {
      throw std::runtime_error("unexpected line '" + base::one_line(line) + "'");
    }
  }
  return r;
}

std::optional<Remembered> read_remembered(const std::string& path) {
  std::string text;
  {
    const base::FileDescriptor file(
        base::open_existing_regular_file(path, base::FinalLink::refuse));
    if (file.fd < 0) return std::nullopt;
    // One byte more than the bound: a file that grew since it was measured is refused as well.
    const unsigned long long size = base::file_size(file.fd);
    if (size <= kMaxRememberedBytes)
      text = base::read_bytes(file.fd, 0, kMaxRememberedBytes + 1, path);
    if (size > kMaxRememberedBytes || text.size() > kMaxRememberedBytes)
      throw std::runtime_error(path + ": larger than " + std::to_string(kMaxRememberedBytes) +
                               " bytes, not an ibpm-sm file");
  }
  try {
    return parse_remembered(text);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

Recalled recall_remembered(const std::string& path) {
  Recalled recalled;
  try {
    recalled.remembered = read_remembered(path);
  } catch (const std::exception& e) {
    recalled.problem = e.what();
  }
  return recalled;
}

void write_remembered(const std::string& path, const Remembered& remembered) {
  base::replace_file_with(path, [&](std::ostream& out) { out << format_remembered(remembered); });
}

}  // namespace ibpm::sm
