// SPDX-License-Identifier: MIT
// The tries a MadEngine run has in flight, found by transaction id without a map.
//
// A fixed array of slots (the window rounded up to a power of two), allocated once per run. The
// table gives each try its transaction id: the next number above the last one it gave whose low
// bits are the slot's index, so a reply's id names its slot and the full id, stored in the slot,
// tells the current try from a late, duplicate or foreign reply. Ids keep rising across runs
// (`last_tid` belongs to the engine), so one is not given again before the 32 bits wrap, which
// takes at least 2^32 / capacity tries; 0 is never given.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

namespace ibpm::mad {

template <typename Item>
class InFlightTable {
 public:
  InFlightTable(std::size_t window, std::uint32_t& last_tid)
      : slots_(std::bit_ceil(std::max<std::size_t>(1, window))),
        mask_(static_cast<std::uint32_t>(slots_.size() - 1)),
        last_tid_(last_tid) {
    free_.reserve(slots_.size());
    // Taken from the back: slot 0 first.
    for (std::size_t slot = slots_.size(); slot-- > 0;) free_.push_back(slot);
  }

  std::size_t capacity() const { return slots_.size(); }
  std::size_t size() const { return slots_.size() - free_.size(); }
  bool empty() const { return size() == 0; }

  // Takes a free slot (there must be one: size() < capacity()); its item is reset and has no id.
  std::size_t acquire() {
    const std::size_t slot = free_.back();
    free_.pop_back();
    slots_[slot] = Slot{};
    slots_[slot].used = true;
    return slot;
  }

  void release(std::size_t slot) {
    slots_[slot].used = false;
    slots_[slot].tid = 0;
    free_.push_back(slot);
  }

  void clear() {
    for (std::size_t slot = 0; slot < slots_.size(); ++slot)
      if (slots_[slot].used) release(slot);
  }

  Item& operator[](std::size_t slot) { return slots_[slot].item; }
  const Item& operator[](std::size_t slot) const { return slots_[slot].item; }

  // A new transaction id for the slot's next try; the id it had before is no longer found.
  std::uint32_t assign_tid(std::size_t slot) {
    std::uint32_t tid = last_tid_ + 1;
    tid += (static_cast<std::uint32_t>(slot) - tid) & mask_;
    if (tid == 0) tid += mask_ + 1;  // the 32 bits wrapped
    last_tid_ = tid;
    slots_[slot].tid = tid;
    return tid;
  }

  // The slot whose current try has this id; none for an id no try in flight has.
  std::optional<std::size_t> find(std::uint32_t tid) const {
    const std::size_t slot = tid & mask_;
    if (tid == 0 || !slots_[slot].used || slots_[slot].tid != tid) return std::nullopt;
    return slot;
  }

  // f(slot, item) for every slot in use, in slot order. f may release the slot it is given or
  // give it a new id, not acquire one.
  template <typename F>
  void for_each(F&& f) {
    for (std::size_t slot = 0; slot < slots_.size(); ++slot)
      if (slots_[slot].used) f(slot, slots_[slot].item);
  }
  template <typename F>
  void for_each(F&& f) const {
    for (std::size_t slot = 0; slot < slots_.size(); ++slot)
      if (slots_[slot].used) f(slot, slots_[slot].item);
  }

 private:
  struct Slot {
    Item item{};
    std::uint32_t tid = 0;  // the current try's id; 0 before the first
    bool used = false;
  };
  std::vector<Slot> slots_;
  std::vector<std::size_t> free_;  // slots not in use, the next one taken at the back
  std::uint32_t mask_;
  std::uint32_t& last_tid_;
};

}  // namespace ibpm::mad
