// SPDX-License-Identifier: MIT
// A re-poll's ports written into the sweep's OpenMetrics file (openmetrics.hpp), so that
// Prometheus sees a link that went down seconds after its trap rather than at the next sweep.
// Every series of a port the re-poll read (a sample whose first labels are its node_guid and
// port) is replaced by the re-poll's, placed in its metric family (HELP and TYPE once, samples
// together); every other port's series and the sweep's own figures stay as the sweep wrote them,
// and the re-poll's figures are left out: they stand for a few switches, not a sweep.
#pragma once

#include <string>

namespace ibpm::products {

// `sweep_text` (the file as it is, may be empty) with the port series of `repoll_text` (the
// re-poll's ports as openmetrics_text writes them) in place of the same ports' series.
std::string merge_openmetrics(const std::string& sweep_text, const std::string& repoll_text);

// merge_openmetrics on the file at `path` (absent: the re-poll's port series alone), replaced
// whole (a temporary beside it, then rename). A sweep that replaces the file between the read and
// the rename loses to the re-poll until the next sweep. Throws std::runtime_error naming the path.
void merge_openmetrics_file(const std::string& path, const std::string& repoll_text);

}  // namespace ibpm::products
