#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything and runs ctest.
# Tests that need a keychain run inside a private D-Bus session with gnome-keyring (below);
# GUI tests use Qt's offscreen platform, so no display is needed.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-debian.sh
bash scripts/prepare-tokenizer.sh build

preset=default
[ "${CI:-}" = "true" ] && preset=ci
cmake --preset "$preset" >/dev/null
cmake --build build -j"$(nproc)"

# ctest inside a fresh D-Bus session so that gnome-keyring (QtKeychain's backend) is reachable.
exec dbus-run-session -- bash scripts/with-keyring.sh ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
