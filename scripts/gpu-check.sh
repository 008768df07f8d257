#!/usr/bin/env bash
# One-shot device check of the CUDA backend on an NVIDIA GPU (sized for one H200, < 8 minutes):
#   1. configure + build only what the check needs (-j16)
#   2. the CUDA tests (parity with the CPU backend on tiny/small, refusal of an absurd config)
#   3. parity with transformers' own DiffusionGemmaForBlockDiffusion on the same tiny weights
#   4. benchmark at the real 26B-A4B shapes (random bf16 weights made on the device) against
#      transformers' eager implementation and the copy-bandwidth floor
# Prints a short table last. Without a GPU it stops early, says so, and exits 0.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${BUILD:-$ROOT/build-gpu}
PY=${PYTHON:-python3}
OUT=${OUT:-$BUILD/gpu-check}
declare -A RESULT

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "gpu-check: no NVIDIA GPU on this machine (nvidia-smi finds none): nothing to check."
    exit 0
fi
nvidia-smi -L
mkdir -p "$OUT"

step() { echo; echo "=== $* ==="; }

step "build"
if cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDS_WERROR=OFF >"$OUT/configure.log" 2>&1 &&
   cmake --build "$BUILD" -j16 --target dgem_engine engine_tst_cuda_backend engine_tst_cuda_ops engine_tst_cuda_vision_ops bench-cuda_decide dgem >"$OUT/build.log" 2>&1; then
    RESULT[build]=ok
else
    RESULT[build]="FAILED (see $OUT/build.log)"
    tail -30 "$OUT/configure.log" "$OUT/build.log"
fi

# The Engine-level CUDA test needs the Gemma tokenizer; the GPU machine has no network, so use a
# copy brought along with the tree (build/models/tokenizer) when the build dir has none.
if [[ ! -f "$BUILD/models/tokenizer/tokenizer.json" && -f "$ROOT/build/models/tokenizer/tokenizer.json" ]]; then
    mkdir -p "$BUILD/models/tokenizer"
    cp "$ROOT/build/models/tokenizer/tokenizer.json" "$BUILD/models/tokenizer/"
fi

if [[ ${RESULT[build]} == ok ]]; then
    step "CUDA tests"
    if (cd "$BUILD" && timeout 240 ctest -R cuda --output-on-failure) 2>&1 | tee "$OUT/ctest.log"; then
        RESULT[tests]=passed
    else
        RESULT[tests]="FAILED (see $OUT/ctest.log)"
    fi
    PARITY=$(grep -E "worst slot log-prob|same winner" "$OUT/ctest.log" | tr '\n' ' ')
    RESULT[cpu_parity]=${PARITY:-"see $OUT/ctest.log"}

    step "parity with transformers (tiny model)"
    TINY="$OUT/tiny-bf16"
    TOKARG=()  # transformers needs no tokenizer: write the model without one when none is here
    [[ -f "$BUILD/models/tokenizer/tokenizer.json" ]] || TOKARG=(--tokenizer "")
    "$BUILD/bin/dgem" make-tiny-model --preset tiny --dtype bf16 --out "$TINY" "${TOKARG[@]}" \
        >"$OUT/tiny.log" 2>&1
    if [[ -f "$TINY/config.json" ]] &&
       "$BUILD/bin/bench-cuda_decide" --dump-slots "$TINY" --json "$OUT/ours.json" &&
       timeout 200 "$PY" scripts/gpu/hf_compare.py parity --model "$TINY" --ours "$OUT/ours.json" \
           --json "$OUT/hf_parity.json" 2>&1 | tee "$OUT/hf_parity.log"; then
        RESULT[hf_parity]=$(tail -1 "$OUT/hf_parity.log")
    else
        RESULT[hf_parity]="not established (see $OUT/hf_parity.log)"
    fi

    step "benchmark at 26B-A4B shapes"
    if timeout 200 "$BUILD/bin/bench-cuda_decide" --json "$OUT/ours_bench.json" | tee "$OUT/bench.log"; then
        RESULT[ours]=$(grep -E "^decision|^generation  " "$OUT/bench.log" | tr -s ' ' | tr '\n' ';')
        RESULT[floor]=$(grep -E "^floor|^copy" "$OUT/bench.log" | tr -s ' ' | tr '\n' ';')
    else
        RESULT[ours]="FAILED (see $OUT/bench.log)"
    fi
    if timeout 200 "$PY" scripts/gpu/hf_compare.py bench \
           --config scripts/gpu/diffusiongemma-26b-a4b.config.json --ours "$OUT/ours_bench.json" \
           2>&1 | tee "$OUT/hf_bench.log"; then
        RESULT[hf_bench]=$(tail -1 "$OUT/hf_bench.log")
    else
        RESULT[hf_bench]="not run (see $OUT/hf_bench.log)"
    fi
fi

echo
echo "=== gpu-check summary ==="
printf '%-12s %s\n' build "${RESULT[build]}"
printf '%-12s %s\n' tests "${RESULT[tests]:-not run}"
printf '%-12s %s\n' cpu-parity "${RESULT[cpu_parity]:-not run}"
printf '%-12s %s\n' hf-parity "${RESULT[hf_parity]:-not run}"
printf '%-12s %s\n' floor "${RESULT[floor]:-not run}"
printf '%-12s %s\n' ours "${RESULT[ours]:-not run}"
printf '%-12s %s\n' transformers "${RESULT[hf_bench]:-not run}"
