// SPDX-License-Identifier: MIT
// ibpm-anonymize's key: a run's mapping (original GUID -> anonymous GUID, original description ->
// anonymous name), read back by the next run with the same key, so that recordings anonymized on
// different days map the same nodes the same way. It undoes the anonymization: it is written
// 0600 and replaced whole, and neither read nor written through a symbolic link. What is not a key
// is one line naming the file, the line and the fault, and the key is left as it was.
//
//   ibpm-anonymize-key 1
//   # comments, blank lines
//   guid 0xORIGINAL 0xANONYMOUS
//   name "ORIGINAL" "ANONYMOUS"     (C escapes: \" \\ \xNN)
//
// A key written before the version line (its first line "# ibpm-anonymize key: ...") is read too.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "anonymous_names.hpp"
#include "fabric/types.hpp"

namespace ibpm::tools {

struct AnonymizeKey {
  std::vector<std::pair<Guid, Guid>> guids;                // original, anonymous
  std::vector<std::pair<std::string, std::string>> names;  // original, anonymous
};

// The largest key read (a fabric of 100,000 nodes takes about 10 MB).
constexpr std::size_t kMaxKeyBytes = 256u << 20;

// Throws std::runtime_error "ORIGIN: line N: reason": not a key (no version line), another
// version, a line that is neither guid nor name, a GUID that is not 0x and 16 hex digits or is 0,
// a name not quoted or empty, an original twice, two originals given one anonymous GUID or name.
AnonymizeKey parse_key(std::string_view text, const std::string& origin);

// The key at PATH; nullopt when there is none yet. Throws as parse_key, or with one line when
// PATH is a symbolic link, not a regular file, unreadable or larger than kMaxKeyBytes.
std::optional<AnonymizeKey> read_key_file(const std::string& path);

// Writes `names` (after assign()) to PATH: 0600, replaced whole. Throws std::runtime_error when
// PATH is a symbolic link or cannot be written.
void write_key_file(const std::string& path, const AnonymousNames& names);

}  // namespace ibpm::tools
