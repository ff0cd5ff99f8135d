#!/bin/sh
# SPDX-License-Identifier: MIT
# The shipped Prometheus rules: promtool check rules on each file, then promtool test rules
# (ibpm-rules.test.yml) on copies without their annotations (promtool compares annotations too,
# and the summaries' templates are checked by check rules already): every alert fires on the
# series a bad cable gives, and none on a clean fabric.
# Usage: test-rules.sh SOURCE_DIR GENERATED_THRESHOLD_ALERTS
set -eu
src=$1
generated=$2
if ! command -v promtool >/dev/null 2>&1; then
  echo "SKIPPED: promtool not installed (Debian package prometheus)"
  exit 0
fi
promtool check rules "$src/prometheus/ibpm-alerts.yml" "$src/prometheus/ibpm-recording.yml" \
  "$generated"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in "$src/prometheus/ibpm-alerts.yml" "$src/prometheus/ibpm-recording.yml" "$generated"; do
  sed -e '/^ *annotations:$/d' -e '/^ *summary: /d' "$f" >"$work/$(basename "$f")"
done
cp "$src/tests/prometheus/ibpm-rules.test.yml" "$work/"
promtool test rules "$work/ibpm-rules.test.yml"
