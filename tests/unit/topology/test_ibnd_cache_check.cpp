// SPDX-License-Identifier: MIT
// Corrupt libibnetdisc cache files: every one-byte change of a small valid cache either loads or
// is refused with a one-line reason, in bounded memory and time (issue 16, item 3).
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>

#include "support/ibnd_cache_bytes.hpp"
#include "support/process.hpp"
#include "topology/ibnd_cache_check.hpp"
#include "topology/topology.hpp"

using ibpm::test::ChildOutcome;

namespace {

struct CacheFile {
  CacheFile()
      : path(std::filesystem::temp_directory_path() /
             ("ibpm-cache-check-" + std::to_string(::getpid()) + ".cache")) {}
  ~CacheFile() { std::filesystem::remove(path); }
  void write(const std::vector<unsigned char>& bytes) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  std::filesystem::path path;
};

ChildOutcome load_bounded(const CacheFile& file) {
  return ibpm::test::run_bounded([&] {
    ibpm::topology::load_topology_file(file.path.string());
    return std::string();
  });
}

// Offset of the first port record's LMC byte: header, three nodes, five port keys.
constexpr std::size_t kFirstPortLmc = 28 + 3 * 207 + 5 * 9 + 12;

}  // namespace

TEST_CASE("the small cache built for the tests loads as its fabric") {
  CacheFile file;
  file.write(ibpm::test::small_ibnd_cache());
  const ibpm::topology::Topology topology = ibpm::topology::load_topology_file(file.path.string());
  CHECK(topology.fabric.nodes().size() == 3);
  CHECK(topology.fabric.links().size() == 2);
}

TEST_CASE("a cache port with an LMC over 7 is refused, not looped on") {
  auto bytes = ibpm::test::small_ibnd_cache();
  bytes[kFirstPortLmc] = 0x76;
  CacheFile file;
  file.write(bytes);
  const ChildOutcome outcome = load_bounded(file);
  REQUIRE(outcome.ok());
  CHECK(outcome.kind == ChildOutcome::Kind::threw);
  CHECK_THAT(outcome.message,
             Catch::StartsWith(file.path.string() + ": corrupt libibnetdisc cache") &&
                 Catch::Contains("LMC over 7"));
}

TEST_CASE("cache counts the file cannot hold are refused before anything is allocated") {
  auto bytes = ibpm::test::small_ibnd_cache();
  bytes[8 + 3] = 0x7f;  // node count 0x7f000003
  CHECK_THROWS_WITH(ibpm::topology::validate_ibnd_cache(bytes, "c"),
                    Catch::Contains("bytes can hold"));
  bytes = ibpm::test::small_ibnd_cache();
  bytes.resize(bytes.size() - 40);
  CHECK_THROWS_WITH(ibpm::topology::validate_ibnd_cache(bytes, "c"),
                    Catch::Contains("remaining bytes"));
  bytes = ibpm::test::small_ibnd_cache();
  bytes[4] = 2;
  CHECK_THROWS_WITH(ibpm::topology::validate_ibnd_cache(bytes, "c"), Catch::Contains("version 2"));
}

TEST_CASE("every one-byte change of a cache loads or is refused in one line, within bounds") {
  // One child process for all the changes (a fork each would take a minute on a busy machine):
  // each load gets its own alarm, and the child notes which change it is on, so a change that
  // kills it (memory cap, alarm, crash) is named.
  const auto valid = ibpm::test::small_ibnd_cache();
  CacheFile file;
  const std::filesystem::path progress = file.path.string() + ".at";
  const std::string prefix = file.path.string() + ": ";
  file.write(valid);
  std::ofstream(progress) << std::string(64, ' ');
  const ChildOutcome outcome = ibpm::test::run_bounded(
      [&] {
        // Bytes changed in place: rewriting the file from scratch makes ext4 flush it every time.
        const int cache = ::open(file.path.c_str(), O_WRONLY),
                  note = ::open(progress.c_str(), O_WRONLY);
        std::size_t loaded = 0, refused = 0;
        for (std::size_t at = 0; at < valid.size(); ++at) {
          for (unsigned flip : {0x01u, 0x80u, 0x76u, 0xffu}) {
            const auto value = static_cast<unsigned char>(flip == 0x76 ? 0x76 : valid[at] ^ flip);
            if (value == valid[at]) continue;
            const std::string where =
                "byte " + std::to_string(at) + " set to " + std::to_string(value);
            std::string padded = where;
            padded.resize(64, ' ');
            if (::pwrite(note, padded.data(), padded.size(), 0) < 0 ||
                ::pwrite(cache, &value, 1, static_cast<off_t>(at)) != 1)
              throw std::runtime_error("cannot write the changed cache");
            ::alarm(2);
            try {
              ibpm::topology::load_topology_file(file.path.string());
              ++loaded;
            } catch (const std::bad_alloc&) {
              throw;
            } catch (const std::exception& e) {
              const std::string reason = e.what();
              if (reason.find('\n') != std::string::npos || !reason.starts_with(prefix))
                throw std::runtime_error(where + ": not a one-line reason: " + reason);
              ++refused;
            }
            if (::pwrite(cache, &valid[at], 1, static_cast<off_t>(at)) != 1)
              throw std::runtime_error("cannot restore the cache");
          }
        }
        return std::to_string(loaded) + " " + std::to_string(refused);
      },
      {.extra_memory = std::size_t{256} << 20, .seconds = 2});
  std::ifstream at(progress);
  std::string last;
  std::getline(at, last);
  std::filesystem::remove(progress);
  INFO("last change tried: " << last << "; outcome: " << outcome.message);
  REQUIRE(outcome.kind == ChildOutcome::Kind::returned);
  std::istringstream counts(outcome.message);
  std::size_t loaded = 0, refused = 0;
  counts >> loaded >> refused;
  CHECK(loaded > 0);
  CHECK(refused > 0);
}
