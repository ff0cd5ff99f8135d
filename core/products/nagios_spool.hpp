// SPDX-License-Identifier: MIT
// Passive check results handed to Nagios 4 through its check result spool (check_result_path in
// nagios.cfg): one file per sweep holding every result, in the format Nagios writes there itself
// and reads back with its reaper:
//
//   ### Active Check Result File ###
//   file_time=1714564800
//
//   ### Nagios Service Check Result ###
//   host_name=leaf01
//   service_description=ib-node
//   check_type=1            (passive)
//   ... start_time=, finish_time=, return_code=, output= (newlines as \n, backslashes as \\)
//
// The file is written whole under a temporary name, renamed to a free cXXXXXX name, and only
// then is its cXXXXXX.ok marker created: the reaper reads a file only once its marker exists,
// so it never sees half a file. One file with 10,000 results is one rename and one marker,
// where the external command file would take 10,000 commands through one pipe (or a
// PROCESS_FILE whose file Nagios reads from the pipe's reader, a step more).
#pragma once

#include <string>
#include <vector>

#include "plugin/state.hpp"

namespace ibpm::products {

struct PassiveResult {
  std::string host;  // object names: already safe
  std::string service;
  plugin::State state = plugin::State::unknown;
  std::string output;  // plugin output, may span lines (perfdata after " | " on the first)
  std::vector<std::string> perfdata;  // the same perfdata, an item each (for APIs that take a list)
};

// `output` as the spool holds it: one line, '\' as "\\", line feeds as "\n", other control
// characters as spaces.
std::string spool_output(const std::string& output);

// The file's text. Times in epoch seconds.
std::string checkresult_text(const std::vector<PassiveResult>& results, double start, double finish,
                             double file_time);

// Writes the file into `dir` (Nagios's check_result_path) and its .ok marker; returns the
// file's path. Throws std::runtime_error with a one-line reason (the folder missing, not
// writable); nothing is left behind then.
std::string write_checkresult_file(const std::string& dir,
                                   const std::vector<PassiveResult>& results, double start,
                                   double finish);

}  // namespace ibpm::products
