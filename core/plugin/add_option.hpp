// SPDX-License-Identifier: MIT
// Adding options to a CLI::App without including CLI11: the commands' main files register their
// options through these functions, compiled once here, instead of instantiating CLI11's inline
// implementation in every file (about 5-10 s of compile time each). The help text, type names,
// defaults and error messages are CLI11's own, as if the file called app.add_option itself.
//
//   plugin::add_option(app, "--graphs", options.graphs, "Which cables get a profile")
//       .one_of({"all", "busiest", "none"})
//       .show_default();
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "plugin/cli_fwd.hpp"

namespace ibpm::plugin {

// One registered option, with the modifiers the commands use; each returns the option again.
class OptionRef {
 public:
  OptionRef(CLI::Option* option) : option_(option) {}  // NOLINT: the shared helpers' results

  OptionRef required();
  // The value must be one of `values` (CLI::IsMember: help ":{a,b,c}").
  OptionRef one_of(const std::vector<std::string>& values);
  OptionRef one_of_numbers(const std::vector<int>& values);
  // The value must lie in [min, max] (CLI::Range: help ":INT in [min - max]" by T's type name).
  template <class T>
  OptionRef in_range(T min, T max);
  OptionRef positive();      // CLI::PositiveNumber
  OptionRef non_negative();  // CLI::NonNegativeNumber
  OptionRef existing_file();
  // The value must pass `reason`, which returns "" to accept it, else why not (reported as
  // "OPTION: REASON", CLI::ValidationError); the help shows nothing of it.
  OptionRef check(std::function<std::string(const std::string&)> reason);
  OptionRef show_default();                         // the variable's value at registration
  OptionRef show_default(const std::string& text);  // `text` as the default in the help
  // A vector option's values are split at `separator` too ("--ber-windows 720,7500").
  OptionRef delimiter(char separator);
  // One value per occurrence of a vector option: the arguments after it are never taken as more
  // of its values (so positionals are not eaten).
  OptionRef one_value_each();
  OptionRef group(const std::string& name);
  OptionRef type_name(const std::string& name);
  OptionRef expected(int count);  // values per occurrence
  OptionRef excludes(OptionRef other);
  OptionRef needs(OptionRef other);

  // How often the option was given (after parsing).
  std::size_t count() const;
  CLI::Option* get() const { return option_; }

 private:
  CLI::Option* option_;
};

// app.add_option(names, variable, description): an option, or a positional argument when
// `names` has no dash. Instantiated in add_option.cpp for the variable types the commands use.
template <class T>
OptionRef add_option(CLI::App& app, const std::string& names, T& variable,
                     const std::string& description);
// app.add_option_function<std::string>(names, assign, description): an option with no variable,
// `assign` receiving its value (and throwing to refuse it).
OptionRef add_option_function(CLI::App& app, const std::string& names,
                              std::function<void(const std::string&)> assign,
                              const std::string& description);
// app.add_flag(names, variable, description): bool sets, an integer counts.
template <class T>
OptionRef add_flag(CLI::App& app, const std::string& names, T& variable,
                   const std::string& description);

// A subcommand of `app`; the options are added to it as to an app.
CLI::App& add_subcommand(CLI::App& app, const std::string& name, const std::string& description);
// Whether the subcommand was given (after parsing).
bool given(const CLI::App& subcommand);
// Exactly one subcommand must be given.
void require_subcommand(CLI::App& app);
// Text after the options in the help.
void set_footer(CLI::App& app, const std::string& text);
// Text after the options, made when the help is printed: it comes first, then '\n', then the
// text of the set_footer above.
void set_footer(CLI::App& app, std::function<std::string()> text);
// After parsing `app`, at least one of `options` must have been given: else the usage error
// "WHAT is required" (CLI::RequiredError).
void require_any(CLI::App& app, std::vector<OptionRef> options, const std::string& what);

// A value the parser accepted but the command cannot use, found after parsing: reported as CLI11
// reports a failed check (CLI::ValidationError: "OPTION: REASON" and its exit code).
class UsageError : public std::runtime_error {
 public:
  UsageError(const std::string& option, const std::string& reason)
      : std::runtime_error(option + ": " + reason) {}
};

// An App of its own, for the commands that parse and run themselves (ibpm-sim's subcommands);
// the tools use run_tool (cli.hpp).
class CommandLine {
 public:
  CommandLine(const std::string& description, const std::string& name);
  ~CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  CLI::App& app() { return *app_; }
  // Parses; -1 when the command goes on, else the exit code once CLI11 printed the help or the
  // usage error (as CLI11_PARSE does).
  int parse(int argc, const char* const* argv);
  // Prints the error as CLI11 prints a failed check and returns its exit code.
  int exit(const UsageError& error);

 private:
  std::unique_ptr<CLI::App> app_;
};

}  // namespace ibpm::plugin
