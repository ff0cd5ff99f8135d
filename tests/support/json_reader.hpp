// SPDX-License-Identifier: MIT
// A strict, minimal JSON reader for tests: enough to check that rendered JSON is
// well-formed and to look at its structure instead of matching it with regexes.
#pragma once

#include <charconv>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ibpm::test {

struct Json {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;

  const Json& operator[](std::string_view key) const {
    if (kind != Kind::object) throw std::runtime_error("not an object");
    for (const auto& [name, value] : members)
      if (name == key) return value;
    throw std::runtime_error("no member " + std::string(key));
  }
  const Json& operator[](std::size_t index) const {
    if (kind != Kind::array || index >= items.size()) throw std::runtime_error("bad index");
    return items[index];
  }
  bool has(std::string_view key) const {
    for (const auto& member : members)
      if (member.first == key) return true;
    return false;
  }
};

class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : text_(text) {}

  Json document() {
    Json value = read_value();
    skip_space();
    if (pos_ != text_.size()) fail("trailing characters");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(pos_));
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\t'))
      ++pos_;
  }
  char peek() {
    if (pos_ >= text_.size()) fail("unexpected end");
    return text_[pos_];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Json read_value() {
    skip_space();
    Json value;
    const char c = peek();
    if (c == '{') {
      value.kind = Json::Kind::object;
      ++pos_;
      skip_space();
      if (peek() == '}') return ++pos_, value;
      for (;;) {
        skip_space();
        std::string key = read_string();
        skip_space();
        expect(':');
        value.members.emplace_back(std::move(key), read_value());
        skip_space();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        expect('}');
        return value;
      }
    }
    if (c == '[') {
      value.kind = Json::Kind::array;
      ++pos_;
      skip_space();
      if (peek() == ']') return ++pos_, value;
      for (;;) {
        value.items.push_back(read_value());
        skip_space();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        expect(']');
        return value;
      }
    }
    if (c == '"') {
      value.kind = Json::Kind::string;
      value.string = read_string();
      return value;
    }
    if (literal("null")) return value;
    if (literal("true")) {
      value.kind = Json::Kind::boolean;
      value.boolean = true;
      return value;
    }
    if (literal("false")) {
      value.kind = Json::Kind::boolean;
      return value;
    }
    value.kind = Json::Kind::number;
    const char* begin = text_.data() + pos_;
    if (*begin != '-' && !(*begin >= '0' && *begin <= '9')) fail("unexpected character");
    auto [end, ec] = std::from_chars(begin, text_.data() + text_.size(), value.number);
    if (ec != std::errc{}) fail("bad number");
    pos_ += static_cast<std::size_t>(end - begin);
    return value;
  }

  unsigned hex4() {
    if (pos_ + 4 > text_.size()) fail("short \\u escape");
    unsigned v = 0;
    auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + pos_ + 4, v, 16);
    if (ec != std::errc{} || end != text_.data() + pos_ + 4) fail("bad \\u escape");
    pos_ += 4;
    return v;
  }

  static void append_utf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string read_string() {
    expect('"');
    std::string out;
    for (;;) {
      const char c = peek();
      ++pos_;
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("raw control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      const char e = peek();
      ++pos_;
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          char32_t cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (!literal("\\u")) fail("lone high surrogate");
            const char32_t low = hex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("bad low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(out, cp);
          break;
        }
        default:
          fail("bad escape");
      }
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

inline Json parse_json(std::string_view text) { return JsonReader(text).document(); }

}  // namespace ibpm::test
