// SPDX-License-Identifier: MIT
// The one file that instantiates CLI11's option registration for the commands' variable types.

#include "plugin/add_option.hpp"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <utility>

namespace ibpm::plugin {

OptionRef OptionRef::required() { return option_->required(); }

OptionRef OptionRef::one_of(const std::vector<std::string>& values) {
  return option_->check(CLI::IsMember(values));
}

OptionRef OptionRef::one_of_numbers(const std::vector<int>& values) {
  return option_->check(CLI::IsMember(values));
}

template <class T>
OptionRef OptionRef::in_range(T min, T max) {
  return option_->check(CLI::Range(min, max));
}

OptionRef OptionRef::positive() { return option_->check(CLI::PositiveNumber); }
OptionRef OptionRef::non_negative() { return option_->check(CLI::NonNegativeNumber); }
OptionRef OptionRef::existing_file() { return option_->check(CLI::ExistingFile); }
OptionRef OptionRef::check(std::function<std::string(const std::string&)> reason) {
  return option_->check(std::move(reason));
}
OptionRef OptionRef::show_default() { return option_->capture_default_str(); }
OptionRef OptionRef::show_default(const std::string& text) { return option_->default_str(text); }
OptionRef OptionRef::delimiter(char separator) { return option_->delimiter(separator); }
OptionRef OptionRef::one_value_each() { return option_->allow_extra_args(false); }
OptionRef OptionRef::group(const std::string& name) { return option_->group(name); }
OptionRef OptionRef::type_name(const std::string& name) { return option_->type_name(name); }
OptionRef OptionRef::expected(int count) { return option_->expected(count); }
OptionRef OptionRef::excludes(OptionRef other) { return option_->excludes(other.get()); }
OptionRef OptionRef::needs(OptionRef other) { return option_->needs(other.get()); }
std::size_t OptionRef::count() const { return option_->count(); }

template OptionRef OptionRef::in_range(int, int);
template OptionRef OptionRef::in_range(unsigned, unsigned);
template OptionRef OptionRef::in_range(long, long);
template OptionRef OptionRef::in_range(unsigned long, unsigned long);
template OptionRef OptionRef::in_range(double, double);

template <class T>
OptionRef add_option(CLI::App& app, const std::string& names, T& variable,
                     const std::string& description) {
  return app.add_option(names, variable, description);
}

OptionRef add_option_function(CLI::App& app, const std::string& names,
                              std::function<void(const std::string&)> assign,
                              const std::string& description) {
  return app.add_option_function<std::string>(names, std::move(assign), description);
}

template <class T>
OptionRef add_flag(CLI::App& app, const std::string& names, T& variable,
                   const std::string& description) {
  return app.add_flag(names, variable, description);
}

// The variable types of the commands' options.
template OptionRef add_option(CLI::App&, const std::string&, std::string&, const std::string&);
template OptionRef add_option(CLI::App&, const std::string&, int&, const std::string&);
template OptionRef add_option(CLI::App&, const std::string&, unsigned&, const std::string&);
template OptionRef add_option(CLI::App&, const std::string&, unsigned long&, const std::string&);
template OptionRef add_option(CLI::App&, const std::string&, long&, const std::string&);
template OptionRef add_option(CLI::App&, const std::string&, double&, const std::string&);
template OptionRef add_option(CLI::App&, const std::string&, std::optional<int>&,
                              const std::string&);
template OptionRef add_option(CLI::App&, const std::string&, std::optional<unsigned>&,
                              const std::string&);
template OptionRef add_option(CLI::App&, const std::string&, std::optional<double>&,
                              const std::string&);
template OptionRef add_option(CLI::App&, const std::string&, std::vector<std::string>&,
                              const std::string&);
template OptionRef add_option(CLI::App&, const std::string&, std::vector<double>&,
                              const std::string&);
template OptionRef add_option(CLI::App&, const std::string&, std::filesystem::path&,
                              const std::string&);
template OptionRef add_flag(CLI::App&, const std::string&, bool&, const std::string&);
template OptionRef add_flag(CLI::App&, const std::string&, int&, const std::string&);

CLI::App& add_subcommand(CLI::App& app, const std::string& name, const std::string& description) {
  return *app.add_subcommand(name, description);
}

bool given(const CLI::App& subcommand) { return subcommand.parsed(); }

void require_subcommand(CLI::App& app) { app.require_subcommand(1); }

void set_footer(CLI::App& app, const std::string& text) { app.footer(text); }
void set_footer(CLI::App& app, std::function<std::string()> text) { app.footer(std::move(text)); }

void require_any(CLI::App& app, std::vector<OptionRef> options, const std::string& what) {
  app.callback([options = std::move(options), what] {
    for (const OptionRef& option : options)
      if (option.count() > 0) return;
    throw CLI::RequiredError(what);
  });
}

CommandLine::CommandLine(const std::string& description, const std::string& name)
    : app_(std::make_unique<CLI::App>(description, name)) {}

CommandLine::~CommandLine() = default;

int CommandLine::parse(int argc, const char* const* argv) {
  try {
    app_->parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app_->exit(e);
  }
  return -1;
}

int CommandLine::exit(const UsageError& error) {
  return app_->exit(CLI::ValidationError(error.what()));
}

}  // namespace ibpm::plugin
