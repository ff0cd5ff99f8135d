// SPDX-License-Identifier: MIT
// The six options that say where and how the switches' results reach Icinga 2's REST API,
// registered in one place for the two commands that take them: check_ib_fabric, which submits
// (the URL checked, the options that go together required together), and ibpm-nagios-config,
// which writes them into the configuration for the sweep it sets up (its defaults shown). One
// name, one meaning, one type for each in both commands.
#pragma once

#include <string>

#include "plugin/cli_fwd.hpp"

namespace ibpm::products {

// Where each option's value goes.
struct Icinga2OptionValues {
  std::string& api;            // --icinga2-api URL
  std::string& ca;             // --icinga2-ca FILE
  std::string& user;           // --icinga2-user NAME
  std::string& password_file;  // --icinga2-password-file FILE
  std::string& cert;           // --icinga2-cert FILE
  std::string& key;            // --icinga2-key FILE
};

enum class Icinga2OptionsFor {
  submitting,   // check_ib_fabric
  configuring,  // ibpm-nagios-config: what the generated configuration hands the sweep
};

void add_icinga2_options(CLI::App& app, const Icinga2OptionValues& values,
                         Icinga2OptionsFor purpose, const std::string& group);

}  // namespace ibpm::products
