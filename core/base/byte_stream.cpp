// SPDX-License-Identifier: MIT
// The byte writer's and reader's out-of-line parts: sized numbers, texts, the error.

#include "base/byte_stream.hpp"

#include <limits>

namespace ibpm::base {

BytesTooShort::BytesTooShort() : std::runtime_error("bytes end before what they should hold") {}

void ByteWriter::put_uint(std::uint64_t value, int size) {
  if (size < 1 || size > 8) throw std::invalid_argument("put_uint: a size of 1 to 8 bytes");
  for (int i = 0; i < size; ++i) out_.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

void ByteWriter::put_text(std::string_view text) {
  if (text.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("put_text: a text of 4 GiB or more");
  put(static_cast<std::uint32_t>(text.size()));
  put_bytes(text);
}

std::uint64_t ByteReader::get_uint(int size) {
  if (size < 1 || size > 8) throw std::invalid_argument("get_uint: a size of 1 to 8 bytes");
  const char* at = take(static_cast<std::size_t>(size));
  std::uint64_t value = 0;
  for (int i = 0; i < size; ++i)
    value |= std::uint64_t{static_cast<unsigned char>(at[i])} << (8 * i);
  return value;
}

void ByteReader::too_short() { throw BytesTooShort(); }

}  // namespace ibpm::base
