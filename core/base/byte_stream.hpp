// SPDX-License-Identifier: MIT
// Numbers, doubles and texts as bytes and back, little-endian whatever the machine, so a file
// written on one machine reads the same on another. The reader checks every read against what is
// left and throws BytesTooShort instead of reading past the end.
#pragma once

#include <bit>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ibpm::base {

// A read past the end of the bytes, or a length that goes past it.
struct BytesTooShort : std::runtime_error {
  BytesTooShort();
};

class ByteWriter {
 public:
  // Appends to `out`.
  explicit ByteWriter(std::string& out) : out_(out) {}

  // `value` in sizeof(T) bytes.
  template <std::unsigned_integral T>
  void put(T value) {
    if constexpr (std::endian::native != std::endian::little) {
      for (std::size_t i = 0; i < sizeof value; ++i)
        out_.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
    } else {
      out_.append(reinterpret_cast<const char*>(&value), sizeof value);
    }
  }
  // The low `size` bytes (1 to 8) of `value`.
  void put_uint(std::uint64_t value, int size);
  // The IEEE 754 bits of `value` in 8 bytes.
  void put_double(double value) { put(std::bit_cast<std::uint64_t>(value)); }
  // `bytes` as they are (no length: the reader must know it).
  void put_bytes(std::string_view bytes) { out_.append(bytes); }
  // A 4-byte length, then the text (std::length_error from 4 GiB on).
  void put_text(std::string_view text);

 private:
  std::string& out_;
};

// Reads what a ByteWriter wrote, front to back, from bytes that outlive it.
class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}

  template <std::unsigned_integral T>
  T get() {
    const char* at = take(sizeof(T));
    T value = 0;
    if constexpr (std::endian::native != std::endian::little) {
      for (std::size_t i = 0; i < sizeof value; ++i)
        value |= static_cast<T>(T{static_cast<unsigned char>(at[i])} << (8 * i));
    } else {
      std::memcpy(&value, at, sizeof value);
    }
    return value;
  }
  // A number of `size` bytes (1 to 8).
  std::uint64_t get_uint(int size);
  double get_double() { return std::bit_cast<double>(get<std::uint64_t>()); }
  // The next `size` bytes, a view into the reader's bytes.
  std::string_view get_bytes(std::size_t size) { return {take(size), size}; }
  // What put_text wrote.
  std::string get_text() { return std::string(get_bytes(get<std::uint32_t>())); }

  std::size_t remaining() const { return bytes_.size() - at_; }
  bool done() const { return at_ == bytes_.size(); }

 private:
  const char* take(std::size_t size) {
    if (size > bytes_.size() - at_) too_short();
    const char* at = bytes_.data() + at_;
    at_ += size;
    return at;
  }
  [[noreturn]] static void too_short();

  std::string_view bytes_;
  std::size_t at_ = 0;
};

}  // namespace ibpm::base
