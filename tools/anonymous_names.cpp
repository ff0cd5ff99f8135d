// SPDX-License-Identifier: MIT

#include "anonymous_names.hpp"

#include <cstdio>
#include <regex>

namespace ibpm::tools {

namespace {

constexpr Guid kFirstGuid = 0x0a00000000000001ULL;

// A description as a quoted C string: printable ASCII as is, the rest as \xNN.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    }
  }
  return out + "\"";
}

std::string numbered(const char* prefix, int number) {
  char text[32];
  std::snprintf(text, sizeof text, "%s-%04d", prefix, number);
  return text;
}

}  // namespace

void AnonymousNames::add_guid(Guid guid) {
  if (guid == 0 || guids_.contains(guid)) return;
  guids_.emplace(guid, 0);
  guid_order_.push_back(guid);
}

void AnonymousNames::add_description(const std::string& description, NodeType type) {
  if (description.empty() || names_.contains(description)) return;
  names_.emplace(description, std::string());
  name_order_.emplace_back(description, type);
}

std::optional<Guid> AnonymousNames::guid(Guid original) const {
  if (original == 0) return Guid{0};
  const auto found = guids_.find(original);
  if (found == guids_.end()) return std::nullopt;
  return found->second;
}

std::optional<std::string> AnonymousNames::name(const std::string& original) const {
  if (original.empty()) return original;
  const auto found = names_.find(original);
  if (found == names_.end()) return std::nullopt;
  return found->second;
}

void AnonymousNames::assign() {
  Guid next = kFirstGuid;
  for (const Guid original : guid_order_) {
    while (guids_.contains(next)) ++next;  // never an original GUID
    guids_[original] = next++;
  }
  // Host names are read from descriptions ("cn0001 HCA-1" is host cn0001): the HCA's part stays.
  static const std::regex hca_suffix(R"(.*( (HCA-[0-9]+|mlx[0-9]+_[0-9]+))$)");
  int switches = 0, hosts = 0, routers = 0, others = 0;
  for (const auto& [original, type] : name_order_) {
    std::string name;
    switch (type) {
      case NodeType::sw:
        name = numbered("switch", ++switches);
        break;
      case NodeType::ca: {
        name = numbered("host", ++hosts);
        std::smatch match;
        if (std::regex_match(original, match, hca_suffix)) name += match[1].str();
        break;
      }
      case NodeType::router:
        name = numbered("router", ++routers);
        break;
      default:
        name = numbered("node", ++others);
    }
    names_[original] = name;
  }
}

void AnonymousNames::write_key(std::ostream& out) const {
  out << "# ibpm-anonymize key: original -> anonymized. It undoes the anonymization: keep it at "
         "the site.\n";
  char line[64];
  for (const Guid original : guid_order_) {
    std::snprintf(line, sizeof line, "guid 0x%016llx 0x%016llx\n",
                  static_cast<unsigned long long>(original),
                  static_cast<unsigned long long>(guids_.at(original)));
    out << line;
  }
  for (const auto& [original, type] : name_order_)
    out << "name " << quoted(original) << " " << quoted(names_.at(original)) << "\n";
}

}  // namespace ibpm::tools
