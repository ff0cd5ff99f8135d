// SPDX-License-Identifier: MIT
// Line-level syntax of ibnetdiscover topology files (also the ibdiagnet2.ibnetdiscover variant):
// classifies a line and splits node headers and port lines into fields without interpreting them.
// A line that has the shape of a header or port line but cannot be read raises SyntaxError.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "fabric/types.hpp"

namespace ibpm::dump::ibnd {

class SyntaxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class LineKind {
  blank,
  comment,      // "# ..."
  attribute,    // vendid= devid= sysimgguid= switchguid= caguid= rtguid=
  node_header,  // Switch / Ca / Rt
  port,         // "[1] ..."
  noise,        // lines ibnetdiscover -g prints that carry nothing we keep ("Chassis 1 ...")
  junk,         // anything else: prompts, banners, stderr
};

// `line` must already be trimmed.
LineKind classify(std::string_view line);

enum class AttributeKey { vendid, devid, sysimgguid, switchguid, caguid, rtguid };

struct Attribute {
  AttributeKey key = AttributeKey::vendid;
  std::uint64_t value = 0;
  std::optional<Guid> port_guid;  // switchguid=0x...(portguid)
};
Attribute parse_attribute(std::string_view line);

// "S-0002c903007b78b0" and friends.
struct NodeId {
  char prefix = '?';  // 'S', 'H', 'R' or '?'
  Guid guid = 0;
};

struct NodeHeader {
  NodeType type = NodeType::unknown;
  int port_count = 0;
  NodeId id;
  bool has_description = false;
  std::string_view description;        // between the quotes after '#', as written
  std::string_view after_description;  // "base port 0 lid 3 lmc 0" on switch headers
};
NodeHeader parse_node_header(std::string_view line);

struct PortLine {
  PortNumber port = 0;
  // Up to two "(...)" groups right after the port number: a label (ibdiagnet "(1/2/1)") and/or
  // the port GUID; which is which depends on the record type.
  int groups = 0;
  std::string_view group[2];
  std::string_view ext;  // "[ext 5]" of ibnetdiscover -g, the number only
  NodeId remote;
  PortNumber remote_port = 0;
  std::optional<Guid> remote_port_guid;  // "(guid)" after a CA/router remote
  bool has_trailer = false;              // anything after '#'
  std::string_view own;                  // trailer before the remote description ("lid 2 lmc 0")
  bool has_remote_description = false;
  std::string_view remote_description;
  std::string_view link;  // trailer after the remote description ("lid 3 4xQDR s=4 w=2 v=4")
};
PortLine parse_port_line(std::string_view line);

// The "lid L lmc M" pair on CA port lines and switch headers. A field that is named but empty
// ("lid  lmc 0") has has_lid set and an empty lid.
struct LidLmc {
  bool has_lid = false;
  std::string_view lid;
  bool has_lmc = false;
  std::string_view lmc;
};
LidLmc find_lid_lmc(std::string_view text);

// "lid 3 4xQDR ..." after a remote description.
struct LinkTrailer {
  bool has_lid = false;
  std::string_view lid;
  std::string_view width_speed;  // "4xQDR", "4x???", or empty
};
LinkTrailer parse_link_trailer(std::string_view text);

// The letter of a node id ("S-0002c903...", "H-...", "R-..."): S switch, H CA, R router.
NodeType type_of_id_prefix(char prefix);  // unknown for any other letter
char id_prefix(NodeType type);            // 'H' for unknown: ibnetdiscover has no other letter

}  // namespace ibpm::dump::ibnd
