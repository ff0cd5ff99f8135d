// SPDX-License-Identifier: MIT

#include "plugin/icinga2_command.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>

namespace ibpm::plugin {

namespace {

// A string literal of the Icinga 2 DSL (a $ stays: values are macros, descriptions plain text).
std::string dsl_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\')
      out += std::string("\\") + c;
    else if (c == '\n' || c == '\t')
      out += ' ';
    else
      out += c;
  }
  return out + "\"";
}

// The variable's suffix for an option: its long name, lower case, '-' as '_'. The HCA's port
// (-P/--Port) is ca_port: check_ib_port's own --port is the port checked.
std::string variable_suffix(const std::string& long_name) {
  if (long_name == "Port") return "ca_port";
  std::string suffix;
  for (const char c : long_name)
    suffix += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return suffix;
}

bool is_flag(const CLI::Option& option) { return option.get_expected_max() == 0; }

std::string description_of(const CLI::Option& option) {
  std::string text = option.get_description();
  if (!option.get_default_str().empty() && !is_flag(option))
    text += " (default " + option.get_default_str() + ")";
  return text;
}

}  // namespace

std::string icinga2_check_command(const CLI::App& app, const Icinga2CommandSpec& spec) {
  const std::string name = spec.plugin.starts_with("check_") ? spec.plugin.substr(6) : spec.plugin;
  std::string text = "// " + spec.summary + "\nobject CheckCommand " + dsl_string(name) +
                     " {\n  command = [ IbpmPluginDir + " + dsl_string("/" + spec.plugin) +
                     " ]\n\n  arguments = {\n";
  const auto options = app.get_options([&](const CLI::Option* option) {
    // Hidden options (no group), positionals, help and version are not arguments.
    return !option->get_group().empty() && option->nonpositional() &&
           option != app.get_help_ptr() && option != app.get_version_ptr();
  });
  for (const CLI::Option* option : options) {
    const std::string long_name =
        option->get_lnames().empty() ? option->get_snames().front() : option->get_lnames().front();
    const std::string key = (option->get_lnames().empty() ? "-" : "--") + long_name;
    const std::string variable = name + "_" + variable_suffix(long_name);
    text += "    " + dsl_string(key) + " = {\n";
    if (is_flag(*option)) {
      text += "      set_if = " + dsl_string("$" + variable + "$") + "\n";
    } else {
      text += "      value = " + dsl_string("$" + variable + "$") + "\n";
      if (option->get_items_expected_max() > 1) text += "      repeat_key = true\n";
      if (option->get_required()) text += "      required = true\n";
    }
    text += "      description = " + dsl_string(description_of(*option)) + "\n    }\n";
  }
  text += "  }\n";
  if (!spec.host_defaults.empty()) text += "\n";
  for (const auto& [suffix, value] : spec.host_defaults)
    text += "  vars." + name + "_" + suffix + " = " + dsl_string(value) + "\n";
  return text + "}\n";
}

}  // namespace ibpm::plugin
