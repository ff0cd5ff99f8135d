// SPDX-License-Identifier: MIT

#include "dump/ibsim_net_syntax.hpp"

namespace ibpm::dump {

std::string ibsim_node_record(bool as_switch, int ports) {
  return (as_switch ? "Switch\t" : "Hca\t") + std::to_string(ports);
}

std::string ibsim_port_link(int port, std::string_view peer_id, int peer_port) {
  std::string text = "[" + std::to_string(port) + "]\t\"";
  text += peer_id;
  text += "\"[" + std::to_string(peer_port) + "]";
  return text;
}

std::string ibsim_link_trailer(std::string_view peer_id, LinkWidth width, LinkSpeed speed) {
  std::string text = "\"";
  text += peer_id;
  text += "\" lid 0 ";
  text += to_string(width);
  text += to_string(speed);
  return text;
}

}  // namespace ibpm::dump
