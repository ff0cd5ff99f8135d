// SPDX-License-Identifier: MIT

#include "dump/line_reader.hpp"

#include <cstring>

namespace ibpm::dump {

// Room for a line of kMaxLine bytes plus "\r\n", so such a line is never mistaken for a long one.
LineReader::LineReader(std::istream& in) : in_(in), buf_(kMaxLine + 2) {}

bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buf_.size()) return false;
  in_.read(buf_.data() + end_, static_cast<std::streamsize>(buf_.size() - end_));
  std::size_t got = static_cast<std::size_t>(in_.gcount());
  end_ += got;
  if (!in_) eof_ = true;
  return got > 0;
}

void LineReader::skip_rest_of_line() {
  for (;;) {
    for (std::size_t i = begin_; i < end_; ++i) {
      if (buf_[i] == '\n' || buf_[i] == '\r') {
        begin_ = i;
        return;
      }
    }
    begin_ = end_;
    if (!fill()) return;
  }
}

// Consumes the terminator at begin_ ("\n", "\r\n" or "\r"), counting "\n".
void LineReader::consume_terminator() {
  if (begin_ >= end_) return;
  if (buf_[begin_] == '\r') {
    ++begin_;
    if (begin_ == end_) fill();
    if (begin_ < end_ && buf_[begin_] == '\n') {
      ++begin_;
      ++newlines_;
    }
  } else {
    ++begin_;
    ++newlines_;
  }
}

bool LineReader::next(std::string_view& line) {
  truncated_ = false;
  unterminated_ = false;
  std::size_t scanned = begin_;
  for (;;) {
    std::size_t i = scanned;
    while (i < end_ && buf_[i] != '\n' && buf_[i] != '\r') ++i;
    if (i < end_) {
      line_number_ = newlines_ + 1;
      std::size_t length = i - begin_;
      if (length > kMaxLine) {
        overflow_.assign(buf_.data() + begin_, kMaxLine);
        line = overflow_;
        truncated_ = true;
      } else {
        // Copy out only when "\r" ends the buffer: consuming the "\n" after it may refill.
        line = std::string_view(buf_.data() + begin_, length);
        if (buf_[i] == '\r' && i + 1 == end_) {
          overflow_.assign(line);
          line = overflow_;
        }
      }
      begin_ = i;
      consume_terminator();
      break;
    }
    if (end_ - begin_ > kMaxLine) {
      line_number_ = newlines_ + 1;
      overflow_.assign(buf_.data() + begin_, kMaxLine);
      line = overflow_;
      truncated_ = true;
      begin_ += kMaxLine;
      skip_rest_of_line();
      consume_terminator();
      break;
    }
    std::size_t offset = end_ - begin_;
    if (!fill()) {
      if (begin_ == end_) return false;
      line_number_ = newlines_ + 1;  // last line without a terminator
      unterminated_ = true;
      line = std::string_view(buf_.data() + begin_, end_ - begin_);
      begin_ = end_;
      break;
    }
    scanned = begin_ + offset;
  }
  if (first_) {
    first_ = false;
    if (line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
  }
  return true;
}

}  // namespace ibpm::dump
