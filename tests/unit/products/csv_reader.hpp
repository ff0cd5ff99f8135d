// SPDX-License-Identifier: MIT
// A strict RFC 4180 reader for tests: records of fields, quoted fields may hold commas, doubled
// quotes and line breaks. Records end in "\n" (the writer's line end).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ibpm::products::test {

using CsvRecord = std::vector<std::string>;

inline std::vector<CsvRecord> parse_csv(std::string_view text) {
  std::vector<CsvRecord> records;
  CsvRecord record;
  std::string field;
  std::size_t i = 0;
  auto end_field = [&] {
    record.push_back(std::move(field));
    field.clear();
  };
  while (i < text.size()) {
    if (text[i] == '"') {
      ++i;
      for (;;) {
        if (i >= text.size()) throw std::runtime_error("CSV: unterminated quoted field");
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += text[i++];
      }
      if (i < text.size() && text[i] != ',' && text[i] != '\n')
        throw std::runtime_error("CSV: text after a closing quote");
    }
    while (i < text.size() && text[i] != ',' && text[i] != '\n') {
      if (text[i] == '"') throw std::runtime_error("CSV: quote inside an unquoted field");
      field += text[i++];
    }
    if (i >= text.size()) throw std::runtime_error("CSV: last record without a line end");
    end_field();
    if (text[i++] == '\n') {
      records.push_back(std::move(record));
      record.clear();
    }
  }
  return records;
}

}  // namespace ibpm::products::test
