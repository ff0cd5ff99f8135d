// SPDX-License-Identifier: MIT

#include "anonymous_names.hpp"

#include <algorithm>
#include <cstdio>
#include <regex>
#include <stdexcept>

namespace ibpm::tools {

namespace {

constexpr Guid kFirstGuid = 0x0a00000000000001ULL;

std::string numbered(const char* prefix, int number) {
  char text[32];
  std::snprintf(text, sizeof text, "%s-%04d", prefix, number);
  return text;
}

// The kind and number of a name this tool gives ("switch-0007", "host-0012 HCA-1").
std::optional<std::pair<std::string, int>> numbered_kind(const std::string& name) {
  static const std::regex form(R"((switch|host|router|node)-([0-9]{1,9})( .*)?)");
  std::smatch match;
  if (!std::regex_match(name, match, form)) return std::nullopt;
  return std::pair{match[1].str(), std::stoi(match[2].str())};
}

}  // namespace

void AnonymousNames::keep_guid(Guid original, Guid anonymous) {
  if (original == 0 || anonymous == 0) throw std::invalid_argument("GUID 0 is never rewritten");
  if (guids_.contains(original)) throw std::invalid_argument("original GUID given twice");
  if (!anonymous_guids_.insert(anonymous).second)
    throw std::invalid_argument("anonymous GUID given to two originals");
  guids_.emplace(original, anonymous);
  guid_order_.push_back(original);
  kept_guids_.insert(original);
}

void AnonymousNames::keep_name(const std::string& original, const std::string& anonymous) {
  if (original.empty() || anonymous.empty())
    throw std::invalid_argument("an empty description is never rewritten");
  if (names_.contains(original)) throw std::invalid_argument("original description given twice");
  if (!anonymous_names_.insert(anonymous).second)
    throw std::invalid_argument("anonymous name given to two originals");
  names_.emplace(original, anonymous);
  name_order_.emplace_back(original, NodeType::unknown);
  kept_names_.insert(original);
}

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
    if (kept_guids_.contains(original)) continue;
    // Never an original GUID, nor one a kept mapping gives.
    while (guids_.contains(next) || anonymous_guids_.contains(next)) ++next;
    guids_[original] = next++;
  }
  // Each kind numbered on from the highest number the key holds.
  std::unordered_map<std::string, int> last;
  for (const std::string& name : anonymous_names_)
    if (const auto kind = numbered_kind(name))
      last[kind->first] = std::max(last[kind->first], kind->second);
  // Host names are read from descriptions ("cn0001 HCA-1" is host cn0001): the HCA's part stays.
  static const std::regex hca_suffix(R"(.*( (HCA-[0-9]+|mlx[0-9]+_[0-9]+))$)");
  for (const auto& [original, type] : name_order_) {
    if (kept_names_.contains(original)) continue;
    const char* kind = "node";
    std::string suffix;
    switch (type) {
      case NodeType::sw:
        kind = "switch";
        break;
      case NodeType::ca: {
        kind = "host";
        std::smatch match;
        if (std::regex_match(original, match, hca_suffix)) suffix = match[1].str();
        break;
      }
      case NodeType::router:
        kind = "router";
        break;
      default:
        break;
    }
    std::string name;
    do name = numbered(kind, ++last[kind]) + suffix;
    while (anonymous_names_.contains(name));
    names_[original] = name;
  }
}

std::vector<std::pair<Guid, Guid>> AnonymousNames::guid_mapping() const {
  std::vector<std::pair<Guid, Guid>> mapping;
  for (const Guid original : guid_order_) mapping.emplace_back(original, guids_.at(original));
  return mapping;
}

std::vector<std::pair<std::string, std::string>> AnonymousNames::name_mapping() const {
  std::vector<std::pair<std::string, std::string>> mapping;
  for (const auto& [original, type] : name_order_)
    mapping.emplace_back(original, names_.at(original));
  return mapping;
}

}  // namespace ibpm::tools
