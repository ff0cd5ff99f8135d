#include "history/utilization_graph.hpp"

#include <rrd.h>
#include <sys/stat.h>

#include <stdexcept>
#include <vector>

namespace ibpm::history {

namespace {

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::string image_format(const std::string& output) {
  auto ends = [&](const char* ext) { return output.ends_with(ext); };
  if (ends(".png")) return "PNG";
  if (ends(".svg")) return "SVG";
  if (ends(".pdf")) return "PDF";
  throw std::runtime_error(output + ": the graph format follows the extension: .png, .svg or .pdf");
}

// librrd parses ':' in DEF paths; our paths are STATE_DIR/0xGUID/portN.rrd, so only the state
// directory could hold one.
std::string rrd_path(const std::string& path) {
  std::string out;
  for (char c : path) out += c == ':' ? std::string("\\:") : std::string(1, c);
  return out;
}

// DEF and CDEF lines for one direction as per cent of capacity; false when no side has a file.
bool add_direction(std::vector<std::string>& args, const std::string& name,
                   const std::string& sender, const std::string& receiver, double capacity) {
  std::string def;
  if (exists(sender))
    def = "DEF:" + name + "_w=" + rrd_path(sender) + ":xmit_data:AVERAGE";
  else if (exists(receiver))
    def = "DEF:" + name + "_w=" + rrd_path(receiver) + ":rcv_data:AVERAGE";
  else
    return false;
  args.push_back(def);
  // 4-octet words per second -> per cent of the capacity in octets per second.
  args.push_back("CDEF:" + name + "=" + name + "_w,4,*," + std::to_string(capacity) + ",/,100,*");
  return true;
}

// Names from the fabric in a legend, which librrd parses: ':' separates fields and '\' starts
// formatting codes, so colons are escaped, backslashes and control characters replaced.
std::string legend_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == ':') out += "\\:";
    else if (c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += '_';
    else out += c;
  }
  return out;
}

}  // namespace

void draw_utilization(const HistoryReader& reader, const LinkUsage& usage,
                      const std::string& a_name, const std::string& b_name,
                      const ProfileGraph& graph) {
  const double capacity = usage.capacity_octets_s.value_or(0);
  if (capacity <= 0) throw std::runtime_error(graph.output + ": the link's capacity is unknown");
  const std::string a = reader.path(usage.a_to_b.from.node, usage.a_to_b.from.port);
  const std::string b = reader.path(usage.b_to_a.from.node, usage.b_to_a.from.port);
  std::vector<std::string> args{"graph",
                                graph.output,
                                "--imgformat", image_format(graph.output),
                                "--start", std::to_string(graph.start),
                                "--end", std::to_string(graph.end),
                                "--width", std::to_string(graph.width),
                                "--height", std::to_string(graph.height),
                                "--title", graph.title,
                                "--vertical-label", "% of capacity",
                                "--lower-limit", "0",
                                "--upper-limit", "100",
                                "--slope-mode"};
  if (add_direction(args, "ab", a, b, capacity))
    args.push_back("AREA:ab#4e9a0680:" + legend_text(a_name + " -> " + b_name));
  if (add_direction(args, "ba", b, a, capacity))
    args.push_back("LINE2:ba#204a87:" + legend_text(b_name + " -> " + a_name));
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  rrd_clear_error();
  rrd_info_t* info = rrd_graph_v(static_cast<int>(argv.size()), argv.data());
  if (!info) {
    const char* reason = rrd_get_error();
    std::string text = reason && *reason ? reason : "librrd gave no reason";
    rrd_clear_error();
    throw std::runtime_error(graph.output + ": " + text);
  }
  rrd_info_free(info);
}

}  // namespace ibpm::history
