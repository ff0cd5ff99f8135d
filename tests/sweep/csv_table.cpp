// SPDX-License-Identifier: MIT

#include "sweep/csv_table.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ibpm::sweep::test {

namespace {

// Splits the whole text into records of fields.
std::vector<std::vector<std::string>> parse(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      record.push_back(std::move(field));
      field.clear();
      records.push_back(std::move(record));
      record.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  if (!field.empty() || !record.empty()) {
    record.push_back(std::move(field));
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace

CsvTable read_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read");
  std::stringstream text;
  text << in.rdbuf();
  auto records = parse(text.str());
  CsvTable table;
  if (records.empty()) return table;
  table.header = records.front();
  for (std::size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != table.header.size())
      throw std::runtime_error(path + ": row " + std::to_string(r) + " has " +
                               std::to_string(records[r].size()) + " fields, not " +
                               std::to_string(table.header.size()));
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < table.header.size(); ++c) row[table.header[c]] = records[r][c];
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace ibpm::sweep::test
