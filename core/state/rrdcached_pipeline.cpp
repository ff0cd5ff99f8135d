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
  constexpr std::size_t kChunk = 256 * 1024;
  std::string chunk;
  DaemonAnswer answer;
  std::size_t answered = 0;
  for (std::size_t i = 0; i < count; ++i) {
    write_command(i, chunk);
    chunk += '\n';
    ++cost.commands;
    if (chunk.size() < kChunk && i + 1 < count) continue;
    daemon.send_all(chunk);
    chunk.clear();
    ++cost.round_trips;
    for (; answered <= i; ++answered) {
      answer.lines.clear();
      answer.status = daemon_status(daemon.read_line(), answer.message);
      std::size_t size = 0;
      for (int line = 0; line < answer.status; ++line) {
        answer.lines.push_back(daemon.read_line());
        size += answer.lines.back().size() + 1;
        if (size > kMaxAnswer)
          daemon.fail("an answer larger than " + std::to_string(kMaxAnswer) + " octets");
      }
      on_answer(answered, answer);
    }
  }
  ExchangeCount& totals = exchange_totals();
  totals.connections += cost.connections;
  totals.round_trips += cost.round_trips;
  totals.commands += cost.commands;
  return cost;
}

}  // namespace ibpm::state
