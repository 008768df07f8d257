#!/usr/bin/env bash
# Runs mcp_http_client.mjs (the official @modelcontextprotocol/sdk client over Streamable HTTP)
# against a real `dgem serve` with API_KEY and a --templates folder, and through
# `dgem mcp --remote`. Usage: run_mcp_http_test.sh DGEM_BINARY BUILD_DIR MODEL_DIR.
set -euo pipefail
dgem="$1"; build="$2"; model="$3"
here="$(cd "$(dirname "$0")" && pwd)"
work="$build/node-tests"
bash "$here/install_node_modules.sh" "$work"
cp "$here/mcp_http_client.mjs" "$work/"

tmp="$(mktemp -d)"
log="$tmp/serve.out"
key="mcp-http-key-$$"
mkdir -p "$tmp/templates" "$tmp/data"
cat >"$tmp/templates/door_check.json.tmpl" <<'TMPL'
{{/* Door check: is the door safe to open. */}}
{"schema": {"instructions": "You check doors.",
  "questions": [{"id": "open", "type": "noul", "instructions": "Open the {{ .door }} door?"}]},
 "state": {"door": {{ toJson .door }}}}
TMPL
XDG_DATA_HOME="$tmp/data" API_KEY="$key" "$dgem" serve --model "$model" --device cpu --port 0 \
  --templates "$tmp/templates" >"$log" 2>"$log.err" &
server=$!
trap 'kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$tmp"' EXIT
port=""
for _ in $(seq 1 600); do
  port="$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$log" | head -1)"
  [ -n "$port" ] && break
  kill -0 $server 2>/dev/null || { cat "$log.err"; echo "dgem serve exited early"; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { cat "$log.err"; echo "dgem serve did not report a port"; exit 1; }
(cd "$work" && node mcp_http_client.mjs "$dgem" "http://127.0.0.1:$port" "$key")
