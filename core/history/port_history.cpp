#include "history/port_history.hpp"

#include <rrd.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "state/rrd_layout.hpp"
#include "state/state_error.hpp"

namespace ibpm::history {

namespace {

// What rrd_fetch hands back, freed however the read ends.
struct Fetched {
  time_t start = 0, end = 0;
  unsigned long step = 0, sources = 0;
  char** names = nullptr;
  rrd_value_t* data = nullptr;

  ~Fetched() {
    for (unsigned long i = 0; names && i < sources; ++i) rrd_freemem(names[i]);
    rrd_freemem(names);
    rrd_freemem(data);
  }
  std::size_t rows() const { return step ? static_cast<std::size_t>((end - start) / step) : 0; }
  // Row r covers (start + r*step, start + (r+1)*step].
  double value(std::size_t row, std::size_t source) const { return data[row * sources + source]; }
};

void fetch(const std::string& path, const char* cf, const Window& window, Fetched& out) {
  out.start = window.start;
  // rrd_fetch rounds the end up to the next step boundary, and a boundary up by a whole step:
  // one second less ends the fetch on the row that holds `end`, so a window ending on a
  // boundary reads no row after it.
  out.end = std::max(window.start + 1, window.end - 1);
  rrd_clear_error();
  if (rrd_fetch_r(path.c_str(), cf, &out.start, &out.end, &out.step, &out.sources, &out.names,
                  &out.data) != 0) {
    const char* reason = rrd_get_error();
    std::string text = reason && *reason ? reason : "librrd gave no reason";
    rrd_clear_error();
    throw state::StateError(path + ": cannot read its history: " + text);
  }
  if (out.sources != state::kSourceCount)
    throw state::StateError(path + ": not an ibpm port RRD (" + std::to_string(out.sources) +
                            " data sources)");
  for (std::size_t i = 0; i < out.sources; ++i)
    if (state::source_name(i) != out.names[i])
      throw state::StateError(path + ": not an ibpm port RRD (data source " +
                              std::string(out.names[i]) + ")");
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

Window window_ending_now(std::time_t seconds) {
  std::time_t now = std::time(nullptr);
  return {now - seconds, now};
}

HistoryReader::HistoryReader(std::string state_dir, std::string rrdcached)
    : store_(state::StoreOptions{std::move(state_dir), rrdcached, {}}),
      backend_(state::daemon_address(rrdcached)) {}

std::string HistoryReader::path(Guid node, PortNumber port) const {
  return store_.path(node, port);
}

PortHistory HistoryReader::read(Guid node, PortNumber port, const Window& window,
                                bool peaks) const {
  PortHistory history;
  const std::string file = path(node, port);
  if (window.end <= window.start || !exists(file)) return history;
  backend_.flush(store_.rrd_name(node, port));
  Fetched average, peak;
  fetch(file, "AVERAGE", window, average);
  if (peaks) fetch(file, "MAX", window, peak);
  const std::size_t rows = average.rows();
  history.step = static_cast<std::time_t>(average.step);
  // A row is covered when its data rate is known (every counter of a row is known or none).
  const std::size_t data = state::source_index(counters::Counter::xmit_data);
  for (std::size_t r = 0; r < rows; ++r)
    if (!std::isnan(average.value(r, data))) history.covered += history.step;
  for (std::size_t c = 0; c < counters::kCounterCount; ++c) {
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t r = 0; r < rows; ++r) {
      double v = average.value(r, state::source_index(static_cast<counters::Counter>(c)));
      if (std::isnan(v)) continue;
      sum += v;
      ++n;
    }
    if (n > 0) {
      history.average[c] = sum / static_cast<double>(n);
      history.found = true;
    }
    std::optional<double> top;
    for (std::size_t r = 0; r < peak.rows(); ++r) {
      double v = peak.value(r, state::source_index(static_cast<counters::Counter>(c)));
      if (!std::isnan(v) && (!top || v > *top)) top = v;
    }
    history.peak[c] = top;
  }
  return history;
}

}  // namespace ibpm::history
