// SPDX-License-Identifier: MIT

#include "config_parsing.hpp"

#include <regex>
#include <sstream>
#include <stdexcept>

namespace ibpm::nagios_test {

namespace {

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The line up to its first unescaped ';', with "\;" turned into ';'.
std::string without_comment(const std::string& line) {
  std::string result;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == ';') {
      result += ';';
      ++i;
    } else if (line[i] == ';') {
      break;
    } else {
      result += line[i];
    }
  }
  return result;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// Splits on '!' not escaped as "\!".
std::vector<std::string> split_check_command(const std::string& text) {
  std::vector<std::string> parts(1);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '!') {
      parts.back() += '!';
      ++i;
    } else if (text[i] == '!') {
      parts.emplace_back();
    } else {
      parts.back() += text[i];
    }
  }
  return parts;
}

std::vector<std::string> shell_words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote)
        quote = 0;
      else if (quote == '"' && c == '\\' && i + 1 < text.size())
        word += text[++i];
      else
        word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote) throw std::runtime_error("unbalanced quote in: " + text);
  if (in_word) words.push_back(word);
  return words;
}

// Icinga 2 text with // and /* */ comments blanked out (strings kept).
std::string without_icinga_comments(const std::string& text) {
  std::string result = text;
  bool in_string = false;
  for (std::size_t i = 0; i < result.size(); ++i) {
    if (in_string) {
      if (result[i] == '\\')
        ++i;
      else if (result[i] == '"')
        in_string = false;
    } else if (result[i] == '"') {
      in_string = true;
    } else if (result.compare(i, 2, "//") == 0) {
      while (i < result.size() && result[i] != '\n') result[i++] = ' ';
    } else if (result.compare(i, 2, "/*") == 0) {
      const auto end = result.find("*/", i + 2);
      const auto stop = end == std::string::npos ? result.size() : end + 2;
      for (; i < stop; ++i)
        if (result[i] != '\n') result[i] = ' ';
    }
  }
  return result;
}

// The text between the '{' (or '[') at `open` and its partner, strings skipped.
std::string block_at(const std::string& text, std::size_t open) {
  const char opening = text.at(open), closing = opening == '{' ? '}' : ']';
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == opening) {
      ++depth;
    } else if (c == closing && --depth == 0) {
      return text.substr(open + 1, i - open - 1);
    }
  }
  throw std::runtime_error("unbalanced " + std::string(1, opening) + " in Icinga 2 text");
}

// Top-level `"KEY" = { ... }` or `"KEY" = "VALUE"` entries of an arguments dictionary.
std::vector<IcingaArgument> arguments_of(const std::string& body) {
  std::vector<IcingaArgument> arguments;
  static const std::regex entry(R"re("([^"]+)"\s*=\s*)re");
  static const std::regex value(R"re(\bvalue\s*=\s*"([^"]*)")re");
  static const std::regex set_if(R"re(\bset_if\s*=\s*"([^"]*)")re");
  std::size_t at = 0;
  std::smatch match;
  while (std::regex_search(body.cbegin() + at, body.cend(), match, entry)) {
    IcingaArgument argument{match[1].str(), {}, {}};
    std::size_t next = at + match.position(0) + match.length(0);
    if (body[next] == '{') {
      const std::string inner = block_at(body, next);
      std::smatch v;
      if (std::regex_search(inner, v, value)) argument.value = v[1].str();
      if (std::regex_search(inner, v, set_if)) argument.set_if = v[1].str();
      next += inner.size() + 2;
    } else if (body[next] == '"') {
      const auto end = body.find('"', next + 1);
      argument.value = body.substr(next + 1, end - next - 1);
      next = end + 1;
    }
    arguments.push_back(argument);
    at = next;
  }
  return arguments;
}

}  // namespace

std::vector<NagiosObject> parse_nagios_objects(const std::string& text) {
  std::vector<NagiosObject> objects;
  static const std::regex define(R"(^define\s+(\w+)\s*\{$)");
  bool inside = false;
  for (const std::string& raw : lines_of(text)) {
    const std::string line = trim(raw);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    std::smatch match;
    if (!inside && std::regex_match(line, match, define)) {
      objects.push_back({match[1].str(), {}});
      inside = true;
    } else if (inside && line == "}") {
      inside = false;
    } else if (inside) {
      const std::string content = trim(without_comment(line));
      const auto space = content.find_first_of(" \t");
      if (space == std::string::npos)
        objects.back().directives[content] = "";
      else
        objects.back().directives[content.substr(0, space)] = trim(content.substr(space));
    } else {
      throw std::runtime_error("not in an object definition: " + line);
    }
  }
  if (inside) throw std::runtime_error("an object definition is not closed");
  return objects;
}

std::vector<NagiosObject> parse_status_dat(const std::string& text) {
  std::vector<NagiosObject> blocks;
  static const std::regex open(R"(^(\w+)\s*\{$)");
  bool inside = false;
  for (const std::string& raw : lines_of(text)) {
    const std::string line = trim(raw);
    std::smatch match;
    if (!inside && std::regex_match(line, match, open)) {
      blocks.push_back({match[1].str(), {}});
      inside = true;
    } else if (inside && line == "}") {
      inside = false;
    } else if (inside) {
      const auto equals = line.find('=');
      if (equals != std::string::npos)
        blocks.back().directives[line.substr(0, equals)] = line.substr(equals + 1);
    }
  }
  return blocks;
}

std::map<std::string, std::string> parse_resource_file(const std::string& text) {
  std::map<std::string, std::string> macros;
  static const std::regex line_re(R"(^\s*(\$USER\d+\$)=(.*)$)");
  for (const std::string& line : lines_of(text)) {
    std::smatch match;
    if (std::regex_match(line, match, line_re)) macros[match[1].str()] = match[2].str();
  }
  return macros;
}

std::vector<std::string> nagios_command_lines(const std::vector<NagiosObject>& objects,
                                              const std::map<std::string, std::string>& macros) {
  std::map<std::string, std::string> commands;
  for (const NagiosObject& object : objects) {
    if (object.type != "command") continue;
    std::string line = object.get("command_line");
    for (const auto& [macro, value] : macros) replace_all(line, macro, value);
    commands[object.get("command_name")] = line;
  }
  static const std::regex arg_macro(R"(\$ARG\d+\$)");
  std::vector<std::string> lines;
  for (const auto& [name, line] : commands)
    lines.push_back(std::regex_replace(line, arg_macro, ""));
  for (const NagiosObject& object : objects) {
    const std::string check = object.get("check_command");
    if (check.empty()) continue;
    const std::vector<std::string> parts = split_check_command(check);
    const auto it = commands.find(parts[0]);
    if (it == commands.end()) continue;  // a command of the stock configuration
    std::string line = it->second;
    for (std::size_t n = parts.size() - 1; n >= 1; --n)
      replace_all(line, "$ARG" + std::to_string(n) + "$", parts[n]);
    lines.push_back(std::regex_replace(line, arg_macro, ""));
  }
  return lines;
}

std::vector<std::string> command_words(const std::string& command_line) {
  std::string line = command_line;
  replace_all(line, "$$", "$");
  return shell_words(line);
}

std::map<std::string, std::set<std::string>> check_options(const std::string& command_line) {
  static const std::regex option(R"(^--?[A-Za-z][A-Za-z0-9-]*(=.*)?$)");
  std::map<std::string, std::set<std::string>> result;
  std::string program;
  for (const std::string& word : command_words(command_line)) {
    const std::string base = word.substr(word.find_last_of('/') + 1);
    if (base.rfind("check_ib_", 0) == 0) {
      program = base;
      result[program];
    } else if (!program.empty() && std::regex_match(word, option)) {
      result[program].insert(word.substr(0, word.find('=')));
    }
  }
  return result;
}

std::vector<IcingaCommand> parse_icinga_commands(const std::string& raw_text) {
  const std::string text = without_icinga_comments(raw_text);
  static const std::regex header(R"re(object\s+CheckCommand\s+"([^"]+)"\s*\{)re");
  static const std::regex program(R"(check_ib_[a-z]+)");
  static const std::regex var(R"re(\bvars\.(\w+)\s*=\s*"([^"]*)")re");
  std::vector<IcingaCommand> commands;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), header);
       it != std::sregex_iterator(); ++it) {
    IcingaCommand command;
    command.name = (*it)[1].str();
    std::string body = block_at(text, it->position(0) + it->length(0) - 1);
    if (const auto at = body.find("command ="); at != std::string::npos) {
      const std::string line = block_at(body, body.find('[', at));
      std::smatch match;
      if (std::regex_search(line, match, program)) command.program = match[0].str();
    }
    if (const auto at = body.find("arguments ="); at != std::string::npos) {
      const std::size_t open = body.find('{', at);
      const std::string arguments = block_at(body, open);
      command.arguments = arguments_of(arguments);
      body.erase(at, open - at + arguments.size() + 2);
    }
    for (auto v = std::sregex_iterator(body.begin(), body.end(), var); v != std::sregex_iterator();
         ++v)
      command.vars[(*v)[1].str()] = (*v)[2].str();
    commands.push_back(command);
  }
  return commands;
}

std::set<std::string> icinga_assigned_vars(const std::string& raw_text) {
  const std::string text = without_icinga_comments(raw_text);
  static const std::regex assignment(R"re(\bvars(?:\.(\w+)|\["(\w+)"\])\s*=[^=])re");
  std::set<std::string> names;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), assignment);
       it != std::sregex_iterator(); ++it)
    names.insert((*it)[1].matched ? (*it)[1].str() : (*it)[2].str());
  return names;
}

std::vector<std::set<std::string>> help_options(const std::string& help) {
  static const std::regex line_re(R"(^  (-[^\s{=]+))");
  std::vector<std::set<std::string>> options;
  for (const std::string& line : lines_of(help)) {
    std::smatch match;
    if (!std::regex_search(line, match, line_re)) continue;
    std::set<std::string> names;
    std::istringstream in(match[1].str());
    for (std::string name; std::getline(in, name, ',');)
      if (!name.empty()) names.insert(name);
    options.push_back(names);
  }
  return options;
}

}  // namespace ibpm::nagios_test
