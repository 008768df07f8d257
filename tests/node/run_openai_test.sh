#!/usr/bin/env bash
# Runs openai_client.mjs (the official openai npm package) against a real `dgem serve`.
# Usage: run_openai_test.sh DGEM_BINARY BUILD_DIR MODEL_DIR. Installs the client from the committed
# lock file into BUILD_DIR/node-tests (install_node_modules.sh: once, under a lock).
set -euo pipefail
dgem="$1"; build="$2"; model="$3"
here="$(cd "$(dirname "$0")" && pwd)"
work="$build/node-tests"
bash "$here/install_node_modules.sh" "$work"
cp "$here/openai_client.mjs" "$work/"

log="$(mktemp)"
key="node-test-key-$$"
# No wall-time bound on generations here: the test compares a completion with its stream, and a
# loaded CI machine can take longer than the server's default GENERATION_TIMEOUT_S.
GENERATION_TIMEOUT_S=86400 API_KEY="$key" "$dgem" serve --model "$model" --port 0 >"$log" 2>"$log.err" &
server=$!
trap 'kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -f "$log" "$log.err"' EXIT
port=""
for _ in $(seq 1 600); do
  port="$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$log" | head -1)"
  [ -n "$port" ] && break
  kill -0 $server 2>/dev/null || { cat "$log.err"; echo "dgem serve exited early"; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { cat "$log.err"; echo "dgem serve did not report a port"; exit 1; }
(cd "$work" && node openai_client.mjs "http://127.0.0.1:$port/v1" "$key")
kill -TERM $server
status=0
wait $server || status=$?
trap - EXIT
rm -f "$log" "$log.err"
[ $status -eq 0 ] || { echo "dgem serve exited $status after SIGTERM"; exit 1; }
