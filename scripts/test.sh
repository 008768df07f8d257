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
dbus-run-session -- bash scripts/with-keyring.sh ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"

# The sanitizer job: ASan + UBSan build of the engine and core unit tests, and a short run of each
# libFuzzer target: 20,000 executions per target from a fixed seed (DS_FUZZ_RUNS), so a given tree
# always fuzzes the same inputs. It runs in CI (CI=true) and wherever DS_SANITIZE_JOB=1;
# DS_SANITIZE_JOB=0 skips it.
sanitize="${DS_SANITIZE_JOB:-}"
[ -z "$sanitize" ] && [ "${CI:-}" = "true" ] && sanitize=1
if [ "$sanitize" = "1" ]; then
  bash scripts/sanitize.sh --runs "${DS_FUZZ_RUNS:-20000}"
fi
