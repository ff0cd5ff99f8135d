// SPDX-License-Identifier: MIT
// A double that may be unknown, in 8 bytes instead of std::optional<double>'s 16: NaN stands for
// no value. For values that are never NaN themselves (percentages of finite rates). Reads like a
// std::optional<double> and converts to one; takes a double, an optional or std::nullopt.
#pragma once

#include <limits>
#include <optional>

namespace ibpm::counters {

class OptionalDouble {
 public:
  OptionalDouble() = default;
  OptionalDouble(double value) : value_(value) {}  // assigned like an optional
  OptionalDouble(std::nullopt_t) {}
  OptionalDouble(const std::optional<double>& value) : value_(value ? *value : kNone) {}

  bool has_value() const { return value_ == value_; }  // false only for NaN
  explicit operator bool() const { return has_value(); }
  double operator*() const { return value_; }
  double value_or(double otherwise) const { return has_value() ? value_ : otherwise; }
  void reset() { value_ = kNone; }
  operator std::optional<double>() const {
    if (!has_value()) return std::nullopt;
    return value_;
  }

 private:
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  double value_ = kNone;
};

}  // namespace ibpm::counters
