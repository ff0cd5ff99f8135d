// SPDX-License-Identifier: MIT

#include "graphs/rrd_graph_call.hpp"

#include <rrd.h>
#include <sys/stat.h>

#include <stdexcept>

#include "base/text.hpp"

namespace ibpm::graphs::detail {

namespace {

std::string image_format(const std::string& output) {
  auto ends = [&](const char* ext) { return output.ends_with(ext); };
  if (ends(".png")) return "PNG";
  if (ends(".svg")) return "SVG";
  if (ends(".pdf")) return "PDF";
  throw std::runtime_error(output + ": the graph format follows the extension: .png, .svg or .pdf");
}

}  // namespace

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::vector<std::string> graph_head(const ProfileGraph& graph, const std::string& vertical_label) {
  return {"graph",
          graph.output,
          "--imgformat",
          image_format(graph.output),
          "--start",
          std::to_string(graph.start),
          "--end",
          std::to_string(graph.end),
          "--width",
          std::to_string(graph.width),
          "--height",
          std::to_string(graph.height),
          "--title",
          graph_text(graph.title),
          "--vertical-label",
          vertical_label,
          "--slope-mode"};
}

// Our paths are STATE_DIR/0xGUID/portN.rrd, so only the state directory could hold a ':'.
std::string def_path(const std::string& path) {
  std::string out;
  for (char c : path) out += c == ':' ? std::string("\\:") : std::string(1, c);
  return out;
}

std::string graph_text(const std::string& text) {
  // Pango warns about every string that is not UTF-8 (a hundred lines of cron mail per site).
  std::string out = base::valid_utf8(text);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

std::string legend_text(const std::string& text) {
  std::string out;
  for (char c : base::valid_utf8(text)) {
    if (c == ':')
      out += "\\:";
    else if (c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      out += '_';
    else
      out += c;
  }
  return out;
}

void run_graph(std::vector<std::string> args, const std::string& output) {
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  rrd_clear_error();
  rrd_info_t* info = rrd_graph_v(static_cast<int>(argv.size()), argv.data());
  if (!info) {
    const char* reason = rrd_get_error();
    std::string text = reason && *reason ? reason : "librrd gave no reason";
    rrd_clear_error();
    throw std::runtime_error(output + ": " + text);
  }
  rrd_info_free(info);
}

}  // namespace ibpm::graphs::detail
