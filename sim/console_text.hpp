// SPDX-License-Identifier: MIT
// Reading ibsim's console output: the reply to a batch of commands, and the errors in it.
//
// ibsim reads its console in lines of at most 127 bytes (longer ones are cut into several
// commands), prints "sim> " after each command without a newline, echoes comment lines
// ("# ...") and reports failures as "# ..." lines ("# nodeid "x" (x) not found", "# bad port
// number ...", "# field ... cannot be found ...") or "command 'x' unknown - skipped".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ibpm::sim {

// Longest console line ibsim takes in one piece (its buffer is 128 bytes with the newline).
inline constexpr std::size_t kConsoleLineMax = 120;

// The raw console output up to (not including) the sync marker, without prompts and blank
// lines, one output line per line.
std::string clean_console_reply(std::string_view raw, std::string_view marker);

// The lines of a cleaned reply that report a failure of `commands`; empty when they all
// worked. Dump and Attached print "# ..." lines of their own, so batches holding those (and
// echoed comments) are judged by "unknown - skipped" and file errors only.
std::vector<std::string> console_errors(std::string_view reply,
                                        const std::vector<std::string>& commands);

// Pids of attached clients from the reply to "Attached" ("Client 3: pid 1234 connected at ..."),
// as (client number, pid) pairs.
std::vector<std::pair<int, int>> attached_clients(std::string_view reply);

}  // namespace ibpm::sim
