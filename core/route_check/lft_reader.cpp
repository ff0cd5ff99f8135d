// SPDX-License-Identifier: MIT

#include "route_check/lft_reader.hpp"

#include <optional>

#include "fabric/types.hpp"
#include "mad/smp.hpp"

namespace ibpm::route_check {

namespace {

enum class Ask : std::uint8_t { node_info, switch_info, block };
struct Tag {
  Ask ask;
  std::size_t who;     // index into the switch list
  unsigned block = 0;  // for Ask::block
};

struct Progress {
  std::optional<std::string> failure;
  bool identity_checked = false;
  std::size_t blocks_left = 0;
  bool blocks_known = false;
  routes::SwitchTable table;
};

}  // namespace

LftRead read_forwarding_tables(mad::MadEngine& engine, const std::vector<SwitchAddress>& switches,
                               const mad::EngineOptions& options) {
  std::vector<mad::MadQuery> queries;
  std::vector<Tag> tags;
  std::vector<Progress> progress(switches.size());
  auto ask = [&](Tag tag, const mad::MadQuery& query) {
    queries.push_back(query);
    tags.push_back(tag);
  };
  for (std::size_t i = 0; i < switches.size(); ++i) {
    progress[i].table.node = switches[i].node;
    progress[i].table.lid = static_cast<Lid>(switches[i].lid);
    ask({Ask::node_info, i}, mad::node_info_query(switches[i].lid));
    ask({Ask::switch_info, i}, mad::switch_info_query(switches[i].lid));
  }

  engine.run(queries, options, [&](std::size_t index, const mad::MadReply& reply) {
    const Tag tag = tags[index];
    Progress& p = progress[tag.who];
    const SwitchAddress& address = switches[tag.who];
    if (p.failure) return;
    if (!reply.ok()) {
      p.failure = mad::describe_failure(reply);
      return;
    }
    switch (tag.ask) {
      case Ask::node_info: {
        const mad::NodeInfo info = mad::decode_node_info(reply.data);
        if (info.node_guid != address.node || info.type != NodeType::sw)
          p.failure = "LID " + std::to_string(address.lid) + " answers as " +
                      format_guid(info.node_guid) + " (" + std::string(to_string(info.type)) +
                      "), not as this switch: the LIDs changed since the topology was read";
        p.identity_checked = true;
        return;
      }
      case Ask::switch_info: {
        const unsigned top = mad::decode_linear_fdb_top(reply.data);
        if (top >= 0xc000) {
          p.failure = "LinearFDBTop " + std::to_string(top) + " is beyond the unicast LIDs";
          return;
        }
        const unsigned blocks = top / mad::kLftBlockSize + 1;
        p.table.ports.assign(top + 1, routes::kNoRoute);
        p.blocks_left = blocks;
        p.blocks_known = true;
        for (unsigned b = 0; b < blocks; ++b)
          ask({Ask::block, tag.who, b}, mad::lft_block_query(address.lid, b));
        return;
      }
      case Ask::block: {
        const std::size_t first = std::size_t{tag.block} * mad::kLftBlockSize;
        for (std::size_t i = 0; i < mad::kLftBlockSize && first + i < p.table.ports.size(); ++i)
          p.table.ports[first + i] = reply.data[i];
        --p.blocks_left;
        return;
      }
    }
  });

  LftRead read;
  read.queries = queries.size();
  for (std::size_t i = 0; i < switches.size(); ++i) {
    Progress& p = progress[i];
    const std::string who = switches[i].name + " (LID " + std::to_string(switches[i].lid) + ")";
    if (p.failure)
      read.problems.push_back(who + ": " + *p.failure);
    else if (!p.identity_checked || !p.blocks_known || p.blocks_left != 0)
      read.problems.push_back(who + ": forwarding table not read completely");
    else
      read.tables.switches.emplace(p.table.node, std::move(p.table));
  }
  return read;
}

}  // namespace ibpm::route_check
