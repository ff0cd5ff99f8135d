// SPDX-License-Identifier: MIT

#include "state/rrdcached_pipeline.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>

namespace ibpm::state {

namespace {
std::mutex& totals_mutex() {
  static std::mutex mutex;
  return mutex;
}
}  // namespace

ExchangeCount& exchange_totals() {
  static ExchangeCount totals;
  return totals;
}

std::size_t connections_for(std::size_t count) {
  constexpr std::size_t kPerConnection = 4000;
  return std::clamp<std::size_t>(count / kPerConnection, 1, 4);
}

void in_slices(std::size_t count, std::size_t slices,
               const std::function<void(std::size_t, std::size_t)>& fn) {
  slices = std::clamp<std::size_t>(slices, 1, std::max<std::size_t>(count, 1));
  if (slices == 1) return fn(0, count);
  std::vector<std::exception_ptr> failures(slices);
  {
    std::vector<std::jthread> threads;
    for (std::size_t s = 0; s < slices; ++s)
      threads.emplace_back([&, s] {
        try {
          fn(count * s / slices, count * (s + 1) / slices);
        } catch (...) {
          failures[s] = std::current_exception();
        }
      });
  }
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
}

ExchangeCount pipeline(const std::string& address, std::size_t count,
                       const std::function<void(std::size_t, std::string&)>& write_command,
                       const std::function<void(std::size_t, const DaemonAnswer&)>& on_answer,
                       DaemonConnection::Deadline deadline, const LineFilter& keep_line) {
  ExchangeCount cost;
  if (count == 0) return cost;
  DaemonConnection daemon(address, deadline);
  ++cost.connections;
  // Full duplex: the commands go out while the answers come in. Writing everything first would
  // deadlock once the daemon's answers (an INFO is several kilobytes) fill the socket while it
  // waits for us to read them, and we wait for it to read our commands.
  constexpr std::size_t kChunk = 256 * 1024;
  std::string out;
  std::size_t offset = 0, written = 0, answered = 0;
  DaemonAnswer answer;
  bool in_answer = false;  // the status line of `answer` is read, its lines are coming
  std::size_t answer_size = 0;
  std::size_t answer_lines = 0;  // lines of `answer` received, kept or not
  std::string line;
  bool waiting_only = false;
  while (answered < count) {
    if (offset == out.size()) {
      out.clear();
      offset = 0;
    }
    for (; written < count && out.size() - offset < kChunk; ++written) {
      write_command(written, out);
      out += '\n';
      ++cost.commands;
    }
    const bool want_write = offset < out.size();
    if (!want_write && !waiting_only) ++cost.round_trips;  // every command sent: wait for the rest
    waiting_only = !want_write;
    // Every answer is at least a digit and a newline, and the one under way has an octet to come.
    if (waiting_only) daemon.wake_after(2 * (count - answered - 1) + 1);
    if (daemon.wait(want_write)) daemon.send_some(out, offset);
    daemon.receive();
    while (answered < count && daemon.next_line(line)) {
      if (!in_answer) {
        answer.lines.clear();
        answer.status = daemon_status(line, answer.message);
        answer_size = 0;
        answer_lines = 0;
        in_answer = true;
      } else {
        answer_size += line.size() + 1;
        ++answer_lines;
        if (answer_size > kMaxAnswer)
          daemon.fail("an answer larger than " + std::to_string(kMaxAnswer) + " octets");
        if (!keep_line || keep_line(line)) answer.lines.push_back(std::move(line));
      }
      if (answer.status > 0 && answer_lines < static_cast<std::size_t>(answer.status)) continue;
      in_answer = false;
      on_answer(answered++, answer);
    }
  }
  cost.reads = daemon.reads();
  const std::lock_guard<std::mutex> lock(totals_mutex());
  ExchangeCount& totals = exchange_totals();
  totals.connections += cost.connections;
  totals.round_trips += cost.round_trips;
  totals.commands += cost.commands;
  totals.reads += cost.reads;
  return cost;
}

}  // namespace ibpm::state
