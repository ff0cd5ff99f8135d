// SPDX-License-Identifier: MIT

#include "site_writer.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "../viz/map_fabrics.hpp"
#include "base/atomic_dir.hpp"
#include "base/atomic_file.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "pages.hpp"
#include "site_data.hpp"
#include "site_paths.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;
namespace fs = std::filesystem;

namespace {

const std::string kHostile = "<script>window.__pwned=1</script>";

struct Workspace {
  ibpm::test::TempDir tmp{"site-test"};
  fs::path dir = tmp.path();
};

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A spine, a leaf described with markup, 6 hosts: no history (no state directory).
web::SiteData hostile_site(const Workspace& ws) {
  const Fabric fabric = viz::test::two_switches(2, 6, kHostile);
  const std::string dump = (ws.dir / "fabric.ibnetdiscover").string();
  base::replace_file_with(dump, [&](std::ostream& out) { dump::write_ibnetdiscover(out, fabric); });
  plugin::FabricOptions fabric_options;
  fabric_options.cache = dump;
  web::SiteOptions options;
  options.state_dir = (ws.dir / "no-state").string();
  fabric_options.state_dir = options.state_dir;
  return web::collect_site_data(fabric_options, options);
}

}  // namespace

TEST_CASE("the overview opens the map fitted to the page, however wide it is") {
  Workspace ws;
  const web::SiteData data = hostile_site(ws);
  const web::SiteGraphs graphs;
  const web::SiteContext site{data, graphs, "now"};
  // 4,050 pt: 5,400 px at 96 dpi, once opened at its actual size on an empty corner.
  const std::string wide =
      "<svg width=\"4050pt\" height=\"1200pt\" viewBox=\"0.00 0.00 4050.00 1200.00\"></svg>\n";
  const std::string page = web::overview_page(site, wide);
  CHECK(page.find("<div id=\"map\">\n<svg width=\"4050pt\"") != std::string::npos);
  CHECK(page.find("natural") == std::string::npos);
  CHECK(page.find("<button id=\"map-zoom\" type=\"button\">Actual size</button>") !=
        std::string::npos);
  CHECK(page.find("<a href=\"map.svg\">Open the map alone</a>") != std::string::npos);
}

TEST_CASE("the overview lists the subnet managers check_ib_sm saw, the master first") {
  Workspace ws;
  web::SiteData data = hostile_site(ws);
  const web::SiteGraphs graphs;
  const web::SiteContext site{data, graphs, "now"};
  CHECK(web::overview_page(site, "").find("No check_ib_sm state in the state directory.") !=
        std::string::npos);
  sm::Remembered sms;
  sms.sampled = std::chrono::system_clock::from_time_t(data.generated - 30);
  sms.master = sm::SmSeen{0x3, 3, "sm<b>2</b>", 5, 3, 100};
  sms.sms = {sm::SmSeen{0x1, 1, "sm1", 10, 2, std::nullopt}, *sms.master};
  data.sms = sms;
  const std::string page = web::overview_page(site, "");
  INFO(page);
  CHECK(page.find("Master: sm&lt;b&gt;2&lt;/b&gt; (0x0000000000000003, LID 3). As check_ib_sm "
                  "saw them 30 s ago.") != std::string::npos);
  const auto master = page.find("<td>sm&lt;b&gt;2&lt;/b&gt;</td>");
  const auto standby = page.find("<td>sm1</td>");
  CHECK(master < standby);
  CHECK(standby != std::string::npos);
  CHECK(page.find("<td class=\"state ok\">master</td>") != std::string::npos);
  CHECK(page.find("<b>") == std::string::npos);
}

TEST_CASE("the overview's unreachable card counts in singular and plural") {
  Workspace ws;
  web::SiteData data = hostile_site(ws);
  const web::SiteGraphs graphs;
  const web::SiteContext site{data, graphs, "now"};
  products::SweepSummary sweep;
  sweep.started = static_cast<double>(data.generated);
  sweep.unreachable = 1;
  sweep.unreachable_nodes = 1;
  data.sweep = sweep;
  CHECK(web::overview_page(site, "").find(">1 port, 1 node<") != std::string::npos);
  data.sweep->unreachable = 2;
  data.sweep->unreachable_nodes = 0;
  CHECK(web::overview_page(site, "").find(">2 ports, 0 nodes<") != std::string::npos);
}

TEST_CASE("the site has a page for every node and cable, and every map URL leads to one") {
  Workspace ws;
  const web::SiteData data = hostile_site(ws);
  web::WriteOptions options;
  options.output = (ws.dir / "site").string();
  const web::WriteReport report = web::write_site(data, options);
  const Fabric& fabric = data.fabric();
  // index, locality, congestion and switches, then a page per node and per cable.
  CHECK(report.pages == 4 + fabric.nodes().size() + fabric.links().size());
  CHECK(fs::exists(ws.dir / "site" / "congestion.html"));
  for (const Node& node : fabric.nodes())
    CHECK(fs::exists(ws.dir / "site" / web::node_page(node.guid)));
  for (const Link& link : fabric.links()) CHECK(fs::exists(ws.dir / "site" / web::link_page(link)));

  const std::string index = read(ws.dir / "site/index.html");
  REQUIRE(index.find("<div id=\"map\">\n<svg") != std::string::npos);
  const std::regex href(R"re(xlink:href="([^"#]+)(#[^"]*)?")re");
  std::set<std::string> targets;
  for (auto it = std::sregex_iterator(index.begin(), index.end(), href);
       it != std::sregex_iterator(); ++it)
    targets.insert((*it)[1]);
  CHECK(targets.size() >= 4);  // spine, leaf, the folded hosts' switch page, cables
  for (const std::string& target : targets) {
    INFO(target);
    CHECK(fs::exists(ws.dir / "site" / target));
  }
}

TEST_CASE("a NodeDescription holding markup is text on every page") {
  Workspace ws;
  const web::SiteData data = hostile_site(ws);
  web::WriteOptions options;
  options.output = (ws.dir / "site").string();
  web::write_site(data, options);
  std::size_t pages_naming_it = 0;
  for (const auto& entry : fs::recursive_directory_iterator(ws.dir / "site")) {
    if (!entry.is_regular_file()) continue;
    const std::string text = read(entry.path());
    INFO(entry.path());
    CHECK(text.find(kHostile) == std::string::npos);
    CHECK(text.find("<script>window") == std::string::npos);
    if (text.find("&lt;script&gt;window.__pwned=1&lt;/script&gt;") != std::string::npos)
      ++pages_naming_it;
  }
  CHECK(pages_naming_it > 3);  // the overview, the leaf's page, its neighbours', its cables'
}

TEST_CASE("the output folder is replaced whole, and never an operator's own folder") {
  Workspace ws;
  const web::SiteData data = hostile_site(ws);
  web::WriteOptions options;
  options.output = (ws.dir / "site").string();
  web::write_site(data, options);
  std::ofstream(ws.dir / "site" / "stale.html") << "from an older run";
  web::write_site(data, options);
  CHECK_FALSE(fs::exists(ws.dir / "site" / "stale.html"));
  CHECK(fs::exists(ws.dir / "site" / "index.html"));

  fs::create_directories(ws.dir / "www");
  std::ofstream(ws.dir / "www" / "index.html") << "the operator's page";
  options.output = (ws.dir / "www").string();
  CHECK_THROWS_WITH(web::write_site(data, options),
                    Catch::Contains("holds no site written by ibpm-web"));
  CHECK(read(ws.dir / "www" / "index.html") == "the operator's page");
  // Nothing staged stays behind.
  for (const auto& entry : fs::directory_iterator(ws.dir))
    CHECK(entry.path().filename().string().find(".new-") == std::string::npos);
}

TEST_CASE("a run killed mid-way leaves a staging folder that the next run removes") {
  // Issue 16: 12 kills left 6 .site.new-* folders behind for ever.
  Workspace ws;
  const web::SiteData data = hostile_site(ws);
  web::WriteOptions options;
  options.output = (ws.dir / "site").string();
  web::write_site(data, options);

  auto staged_folders = [&] {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(ws.dir))
      if (entry.path().filename().string().starts_with(".site.new-"))
        names.insert(entry.path().filename().string());
    return names;
  };
  // A writer killed by SIGKILL: its staging folder stays, with half a site in it.
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    base::StagedFolder staged(options.output, [](const std::string&) { return std::string(); });
    std::ofstream(fs::path(staged.path()) / "index.html") << "half";
    ::raise(SIGKILL);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(staged_folders().size() == 1);
  const fs::path killed = ws.dir / *staged_folders().begin();
  // A writer still at work holds its folder's lock: the next run leaves that one alone.
  const fs::path busy = ws.dir / ".site.new-BUSY01";
  fs::create_directories(busy);
  const int lock = ::open(busy.c_str(), O_RDONLY | O_DIRECTORY);
  REQUIRE(::flock(lock, LOCK_EX) == 0);
  for (const fs::path& folder : {killed, busy})
    fs::last_write_time(folder, fs::file_time_type::clock::now() - std::chrono::minutes(5));

  web::write_site(data, options);
  CHECK(staged_folders() == std::set<std::string>{busy.filename().string()});
  ::close(lock);
  web::write_site(data, options);
  CHECK(staged_folders().empty());
  CHECK(fs::exists(ws.dir / "site" / "index.html"));
}

TEST_CASE("the congestion page lists each tree: its root, the ports waiting behind it, its jobs") {
  Workspace ws;
  web::SiteData data = hostile_site(ws);
  const web::SiteGraphs graphs;
  const web::SiteContext site{data, graphs, "now"};
  // No XmitWait history here: the page says what the analysis needs.
  CHECK(web::congestion_page(site).find("No congestion analysis: it needs XmitWait history") !=
        std::string::npos);
  // The leaf (described with markup) is full towards host 1; the spine's downlink waits.
  analysis::CongestionReport report;
  report.ports = {{{viz::test::kLeaf, 1}, analysis::CongestionRole::root, 0.0, 0.99, {0}},
                  {{viz::test::kSpine, 1}, analysis::CongestionRole::victim, 0.4, 0.33, {0}}};
  report.trees = {{0, {1}, {"job<1>"}, {"job2"}}};
  data.congestion = report;
  data.jobs_by_direction[{viz::test::kLeaf, 1}] = {"job<1>"};
  const std::string page = web::congestion_page(site);
  INFO(page);
  CHECK(page.find("<h2>Tree 1: root <a href=\"nodes/0x0000000000000020.html\">") !=
        std::string::npos);
  CHECK(page.find("99.0 %") != std::string::npos);
  CHECK(page.find("1 ports wait behind it") != std::string::npos);
  CHECK(page.find("<a href=\"nodes/0x0000000000000010.html\">") != std::string::npos);
  CHECK(page.find("40.0 %") != std::string::npos);
  CHECK(page.find("cause it (their routes cross the root): job&lt;1&gt;.") != std::string::npos);
  CHECK(page.find("suffer it (their routes cross only its victims): job2.") != std::string::npos);
  CHECK(page.find(kHostile) == std::string::npos);
  CHECK(page.find("<script>") == std::string::npos);
}
