#!/usr/bin/env bash
# The sanitizer job (CI runs it from scripts/test.sh): the `sanitize` preset (clang, ASan +
# UBSan, no CUDA, no UI) builds the engine and core unit tests and the libFuzzer targets, runs
# the tests where the sanitizers add value (parsers, tokenizer, loaders, kernels, the local
# backend; not the slow remote/load/node/Python tests), then a short run of each fuzz target.
#   scripts/sanitize.sh [fuzz seconds per target, default 20]
#   scripts/sanitize.sh --runs N     (CI: N executions per target from a fixed seed)
set -euo pipefail
cd "$(dirname "$0")/.."
fuzz_args=("${1:-20}")
if [ "${1:-}" = "--runs" ]; then fuzz_args=(0 --runs "$2"); fi
build=build-sanitize
start=$(date +%s)

tests=(engine_tst_tokenizer engine_tst_engine_loader engine_tst_engine_forward engine_tst_backend_cpu
       engine_tst_backend_packed
       engine_tst_thread_pool core_tst_template core_tst_schema core_tst_canvas_plan
       core_tst_read_stats core_tst_policies core_tst_client_config core_tst_local_backend)

cmake --preset sanitize >/dev/null
# The Gemma tokenizer of the main build (scripts/prepare-tokenizer.sh build), not a second npm ci.
if [ ! -f "$build/models/tokenizer/tokenizer.json" ]; then
  mkdir -p "$build/models"
  if [ -f build/models/tokenizer/tokenizer.json ]; then
    ln -sfn ../../build/models/tokenizer "$build/models/tokenizer"
  else
    bash scripts/prepare-tokenizer.sh "$build"
  fi
fi
# The tiny model too: it is data (the same bytes whichever compiler wrote it), and building a
# sanitized dgem only to write it again would cost the job a few minutes.
if [ ! -f "$build/models/tiny/config.json" ] && [ -f build/models/tiny/config.json ]; then
  mkdir -p "$build/models"
  ln -sfn ../../build/models/tiny "$build/models/tiny"
fi
model_target=tiny_model
[ -f "$build/models/tiny/config.json" ] && model_target=
targets=()
for t in "${tests[@]}"; do
  grep -q "^build $t:\|^build tests/$t:" "$build/build.ninja" 2>/dev/null && targets+=("$t")
done
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" $model_target fuzz_all
echo "sanitize: built in $(( $(date +%s) - start )) s"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp"
regex="^($(IFS='|'; echo "${targets[*]}"))\$"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" -R "$regex"
echo "sanitize: tests done at $(( $(date +%s) - start )) s"

bash scripts/fuzz.sh "${fuzz_args[0]}" --no-build "${fuzz_args[@]:1}"
echo "sanitize: sanitizer build, tests and fuzz runs took $(( $(date +%s) - start )) s"
