#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, and opens Decision Studio on the
# embedded tiny model with the support-triage policy.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-debian.sh
bash scripts/prepare-tokenizer.sh build
cmake --preset default >/dev/null
cmake --build build -j"$(nproc)"
exec build/bin/decision-studio "$@"
