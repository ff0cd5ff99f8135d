// Runs a piece of code in a forked child with its address space and CPU time capped, so a test
// can show that a loader stays bounded on hostile input (and survive it when it does not).
#pragma once

#include <functional>
#include <string>

namespace ibpm::test {

struct ChildOutcome {
  enum class Kind { returned, threw, killed } kind = Kind::killed;
  std::string message;  // what work returned, what() of its exception, or the signal's name
  bool ok() const { return kind != Kind::killed; }
};

struct ChildLimits {
  std::size_t extra_memory = std::size_t{256} << 20;  // over what the process already maps
  unsigned seconds = 5;
};

// `work` returns a report or throws std::exception; anything else (a signal, std::bad_alloc, the
// alarm, the memory cap) is `killed`. `work` may call alarm() again to give each of several
// steps its own time. Under AddressSanitizer the memory cap is left out (its
// shadow memory needs terabytes of address space); the time cap stays.
ChildOutcome run_bounded(const std::function<std::string()>& work, ChildLimits limits = {});

}  // namespace ibpm::test
