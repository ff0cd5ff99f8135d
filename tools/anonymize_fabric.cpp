// SPDX-License-Identifier: MIT

#include "anonymize_fabric.hpp"

namespace ibpm::tools {

void learn_fabric(const Fabric& fabric, AnonymousNames& names) {
  for (const Node& node : fabric.nodes()) {
    names.add_guid(node.guid);
    names.add_guid(node.system_image_guid);
    node.for_each_port([&](const Port& port) {
      if (port.guid) names.add_guid(*port.guid);
    });
    names.add_description(node.description, node.type);
  }
}

Fabric anonymized_fabric(const Fabric& fabric, const AnonymousNames& names) {
  const auto guid = [&](Guid original) { return names.guid(original).value_or(original); };
  Fabric out;
  for (const Node& node : fabric.nodes()) {
    Node& copy =
        out.add_node(guid(node.guid), node.type,
                     names.name(node.description).value_or(node.description), node.port_count);
    copy.system_image_guid = guid(node.system_image_guid);
    copy.vendor_id = node.vendor_id;
    copy.device_id = node.device_id;
    node.for_each_port([&](const Port& port) {
      Port& to = out.port({copy.guid, port.number});
      const std::optional<std::size_t> link = to.link;
      to = port;
      to.link = link;  // cabled below, in the new fabric's own order
      if (port.guid) to.guid = guid(*port.guid);
    });
  }
  for (const Link& link : fabric.links())
    out.connect({guid(link.a.node), link.a.port}, {guid(link.b.node), link.b.port});
  return out;
}

}  // namespace ibpm::tools
