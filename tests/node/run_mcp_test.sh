#!/usr/bin/env bash
# Runs mcp_client.mjs (the official @modelcontextprotocol/sdk client) against the real
# `dgem mcp --local`. Usage: run_mcp_test.sh DGEM_BINARY BUILD_DIR MODEL_DIR. Installs the SDK
# from the committed lock file into BUILD_DIR/node-tests (install_node_modules.sh: once, under a
# lock, so it can run beside core_node_openai).
set -euo pipefail
dgem="$1"; build="$2"; model="$3"
here="$(cd "$(dirname "$0")" && pwd)"
work="$build/node-tests"
bash "$here/install_node_modules.sh" "$work"
cp "$here/mcp_client.mjs" "$work/"
cd "$work"
exec node mcp_client.mjs "$dgem" "$model"
