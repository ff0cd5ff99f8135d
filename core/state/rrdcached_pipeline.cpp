#include "state/rrdcached_pipeline.hpp"

namespace ibpm::state {

ExchangeCount& exchange_totals() {
  static ExchangeCount totals;
  return totals;
}

ExchangeCount pipeline(const std::string& address, std::size_t count,
                       const std::function<void(std::size_t, std::string&)>& write_command,
                       const std::function<void(std::size_t, const DaemonAnswer&)>& on_answer,
                       DaemonConnection::Deadline deadline) {
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
    if (daemon.wait(want_write)) daemon.send_some(out, offset);
    daemon.receive();
    while (answered < count && daemon.next_line(line)) {
      if (!in_answer) {
        answer.lines.clear();
        answer.status = daemon_status(line, answer.message);
        answer_size = 0;
        in_answer = true;
      } else {
        answer_size += line.size() + 1;
        if (answer_size > kMaxAnswer)
          daemon.fail("an answer larger than " + std::to_string(kMaxAnswer) + " octets");
        answer.lines.push_back(std::move(line));
      }
      if (answer.status > 0 && answer.lines.size() < static_cast<std::size_t>(answer.status))
        continue;
      in_answer = false;
      on_answer(answered++, answer);
    }
  }
  ExchangeCount& totals = exchange_totals();
  totals.connections += cost.connections;
  totals.round_trips += cost.round_trips;
  totals.commands += cost.commands;
  return cost;
}

}  // namespace ibpm::state
