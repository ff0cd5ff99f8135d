// SPDX-License-Identifier: MIT
// A fixed array of optional values stored as one bit mask (which are set) and a plain array,
// instead of an array of std::optional: an optional<uint64_t> takes 16 bytes, so the 17 counters
// of a reading take 144 bytes here instead of 272. Reads give std::optional<T> by value; writes
// through operator[] take a T, an optional or std::nullopt, so code written for an array of
// optionals reads the same.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace ibpm::counters {

template <typename T, std::size_t N>
class OptionalArray {
  static_assert(N <= 32, "the mask holds 32 entries");

 public:
  using Mask = std::uint32_t;

  // What operator[] gives on a mutable array: assignable, and read like a std::optional.
  class Ref {
   public:
    Ref(OptionalArray& array, std::size_t index) : array_(array), index_(index) {}
    Ref(const Ref&) = default;
    Ref& operator=(const T& value) {
      array_.set(index_, value);
      return *this;
    }
    Ref& operator=(std::nullopt_t) {
      array_.reset(index_);
      return *this;
    }
    Ref& operator=(const std::optional<T>& value) {
      if (value)
        array_.set(index_, *value);
      else
        array_.reset(index_);
      return *this;
    }
    Ref& operator=(const Ref& other) { return *this = other.get(); }

    std::optional<T> get() const { return array_.get(index_); }
    operator std::optional<T>() const { return get(); }
    bool has_value() const { return array_.has(index_); }
    explicit operator bool() const { return has_value(); }
    const T& operator*() const { return array_.values_[index_]; }
    const T* operator->() const { return &array_.values_[index_]; }
    T value_or(const T& otherwise) const { return has_value() ? **this : otherwise; }
    void reset() { array_.reset(index_); }

    friend bool operator==(const Ref& a, const std::optional<T>& b) { return a.get() == b; }
    friend bool operator==(const Ref& a, const Ref& b) { return a.get() == b.get(); }

   private:
    OptionalArray& array_;
    std::size_t index_;
  };

  static constexpr std::size_t size() { return N; }

  std::optional<T> operator[](std::size_t i) const { return get(i); }
  Ref operator[](std::size_t i) { return Ref(*this, i); }

  bool has(std::size_t i) const { return mask_ & bit(i); }
  std::optional<T> get(std::size_t i) const {
    if (!has(i)) return std::nullopt;
    return values_[i];
  }
  void set(std::size_t i, const T& value) {
    values_[i] = value;
    mask_ |= bit(i);
  }
  void reset(std::size_t i) {
    values_[i] = T{};
    mask_ &= ~bit(i);
  }
  // Bit i: entry i is set.
  Mask mask() const { return mask_; }

  // Iteration: each entry as a Ref (bind it with auto&&), or read-only as a std::optional<T>.
  class iterator {
   public:
    iterator(OptionalArray& array, std::size_t index) : array_(&array), index_(index) {}
    Ref operator*() const { return Ref(*array_, index_); }
    iterator& operator++() {
      ++index_;
      return *this;
    }
    bool operator==(const iterator& other) const { return index_ == other.index_; }

   private:
    OptionalArray* array_;
    std::size_t index_;
  };
  iterator begin() { return {*this, 0}; }
  iterator end() { return {*this, N}; }

  class const_iterator {
   public:
    const_iterator(const OptionalArray& array, std::size_t index) : array_(&array), index_(index) {}
    std::optional<T> operator*() const { return array_->get(index_); }
    const_iterator& operator++() {
      ++index_;
      return *this;
    }
    bool operator==(const const_iterator& other) const { return index_ == other.index_; }

   private:
    const OptionalArray* array_;
    std::size_t index_;
  };
  const_iterator begin() const { return {*this, 0}; }
  const_iterator end() const { return {*this, N}; }

  // Unset entries hold T{} (reset() and the default keep them so), so the arrays compare whole.
  friend bool operator==(const OptionalArray&, const OptionalArray&) = default;

 private:
  static constexpr Mask bit(std::size_t i) { return Mask{1} << i; }

  Mask mask_ = 0;
  std::array<T, N> values_{};
};

}  // namespace ibpm::counters
