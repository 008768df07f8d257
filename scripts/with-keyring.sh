#!/usr/bin/env bash
# Runs a command with an unlocked gnome-keyring in the current D-Bus session (tests only: the
# keyring gets a throw-away password and lives in a temporary home).
set -euo pipefail
export XDG_DATA_HOME="${XDG_DATA_HOME:-$(mktemp -d)}"
if command -v gnome-keyring-daemon >/dev/null; then
  eval "$(printf 'decision-studio-tests\n' | gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)" || true
  eval "$(gnome-keyring-daemon --start --components=secrets 2>/dev/null)" || true
  export GNOME_KEYRING_CONTROL
fi
exec "$@"
