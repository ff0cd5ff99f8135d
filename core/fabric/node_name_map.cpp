// SPDX-License-Identifier: MIT

#include "fabric/node_name_map.hpp"

#include <filesystem>
#include <fstream>
#include <istream>
#include <stdexcept>
#include <string_view>

namespace ibpm {
namespace {

// Editors on Windows start UTF-8 files with a byte order mark.
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trim_left(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  return s;
}

// Accepts "0x0002c903..." and, as some sites keep them, ibnetdiscover's "H-0002c903..." / "S-..."
std::optional<Guid> parse_map_guid(std::string_view token) {
  if (token.size() > 2 && token[1] == '-' &&
      (token[0] == 'H' || token[0] == 'S' || token[0] == 'R'))
    token.remove_prefix(2);
  return parse_guid(token);
}

}  // namespace

NodeNameMap NodeNameMap::load(const std::string& path) {
  // A directory opens fine and reads as empty: it would pass for a map with no names.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw std::runtime_error("cannot read node-name-map " + path + " (is a directory)");
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open node-name-map " + path);
  return parse(in, path);
}

std::optional<NodeNameMap> NodeNameMap::load_if_named(const std::string& path) {
  if (path.empty()) return std::nullopt;
  return load(path);
}

NodeNameMap NodeNameMap::parse(std::istream& in, const std::string& origin) {
  NodeNameMap map;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::string_view rest = line;
    if (number == 1 && rest.starts_with(kUtf8Bom)) rest.remove_prefix(kUtf8Bom.size());
    rest = trim_left(rest);
    if (rest.empty() || rest.front() == '#') continue;
    std::size_t guid_end = 0;
    while (guid_end < rest.size() && !is_space(rest[guid_end]) && rest[guid_end] != '#') ++guid_end;
    auto guid = parse_map_guid(rest.substr(0, guid_end));
    if (!guid)
      throw std::runtime_error(origin + ":" + std::to_string(number) + ": not a GUID: '" +
                               std::string(rest.substr(0, guid_end)) + "'");
    rest = trim_left(rest.substr(guid_end));
    std::string name;
    if (!rest.empty() && rest.front() == '"') {
      std::size_t close = rest.find('"', 1);
      if (close == std::string_view::npos)
        throw std::runtime_error(origin + ":" + std::to_string(number) + ": unterminated quote");
      name = rest.substr(1, close - 1);
    } else {
      std::size_t end = 0;
      while (end < rest.size() && !is_space(rest[end]) && rest[end] != '#') ++end;
      name = rest.substr(0, end);
    }
    if (name.empty()) continue;  // a GUID with no name maps to nothing, as in infiniband-diags
    map.names_[*guid] = std::move(name);
  }
  return map;
}

const std::string* NodeNameMap::find(Guid guid) const {
  auto it = names_.find(guid);
  return it == names_.end() ? nullptr : &it->second;
}

}  // namespace ibpm
