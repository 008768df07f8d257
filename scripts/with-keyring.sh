#!/usr/bin/env bash
# Runs a command with an unlocked gnome-keyring in the current D-Bus session (tests only: the
# keyring gets a throw-away password and lives in a temporary data folder).
set -euo pipefail
export XDG_DATA_HOME="${XDG_DATA_HOME:-$(mktemp -d)}"
if command -v gnome-keyring-daemon >/dev/null; then
  # --unlock reads the password from stdin and creates the "login" collection when the
  # keyrings folder exists but holds none; a second --start would leave it uncreated.
  mkdir -p "$XDG_DATA_HOME/keyrings"
  eval "$(printf 'decision-studio-tests' | gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)" || true
  export GNOME_KEYRING_CONTROL="${GNOME_KEYRING_CONTROL:-}"
fi
exec "$@"
