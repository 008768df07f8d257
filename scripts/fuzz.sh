#!/usr/bin/env bash
# Builds the libFuzzer targets (the `sanitize` preset: clang, ASan + UBSan + fuzzer) and runs each
# on its committed seed corpus (fuzz/<target>/corpus, read only); crashes go to
# build-sanitize/fuzz/<target>.crashes.
#   scripts/fuzz.sh [seconds per target, default 60] [--no-build] [--runs N]
# With seconds, a bounded-time exploration: new inputs are kept in build-sanitize/fuzz/<target>.corpus
# for the next run. With --runs N (CI), a reproducible run: N executions from a fixed seed, from
# the committed corpus only (a fresh folder each time), so the same tree always fuzzes the same
# inputs and a failure is never a matter of luck.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
build_first=1
runs=""
shift || true
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build_first=0 ;;
    --runs) runs="$2"; shift ;;
    *) echo "fuzz.sh: unknown option $1 (accepted: --no-build, --runs N)" >&2; exit 2 ;;
  esac
  shift
done
build=build-sanitize
if [ "$build_first" = 1 ]; then
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
  if [ -n "$runs" ]; then
    work="$build/fuzz/$name.ci-corpus"
    rm -rf "$work"
    bound=(-runs="$runs" -seed=1)
  else
    bound=(-max_total_time="$seconds")
  fi
  mkdir -p "$work" "$crashes"
  log="$build/fuzz/$name.log"
  started=$(date +%s)
  if "$bin" "${bound[@]}" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
       -artifact_prefix="$crashes/" -print_final_stats=1 "$work" "${dir}corpus" >"$log" 2>&1; then
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    echo "fuzz $name: ok, $execs executions in $(( $(date +%s) - started )) s ($cov)"
  else
    echo "fuzz $name: FAILED (see $log, inputs in $crashes)" >&2
    tail -40 "$log" >&2
    status=1
  fi
done
exit $status
