// SPDX-License-Identifier: MIT

#include "umad_reader.hpp"

#include <infiniband/umad.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "mad/mad_engine.hpp"

namespace ibpm::events {

struct UmadReader::Shared {
  std::shared_ptr<const mad::UmadPort> port;
  int event_fd = -1;
  mutable std::mutex mutex;
  std::deque<std::vector<std::uint8_t>> packets;
  std::string error;
};

namespace {

// An SA table the kernel reassembled can be many MADs long; past this it is not ours to read.
constexpr int kLongestAnswer = 1 << 20;

void wake(const UmadReader::Shared& shared) {
  const std::uint64_t one = 1;
  [[maybe_unused]] const ssize_t written = ::write(shared.event_fd, &one, sizeof one);
}

void read_forever(std::shared_ptr<UmadReader::Shared> shared) {
  std::vector<std::uint8_t> buffer(umad_size() + mad::kMadSize);
  for (;;) {
    int length = static_cast<int>(buffer.size() - umad_size());
    const int got = umad_recv(shared->port->fd(), buffer.data(), &length, -1);
    if (got == -ENOSPC && length > 0 && length <= kLongestAnswer) {
      buffer.resize(umad_size() + static_cast<std::size_t>(length));  // the kernel kept it
      continue;
    }
    if (got == -EINTR || got == -EAGAIN) continue;
    std::lock_guard lock(shared->mutex);
    if (got < 0) {
      shared->error =
          std::string("reading ") + shared->port->describe() + ": " + std::strerror(-got);
      wake(*shared);
      return;
    }
    shared->packets.emplace_back(
        buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(umad_size()) + length);
    wake(*shared);
  }
}

}  // namespace

UmadReader::UmadReader(std::shared_ptr<const mad::UmadPort> port)
    : shared_(std::make_shared<Shared>()) {
  shared_->port = std::move(port);
  shared_->event_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (shared_->event_fd < 0)
    throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
  std::thread(read_forever, shared_).detach();
}

UmadReader::~UmadReader() = default;

int UmadReader::fd() const { return shared_->event_fd; }

std::vector<std::vector<std::uint8_t>> UmadReader::take() {
  std::uint64_t count = 0;
  [[maybe_unused]] const ssize_t read = ::read(shared_->event_fd, &count, sizeof count);
  std::lock_guard lock(shared_->mutex);
  std::vector<std::vector<std::uint8_t>> packets(std::make_move_iterator(shared_->packets.begin()),
                                                 std::make_move_iterator(shared_->packets.end()));
  shared_->packets.clear();
  return packets;
}

std::string UmadReader::error() const {
  std::lock_guard lock(shared_->mutex);
  return shared_->error;
}

}  // namespace ibpm::events
