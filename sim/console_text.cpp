// SPDX-License-Identifier: MIT

#include "sim/console_text.hpp"

#include <cctype>
#include <charconv>

#include "dump/text_scan.hpp"

namespace ibpm::sim {
namespace {

using dump::scan::trim;

template <typename F>
void for_each_line(std::string_view text, F&& f) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    f(text.substr(start, end - start));
    start = end + 1;
  }
}

bool starts_with_word(std::string_view command, std::string_view word) {
  command = dump::scan::trim(command);
  if (command.size() < word.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(command[i])) != word[i]) return false;
  return true;
}

int number_after(std::string_view text, std::string_view label) {
  auto at = text.find(label);
  if (at == std::string_view::npos) return -1;
  std::string_view rest = text.substr(at + label.size());
  int value = -1;
  std::from_chars(rest.data(), rest.data() + rest.size(), value);
  return value;
}

}  // namespace

std::string clean_console_reply(std::string_view raw, std::string_view marker) {
  if (auto at = raw.rfind(marker); at != std::string_view::npos) raw = raw.substr(0, at);
  // Prompts end each command's output without a newline: make them line breaks.
  std::string text;
  for (std::size_t i = 0; i < raw.size();) {
    if (raw.compare(i, 5, "sim> ") == 0) {
      text += '\n';
      i += 5;
    } else {
      text += raw[i++];
    }
  }
  std::string out;
  for_each_line(text, [&out](std::string_view line) {
    line = dump::scan::trim(line);
    if (line.empty()) return;
    out += line;
    out += '\n';
  });
  return out;
}

std::vector<std::string> console_errors(std::string_view reply,
                                        const std::vector<std::string>& commands) {
  bool own_hash_lines = false;
  std::vector<std::string_view> comments;
  for (const std::string& c : commands) {
    if (starts_with_word(c, "dump") || starts_with_word(c, "attached") ||
        starts_with_word(c, "help") || starts_with_word(c, "?") || starts_with_word(c, "!"))
      own_hash_lines = true;
    if (starts_with_word(c, "#")) comments.push_back(dump::scan::trim(c));
  }
  std::vector<std::string> errors;
  for_each_line(reply, [&](std::string_view line) {
    bool echoed = false;
    for (std::string_view c : comments)
      if (line == c) echoed = true;
    if (echoed) return;
    bool failure = line.find("unknown - skipped") != std::string_view::npos ||
                   line.starts_with("do_cmd_from_file:") ||
                   (!own_hash_lines && line.starts_with("#"));
    if (failure) errors.emplace_back(line);
  });
  return errors;
}

std::vector<std::pair<int, int>> attached_clients(std::string_view reply) {
  std::vector<std::pair<int, int>> clients;
  for_each_line(reply, [&clients](std::string_view line) {
    line = dump::scan::trim(line);
    if (!line.starts_with("Client ")) return;
    int id = number_after(line, "Client ");
    int pid = number_after(line, "pid ");
    if (id >= 0 && pid > 0) clients.emplace_back(id, pid);
  });
  return clients;
}

}  // namespace ibpm::sim
