#!/bin/sh
# The built spindle.lv2 bundle as LV2 tools see it: lv2ls lists the plugin, lv2info
# describes it with no error or warning, and sord_validate finds its Turtle valid
# against the LV2 specifications.
#   bundle_check.sh BUILD_LIB_LV2_DIR
set -eu
lib="$1"
uri="urn:spindle:lv2"
specs=/usr/lib/lv2
export LV2_PATH="$lib:$specs"
fail() { echo "bundle_check: $*" >&2; exit 1; }
for tool in lv2ls lv2info sord_validate; do
  command -v "$tool" >/dev/null || { echo "SKIPPED: $tool not installed (lilv-utils, sordi)"; exit 77; }
done

lv2ls | grep -qx "$uri" || fail "lv2ls does not list $uri (LV2_PATH=$LV2_PATH)"
info=$(lv2info "$uri" 2>&1) || fail "lv2info failed: $info"
case "$info" in *error*|*warning*) fail "lv2info reports a problem: $info" ;; esac
echo "$info" | grep -q "Class: *Instrument Plugin" || fail "not an instrument plugin: $info"
echo "$info" | grep -q "Symbol: *freewheel" || fail "no freewheel port: $info"
report=$(sord_validate $(find "$specs" -path '*.lv2/*.ttl') "$lib"/spindle.lv2/*.ttl 2>&1) || fail "$report"
echo "$report" | grep -q "Found 0 errors" || fail "sord_validate: $report"
echo "bundle_check: $uri listed, described and valid"
