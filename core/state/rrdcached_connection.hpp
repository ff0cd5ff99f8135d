// SPDX-License-Identifier: MIT
// One connection to rrdcached for the exchanges librrd's client cannot do in one round trip
// (BATCH, pipelined LAST, INFO and FETCH): whole writes, answers read line by line. Every wait
// is bounded by one deadline for the whole exchange, and a line longer than any answer of the
// daemon's is an error, so a daemon that hangs or streams garbage costs neither time nor memory
// past those bounds.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace ibpm::state {

struct DaemonEndpoint;

class DaemonConnection {
 public:
  using Deadline = std::chrono::steady_clock::time_point;
  // The longest line accepted: a FETCH row of every data source is about 600 octets.
  static constexpr std::size_t kMaxLine = 64 * 1024;

  // `address` as rrdcached's -l takes it: "unix:/path", "/path", "host" or "host:port" (42217
  // by default). Throws StateError("rrdcached at ADDRESS: reason").
  DaemonConnection(const std::string& address, Deadline deadline);
  ~DaemonConnection();
  DaemonConnection(const DaemonConnection&) = delete;
  DaemonConnection& operator=(const DaemonConnection&) = delete;

  void send_all(const std::string& bytes);
  std::string read_line();
  const std::string& address() const { return address_; }

  // For full-duplex exchanges (see pipeline()): wait until the socket can be read or, when
  // `want_write`, written (true: writable); send what the socket takes of bytes[offset..] now;
  // read what has arrived; take one whole line already received (false when there is none).
  bool wait(bool want_write);
  void send_some(const std::string& bytes, std::size_t& offset);
  void receive();
  bool next_line(std::string& line);
  // Let wait() return for reading only once `bytes` octets have arrived (SO_RCVLOWAT; TCP honours
  // it): a daemon that answers each of thousands of commands with a write of its own then wakes
  // the client once per many answers, not once per answer. Never more than what is sure to come.
  void wake_after(std::size_t bytes);
  std::size_t reads() const { return reads_; }  // reads from the socket that brought octets

  [[noreturn]] void fail(const std::string& reason) const;

 private:
  void connect_unix(const std::string& path);
  void connect_tcp(const DaemonEndpoint& endpoint);

  std::string address_;
  Deadline deadline_;
  std::chrono::steady_clock::time_point opened_;
  std::string buffer_;
  std::size_t head_ = 0;     // where the next line starts in buffer_
  std::size_t scanned_ = 0;  // buffer_ up to here holds no newline after head_
  std::size_t low_water_ = 1;
  std::size_t reads_ = 0;
  int fd_ = -1;
};

// "N message": the daemon's status (negative: the command failed) and its text; -1 for a line
// that is not an answer.
int daemon_status(const std::string& line, std::string& text);

// A file name as the daemon's command parser reads it (spaces and backslashes escaped), appended
// to the command being written.
void append_daemon_escaped(std::string& out, std::string_view path);

}  // namespace ibpm::state
