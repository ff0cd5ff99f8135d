// SPDX-License-Identifier: MIT

#include "sweep/node_refresh.hpp"

#include <infiniband/mad.h>

#include <sstream>

#include "mad/port_info.hpp"
#include "mad/sm_info.hpp"
#include "mad/smp.hpp"

namespace ibpm::sweep {

namespace {

std::string guid_text(Guid guid) {
  std::ostringstream text;
  text << "0x" << std::hex << guid;
  return text.str();
}

// A description as the saved dump can carry it: printable, no quote (untrusted bytes).
std::string printable(const std::string& text) {
  std::string clean;
  for (char c : text)
    clean += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == '"') ? ' ' : c;
  return clean;
}

std::optional<unsigned> lid_of(const Node& node) {
  for (const Port& port : node.ports)
    if (port.present && port.lid && mad::is_unicast_lid(*port.lid)) return *port.lid;
  return std::nullopt;
}

}  // namespace

std::vector<NodeChange> read_node_changes(mad::MadEngine& engine, const mad::EngineOptions& options,
                                          const Fabric& fabric, const std::set<Guid>& nodes) {
  std::vector<const Node*> asked;
  std::vector<mad::MadQuery> queries;
  for (Guid guid : nodes) {
    const Node* node = fabric.find(guid);
    if (!node) continue;
    const std::optional<unsigned> lid = lid_of(*node);
    if (!lid) continue;
    asked.push_back(node);
    queries.push_back(mad::node_info_query(*lid));
    queries.push_back(mad::node_description_query(*lid));
  }
  std::vector<NodeChange> changes;
  if (queries.empty()) return changes;
  const std::vector<mad::MadReply> replies = engine.run(queries, options);
  for (std::size_t i = 0; i < asked.size(); ++i) {
    const mad::MadReply& info = replies[2 * i];
    const mad::MadReply& description = replies[2 * i + 1];
    if (!info.ok() || !description.ok()) continue;
    const mad::NodeInfo node_info = mad::decode_node_info(info.data);
    if (node_info.node_guid != asked[i]->guid) continue;  // the LID is another node's now
    NodeChange change;
    change.node = asked[i]->guid;
    change.description = printable(mad::decode_node_description(description.data));
    change.system_image_guid =
        mad_get_field64(const_cast<std::uint8_t*>(info.data.data()), 0, IB_NODE_SYSTEM_GUID_F);
    // A topology that keeps no system image GUID (a ports report) is not rewritten for it.
    if (asked[i]->system_image_guid == 0) change.system_image_guid = 0;
    if (change.description != asked[i]->description ||
        change.system_image_guid != asked[i]->system_image_guid)
      changes.push_back(std::move(change));
  }
  return changes;
}

std::string apply_node_change(Fabric& fabric, const NodeChange& change) {
  Node* node = fabric.find(change.node);
  if (!node) return {};
  std::string said;
  if (node->description != change.description) {
    said += "description \"" + node->description + "\" -> \"" + change.description + "\"";
    node->description = change.description;
  }
  if (node->system_image_guid != change.system_image_guid) {
    said += std::string(said.empty() ? "" : ", ") + "system image GUID " +
            guid_text(node->system_image_guid) + " -> " + guid_text(change.system_image_guid);
    node->system_image_guid = change.system_image_guid;
  }
  return said.empty() ? said : node->description + " (" + guid_text(node->guid) + "): " + said;
}

}  // namespace ibpm::sweep
