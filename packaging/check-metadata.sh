#!/usr/bin/env bash
# The desktop entry and the AppStream metadata are valid, without errors, warnings or hints
# (desktop-file-validate; appstreamcli validate --no-net --strict), and the newest release in
# the metadata is the project's version.
#   check-metadata.sh DESKTOP_FILE METAINFO_FILE VERSION
set -euo pipefail
desktop=$1 metainfo=$2 version=$3
status=0

out=$(desktop-file-validate "$desktop" 2>&1) || status=1
if [ -n "$out" ]; then
  echo "$out"
  status=1
fi
echo "desktop-file-validate $desktop: $([ -z "$out" ] && echo clean || echo NOT clean)"

if ! appstreamcli validate --no-net --strict "$metainfo"; then
  echo "appstreamcli validate --no-net --strict $metainfo: FAILED"
  status=1
fi

# <releases> lists the newest release first.
newest=$(sed -n 's/.*<release [^>]*version="\([^"]*\)".*/\1/p' "$metainfo" | head -n1)
if [ "$newest" != "$version" ]; then
  echo "$metainfo: newest release is '$newest', the project's version is $version"
  status=1
fi
# The desktop entry and the metadata name the same icon and the same desktop id.
icon=$(sed -n 's/^Icon=//p' "$desktop")
if ! grep -q "<icon type=\"stock\">$icon</icon>" "$metainfo"; then
  echo "$metainfo: no <icon type=\"stock\">$icon</icon> (the desktop entry's Icon=)"
  status=1
fi
if ! grep -q "<launchable type=\"desktop-id\">$(basename "$desktop")</launchable>" "$metainfo"; then
  echo "$metainfo: its launchable is not $(basename "$desktop")"
  status=1
fi
exit $status
