// SPDX-License-Identifier: MIT
// A text that is nearly always empty (why a port was not read, why its state file failed): one
// pointer, 8 bytes, where a std::string takes 32 in every port's result.
#pragma once

#include <memory>
#include <string>
#include <utility>

namespace ibpm::base {

class RareText {
 public:
  RareText() = default;
  RareText(std::string text) { *this = std::move(text); }
  RareText(const char* text) : RareText(std::string(text)) {}
  RareText(const RareText& other) : RareText(other.str()) {}
  RareText(RareText&&) noexcept = default;
  RareText& operator=(const RareText& other) { return *this = other.str(); }
  RareText& operator=(RareText&&) noexcept = default;
  RareText& operator=(const char* text) { return *this = std::string(text); }
  RareText& operator=(std::string text) {
    if (text.empty())
      text_.reset();
    else
      text_ = std::make_unique<std::string>(std::move(text));
    return *this;
  }

  bool empty() const { return !text_; }
  const std::string& str() const { return text_ ? *text_ : empty_text(); }
  operator const std::string&() const { return str(); }

  friend bool operator==(const RareText& a, const RareText& b) { return a.str() == b.str(); }
  // Concatenation as with a std::string (whose operator+ templates see no conversion).
  friend std::string operator+(std::string a, const RareText& b) { return a += b.str(); }
  friend std::string operator+(const char* a, const RareText& b) { return a + b.str(); }
  friend std::string operator+(const RareText& a, const std::string& b) { return a.str() + b; }
  friend std::string operator+(const RareText& a, const char* b) { return a.str() + b; }

 private:
  static const std::string& empty_text() {
    static const std::string empty;
    return empty;
  }
  std::unique_ptr<std::string> text_;
};

}  // namespace ibpm::base
