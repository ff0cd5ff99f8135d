#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes the Icinga 2 CheckCommands of every check, from each check's own option table
# (check_ib_* --icinga2-check-command), to stdout: nagios-config/icinga2/ibpm-commands.conf is
# this output, and a test (test_options_in_step) fails when the two differ.
# Usage: scripts/icinga2-commands.sh BIN_DIR > nagios-config/icinga2/ibpm-commands.conf
set -euo pipefail
bin=${1:?usage: $0 BIN_DIR}
cat <<'HEADER'
// Icinga 2 CheckCommand definitions for the ibpm checks, written by scripts/icinga2-commands.sh
// from the checks' own options (do not edit: run it after changing an option). In the style of
// the Icinga Template Library: each command is named after its plugin without "check_", every
// option of the plugin is an argument with its --help description, flags use set_if, and every
// variable is the command's name and the option's (ib_port_node, ib_node_warn, ...).
// IbpmPluginDir and the ib_* settings the defaults refer to are set in ibpm-settings.conf.
//
// The node checked defaults to the host's ib_guid, the baseline to its ib_baseline; the state
// directory, node-name-map, HCA and rrdcached of every command are set once in the "ibpm-settings"
// host template (ibpm-settings.conf).
HEADER
for check in check_ib_topology check_ib_port check_ib_node check_ib_fabric check_ib_sm check_ib_routes \
  check_ib_events; do
  echo
  "$bin/$check" --icinga2-check-command
done
