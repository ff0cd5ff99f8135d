// SPDX-License-Identifier: MIT

#include "poll/store_trouble.hpp"

#include <cstdio>

namespace ibpm::poll {

namespace {

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", seconds);
  return text;
}

std::string plural(std::size_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

plugin::Perfdata count_item(std::string label, std::size_t value) {
  return plugin::Perfdata{std::move(label), static_cast<double>(value), "", {}, {}, 0.0, {}};
}

}  // namespace

void StoreTrouble::add_overtaken(std::string file, double ahead) {
  ++overtaken;
  if (overtaken_named.size() < kNamed) overtaken_named.push_back({std::move(file), ahead});
}

void StoreTrouble::merge(const StoreTrouble& other) {
  fail(other.failure);
  unstored += other.unstored;
  unchecked = unchecked || other.unchecked;
  const std::size_t before = overtaken;
  for (const Overtaken& o : other.overtaken_named) add_overtaken(o.file, o.ahead);
  overtaken = before + other.overtaken;
}

std::string describe_failure(const StoreTrouble& trouble) {
  if (trouble.failure.empty()) return "";
  std::string text = "the store failed (" + trouble.failure + ")";
  if (trouble.unstored > 0)
    text += ": " + plural(trouble.unstored, "port's sample", "ports' samples") +
            " not stored, their states judged from the sample record; their history has a hole";
  if (trouble.unchecked)
    text += std::string(trouble.unstored ? ", and" : ":") +
            " the ports' last updates in the store not checked";
  return text;
}

std::string describe_overtaken(const StoreTrouble& trouble) {
  if (trouble.overtaken == 0) return "";
  std::string text = plural(trouble.overtaken, "update", "updates") +
                     " refused: the store held a later sample of ";
  for (std::size_t i = 0; i < trouble.overtaken_named.size(); ++i) {
    const StoreTrouble::Overtaken& o = trouble.overtaken_named[i];
    text += (i ? ", " : "") + o.file + " (" + seconds_text(o.ahead) + " ahead)";
  }
  if (trouble.overtaken > trouble.overtaken_named.size())
    text += " and " + std::to_string(trouble.overtaken - trouble.overtaken_named.size()) + " more";
  return text +
         " (dropped as another collector's sample: anyone who reaches the store can date updates "
         "just ahead of ours, and its history then holds theirs)";
}

void add_store_lines(plugin::Check& check, const StoreTrouble& trouble, bool central,
                     plugin::State overtaken_state) {
  const auto raise = [&check](plugin::State state) {
    if (check.state) check.state = plugin::worst(*check.state, state);
  };
  if (const std::string failed = describe_failure(trouble); !failed.empty()) {
    check.subchecks.push_back({plugin::State::unknown, failed, {}, {}});
    raise(plugin::State::unknown);
    check.perfdata.push_back(count_item("samples_not_stored", trouble.unstored));
  }
  if (const std::string refused = describe_overtaken(trouble); !refused.empty()) {
    check.subchecks.push_back({overtaken_state, refused, {}, {}});
    raise(overtaken_state);
  }
  if (central || trouble.overtaken > 0)
    check.perfdata.push_back(count_item("store_overtaken", trouble.overtaken));
}

}  // namespace ibpm::poll
