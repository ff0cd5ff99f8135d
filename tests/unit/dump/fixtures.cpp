// SPDX-License-Identifier: MIT

#include "fixtures.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "dump/ibnetdiscover_parser.hpp"
#include "dump/ports_report_parser.hpp"
#include "dump/text_scan.hpp"
#include "support/process.hpp"

namespace ibpm::test {
namespace fs = std::filesystem;

dump::ParsedDump parse_text(std::string_view text) {
  std::istringstream in{std::string(text)};
  return dump::parse_ibnetdiscover(in, "t");
}

bool has_warning(const dump::ParsedDump& dump, std::string_view needle) {
  return std::any_of(dump.warnings.begin(), dump.warnings.end(),
                     [&](const std::string& w) { return w.find(needle) != std::string::npos; });
}

fs::path real_fixtures_dir() {
  fs::path dir = IBPM_REAL_FIXTURES;
  std::error_code ec;
  return fs::is_directory(dir, ec) ? dir : fs::path{};
}

std::vector<fs::path> real_dump_files() {
  std::vector<fs::path> out;
  fs::path dir = real_fixtures_dir();
  if (dir.empty()) return out;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().find(".ibnetdiscover") != std::string::npos)
      out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_fixture(const fs::path& path) {
  if (path.extension() != ".xz") {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  const ibpm::test::ProcessRun xz = ibpm::test::run_process({"xz", "-dc", "--", path.string()});
  if (xz.exit_code != 0) throw std::runtime_error("xz -dc failed on " + path.string());
  return xz.out;
}

dump::ParsedDump parse_fixture(const fs::path& path) {
  std::istringstream in(read_fixture(path));
  std::string first;
  {
    std::istringstream probe(in.str());
    std::string line;
    while (std::getline(probe, line))
      if (!dump::scan::trim(line).empty()) {
        first = line;
        break;
      }
  }
  if (dump::looks_like_ports_report(first))
    return dump::parse_ports_report(in, path.filename().string());
  return dump::parse_ibnetdiscover(in, path.filename().string());
}

namespace {

template <typename T>
std::string show(const std::optional<T>& v) {
  return v ? std::to_string(static_cast<unsigned long long>(*v)) : "none";
}

std::string port_difference(const Port& a, const Port& b) {
  if (a.present != b.present) return "present";
  if (a.guid != b.guid) return "guid " + show(a.guid) + " vs " + show(b.guid);
  if (a.lid != b.lid) return "lid " + show(a.lid) + " vs " + show(b.lid);
  if (a.lmc != b.lmc) return "lmc";
  if (a.state != b.state) return "state";
  if (a.width != b.width) return "width";
  if (a.speed != b.speed) return "speed";
  if (a.label != b.label) return "label \"" + a.label + "\" vs \"" + b.label + "\"";
  return {};
}

}  // namespace

std::string fabric_difference(const Fabric& a, const Fabric& b, bool all_ports) {
  if (a.nodes().size() != b.nodes().size())
    return "node count " + std::to_string(a.nodes().size()) + " vs " +
           std::to_string(b.nodes().size());
  if (a.links().size() != b.links().size())
    return "link count " + std::to_string(a.links().size()) + " vs " +
           std::to_string(b.links().size());
  for (const Node& na : a.nodes()) {
    const std::string id = format_guid(na.guid);
    const Node* nb = b.find(na.guid);
    if (!nb) return id + " missing";
    if (na.type != nb->type) return id + " type";
    if (na.description != nb->description)
      return id + " description \"" + na.description + "\" vs \"" + nb->description + "\"";
    if (na.system_image_guid != nb->system_image_guid) return id + " sysimgguid";
    if (na.vendor_id != nb->vendor_id) return id + " vendor id";
    if (na.device_id != nb->device_id) return id + " device id";
    if (na.port_count != nb->port_count)
      return id + " port count " + std::to_string(na.port_count) + " vs " +
             std::to_string(nb->port_count);
    for (std::size_t i = 0; i < na.ports.size(); ++i) {
      const Port& pa = na.ports[i];
      const Port* pb = nb->port(static_cast<PortNumber>(i));
      if (!all_ports && i != 0 && !pa.link && !(pb && pb->link)) continue;
      Port absent;
      std::string d = port_difference(pa, pb ? *pb : absent);
      if (!d.empty()) return id + "[" + std::to_string(i) + "] " + d;
      const PortRef ref{na.guid, static_cast<PortNumber>(i)};
      if (a.remote(ref) != b.remote(ref)) return id + "[" + std::to_string(i) + "] peer";
    }
  }
  return {};
}

}  // namespace ibpm::test
