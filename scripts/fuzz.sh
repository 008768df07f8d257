#!/usr/bin/env bash
# Builds the libFuzzer targets (the `sanitize` preset: clang, ASan + UBSan + fuzzer) and runs each
# on its committed seed corpus (fuzz/<target>/corpus, read only) for a bounded time; new inputs
# go to build-sanitize/fuzz/<target>.corpus, crashes to build-sanitize/fuzz/<target>.crashes.
#   scripts/fuzz.sh [seconds per target, default 60] [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
build=build-sanitize
if [ "${2:-}" != "--no-build" ]; then
  cmake --preset sanitize >/dev/null
  if [ ! -f "$build/models/tokenizer/tokenizer.json" ]; then bash scripts/prepare-tokenizer.sh "$build"; fi
  cmake --build "$build" -j"$(nproc)" --target fuzz_all
fi
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export DS_TOKENIZER_JSON="$PWD/$build/models/tokenizer/tokenizer.json"
status=0
for dir in fuzz/*/; do
  name=$(basename "$dir")
  bin="$build/fuzz/fuzz_$name"
  [ -x "$bin" ] || { echo "fuzz.sh: $bin missing" >&2; status=1; continue; }
  work="$build/fuzz/$name.corpus"; crashes="$build/fuzz/$name.crashes"
  mkdir -p "$work" "$crashes"
  log="$build/fuzz/$name.log"
  if "$bin" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
       -artifact_prefix="$crashes/" -print_final_stats=1 "$work" "${dir}corpus" >"$log" 2>&1; then
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    echo "fuzz $name: ok, $execs executions in ${seconds} s ($cov)"
  else
    echo "fuzz $name: FAILED (see $log, inputs in $crashes)" >&2
    tail -40 "$log" >&2
    status=1
  fi
done
exit $status
