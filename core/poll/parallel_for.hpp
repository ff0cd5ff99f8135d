// Spreading independent file work (one RRD file per port) over the machine's cores: a sweep
// reads and writes thousands of files, each mostly system calls.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace ibpm::poll {

// Calls work(i) for every i in [0, count), on up to `threads` threads (the caller's included),
// each taking the next index. The first exception thrown is rethrown once all have stopped.
template <typename Work>
void parallel_for(std::size_t count, unsigned threads, Work&& work) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto run = [&] {
    for (std::size_t i; (i = next++) < count;) {
      try {
        work(i);
      } catch (...) {
        const std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = count;
      }
    }
  };
  std::vector<std::thread> helpers;
  const std::size_t extra = std::min<std::size_t>(threads > 0 ? threads - 1 : 0, count / 2);
  for (std::size_t t = 0; t < extra; ++t) helpers.emplace_back(run);
  run();
  for (std::thread& helper : helpers) helper.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace ibpm::poll
