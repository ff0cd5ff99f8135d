// SPDX-License-Identifier: MIT

#include "products/icinga2_options.hpp"

#include "plugin/add_option.hpp"
#include "plugin/cli.hpp"

namespace ibpm::products {

namespace {

// The option's help: what it is, then what the command does with it.
std::string help(Icinga2OptionsFor purpose, const std::string& submitting,
                 const std::string& configuring) {
  return purpose == Icinga2OptionsFor::submitting ? submitting : configuring;
}

}  // namespace

void add_icinga2_options(CLI::App& app, const Icinga2OptionValues& values,
                         Icinga2OptionsFor purpose, const std::string& group) {
  const bool submitting = purpose == Icinga2OptionsFor::submitting;
  plugin::OptionRef api =
      plugin::add_option(
          app, "--icinga2-api", values.api,
          help(purpose,
               "After each sweep, hand every switch's result (what check_ib_node would say "
               "of its ports) to its passive ib-node service through Icinga 2's REST API at "
               "URL, e.g. https://icinga.example.org:5665 (see ibpm-nagios-config "
               "--node-services passive)",
               "The REST API the sweep submits the switches' results to (default: the "
               "endpoint running the sweep, \"https://\" + NodeName + \":5665\")"))
          .type_name("URL")
          .check([](const std::string& url) {
            return url.rfind("https://", 0) == 0
                       ? std::string()
                       : std::string("the API's URL starts with https://");
          })
          .group(group);
  plugin::OptionRef ca =
      plugin::add_option(app, "--icinga2-ca", values.ca,
                         help(purpose,
                              "The CA certificate (PEM) the API's certificate must chain to, "
                              "e.g. /var/lib/icinga2/certs/ca.crt; no other CA is trusted",
                              "The CA file the API's certificate is verified against"))
          .type_name("FILE")
          .group(group);
  plugin::OptionRef user =
      plugin::add_option(app, "--icinga2-user", values.user,
                         help(purpose,
                              "The ApiUser the results are submitted as (its only permission: "
                              "actions/process-check-result)",
                              "The ApiUser (its only permission: actions/process-check-result)"))
          .type_name("NAME")
          .group(group);
  plugin::OptionRef password =
      plugin::add_option(app, "--icinga2-password-file", values.password_file,
                         help(purpose,
                              "The file holding the ApiUser's password (its first line); "
                              "refused when group or others may read it",
                              "The file with the ApiUser's password, readable only by the user "
                              "the checks run as"))
          .type_name("FILE")
          .group(group);
  plugin::OptionRef cert =
      plugin::add_option(app, "--icinga2-cert", values.cert,
                         help(purpose,
                              "Or a client certificate (PEM) to authenticate with: the "
                              "ApiUser's client_cn names its CN",
                              "With --icinga2-api-user-cn: the sweep's client certificate (PEM)"))
          .type_name("FILE")
          .group(group);
  plugin::OptionRef key =
      plugin::add_option(app, "--icinga2-key", values.key,
                         help(purpose,
                              "The client certificate's key; refused when group or others may "
                              "read it",
                              "With --icinga2-api-user-cn: its key, readable only by the user "
                              "the checks run as"))
          .type_name("FILE")
          .group(group);
  if (!submitting) {
    // The generator has a default for each but the URL, and writes the ones the mode uses.
    for (plugin::OptionRef* option : {&ca, &user, &password, &cert, &key}) option->show_default();
    return;
  }
  // What the check needs: the CA, and a password or a client certificate.
  cert.needs(api).needs(key);
  key.needs(api).needs(cert);
  api.needs(ca);
  ca.needs(api);
  user.needs(api).needs(password);
  password.needs(api).needs(user);
}

}  // namespace ibpm::products
