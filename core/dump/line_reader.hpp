// SPDX-License-Identifier: MIT
// Splits a stream into lines without reading it whole: a fixed-size buffer, lines handed out as
// string_views. Lines end at "\n", "\r\n" or a lone "\r" (terminal captures mix them). A UTF-8
// byte order mark at the very start is dropped.
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace ibpm::dump {

class LineReader {
 public:
  // Lines longer than this are cut; the rest up to the line end is discarded.
  static constexpr std::size_t kMaxLine = 64 * 1024;

  explicit LineReader(std::istream& in);

  // The next line without its terminator, valid until the next call; false at the end.
  bool next(std::string_view& line);

  // 1-based number of the line last returned, counting "\n" only (as grep -n and sed do), so the
  // pieces of a line split by lone "\r" share one number.
  std::size_t line_number() const { return line_number_; }

  // True when the line last returned was longer than kMaxLine and has been cut.
  bool truncated() const { return truncated_; }

  // True when the line last returned ended the input without a line end (a file cut short).
  bool unterminated() const { return unterminated_; }

 private:
  bool fill();  // moves the unread bytes to the front and reads more; false when nothing came
  void skip_rest_of_line();
  void consume_terminator();

  std::istream& in_;
  std::vector<char> buf_;
  std::string overflow_;  // holds a cut line while the rest of it is skipped
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  bool first_ = true;
  bool truncated_ = false;
  bool unterminated_ = false;
  std::size_t line_number_ = 0;
  std::size_t newlines_ = 0;  // "\n" consumed so far
};

}  // namespace ibpm::dump
