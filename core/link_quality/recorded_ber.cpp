// SPDX-License-Identifier: MIT

#include "link_quality/recorded_ber.hpp"

#include <filesystem>
#include <system_error>

#include "layout/state_layout.hpp"
#include "state/sample_record.hpp"

namespace ibpm::link_quality {

std::map<PortRef, RecordedBer> read_recorded_ber(const std::string& state_dir,
                                                 const BerSettings& settings,
                                                 std::vector<std::string>& warnings) {
  std::map<PortRef, RecordedBer> ports;
  const std::filesystem::path folder = layout::StateLayout(state_dir).samples_dir();
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    if (entry.path().extension() != layout::StateLayout::kSampleRecordExtension) continue;
    std::string warning;
    const state::SampleRecord record = state::SampleRecord::load(entry.path().string(), warning);
    if (!warning.empty()) warnings.push_back(warning);
    record.for_each([&](const PortRef& ref, const state::PortMemory& memory) {
      auto [it, added] = ports.try_emplace(ref);
      if (!added && it->second.sample_time >= memory.sample.time) return;
      it->second.sample_time = memory.sample.time;
      it->second.windows.clear();
      if (memory.live && memory.live->state == PortState::active)
        it->second.windows = ber_windows(memory.errors, memory.sample.time, memory.live->width,
                                         memory.live->speed, settings);
    });
  }
  return ports;
}

const BerWindow* worst_window(const RecordedBer& ber) {
  const BerWindow* worst = nullptr;
  for (const BerWindow& w : ber.windows) {
    if (!w.judged() || w.ber.errors <= 0) continue;
    if (!worst || w.ber.lower > worst->ber.lower ||
        (w.ber.lower == worst->ber.lower && w.ber.ratio > worst->ber.ratio))
      worst = &w;
  }
  return worst;
}

std::string summary(const RecordedBer& ber) {
  const BerWindow* w = worst_window(ber);
  if (!w) return "";
  return ber_metric(w->counter) + " " + format_ber(w->ber.ratio) + " over " +
         format_window(w->window);
}

}  // namespace ibpm::link_quality
