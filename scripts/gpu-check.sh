#!/usr/bin/env bash
# One-shot device check of the CUDA backend, run FROM the engine-only GPU bundle
# (scripts/make-gpu-bundle.sh builds it; nothing is built here, the machine needs only an NVIDIA
# driver). Sized for one H200 and under 8 minutes; every step has its own time limit.
#   1. the device, the driver, which cuBLAS the bundle found
#   2. the bundle's engine tests: CPU ones, and the CUDA ones against the CPU backend
#   3. CPU-vs-CUDA parity on a tiny model in each weight format the bundle can write
#      (bf16, fp8, nvfp4; a format this build does not know reports "not available")
#   4. the benchmark at the real 26B-A4B shapes (synthetic weights made on the device), per
#      format, against the copy-bandwidth floor measured in the same run
#   5. with python3 + torch + transformers: parity with transformers' DiffusionGemma on the
#      tiny bf16 model, and transformers' eager speed at the same shapes
# Prints one table last. Without a GPU it runs the bundle's CPU tests and says CUDA was skipped.
#
#   scripts/gpu-check.sh [BUNDLE]
# BUNDLE: the bundle folder or its .tar.gz. Default: the bundle this script sits in, else
# build-bundle/dgem-gpu-bundle(.tar.gz) of the checkout. Logs and JSON go to $OUT (default
# /tmp/gpu-check). DS_CUBLAS_LIBRARY names a libcublas.so.13/.12 when the search finds none.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/gpu-check}
mkdir -p "$OUT"
work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
PY=${PYTHON:-python3}
BUDGET_S=${BUDGET_S:-420}  # the whole check; each step gets at most what is left (at least 5 s)
t0=$(date +%s)
declare -a ROWS

row() { ROWS+=("$(printf '%-15s %s' "$1" "$2")"); }
step() { echo; echo "=== $* ==="; }
# Seconds a step may take: its own cap, but never past the whole check's budget.
limit() {
    local left=$((BUDGET_S - ($(date +%s) - t0)))
    ((left < 5)) && left=5
    echo $(($1 < left ? $1 : left))
}
timed_out() { [[ $1 == 124 || $1 == 137 ]]; }

# ---- the bundle ---------------------------------------------------------------------------
bundle=${1:-}
if [[ -z $bundle ]]; then
    if [[ -x $here/../bin/dgem-engine ]]; then
        bundle=$here/..
    else
        for b in "$here/../build-bundle/dgem-gpu-bundle" "$here/../build-bundle/dgem-gpu-bundle.tar.gz"; do
            [[ -e $b ]] && { bundle=$b; break; }
        done
    fi
fi
if [[ -z $bundle || ! -e $bundle ]]; then
    echo "gpu-check: no bundle (give its folder or .tar.gz; scripts/make-gpu-bundle.sh makes one)" >&2
    exit 2
fi
if [[ -f $bundle ]]; then
    tar -C "$work" -xzf "$bundle" || { echo "gpu-check: cannot unpack $bundle" >&2; exit 2; }
    bundle=$work/dgem-gpu-bundle
fi
bundle=$(cd "$bundle" && pwd)
ENGINE=$bundle/bin/dgem-engine
CONFIG=$bundle/scripts/gpu/diffusiongemma-26b-a4b.config.json
HF=$bundle/scripts/gpu/hf_compare.py
[[ -x $ENGINE ]] || { echo "gpu-check: $ENGINE is missing" >&2; exit 2; }
row bundle "$(sed -n 's/^commit: //p' "$bundle/BUNDLE.txt" 2>/dev/null), CUDA archs $("$ENGINE" info | sed -n 's/^cuda-archs //p')"

# ---- 1. device and cuBLAS -----------------------------------------------------------------
step "device"
gpu=no
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    gpu=yes
    nvidia-smi -L
    row device "$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -1 | sed 's/, / | driver /; s/, / | /')"
else
    row device "no NVIDIA GPU (nvidia-smi finds none): CUDA steps skipped"
fi
# cuBLAS is loaded at run time: add the places a driver-only machine may have it (a CUDA
# toolkit, pip's nvidia-cublas wheel as PyTorch installs it) to the loader's path.
if [[ $gpu == yes && -z ${DS_CUBLAS_LIBRARY:-} ]]; then
    dirs=()
    for d in /usr/local/cuda/lib64 /usr/local/cuda-1[23]*/lib64 /usr/lib/x86_64-linux-gnu; do
        compgen -G "$d/libcublas.so.1[23]" >/dev/null && dirs+=("$d")
    done
    if command -v "$PY" >/dev/null 2>&1; then
        while IFS= read -r d; do [[ -n $d ]] && dirs+=("$d"); done < <(timeout 30 "$PY" - <<'EOF' 2>/dev/null
import glob, os, site, sys
roots = site.getsitepackages() + [site.getusersitepackages()] + sys.path
seen = set()
for r in roots:
    for pattern in ("nvidia/cublas/lib", "nvidia/cu13/lib", "torch/lib"):
        for d in glob.glob(os.path.join(r, pattern)):
            if glob.glob(os.path.join(d, "libcublas.so.1[23]")) and d not in seen:
                seen.add(d)
                print(d)
EOF
)
    fi
    for d in "${dirs[@]}"; do LD_LIBRARY_PATH=$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}; done
    export LD_LIBRARY_PATH
fi
"$ENGINE" info 2>&1 | tee "$OUT/info.log"
usable=$(sed -n 's/^cuda-usable //p' "$OUT/info.log")
if [[ $gpu == yes ]]; then
    row cublas "$(sed -n 's/^cublas //p' "$OUT/info.log")"
    # The bundle's CUDA 13 runtime needs driver 580 or newer; an older one makes the GPU unusable.
    [[ $usable == yes ]] || row cuda "NOT USABLE by the bundle (CUDA 13 needs driver 580 or newer; see $OUT/info.log)"
fi

# ---- 2. the engine tests --------------------------------------------------------------------
step "engine tests"
"$ENGINE" list >"$OUT/tests.list"
timeout "$(limit 240)" "$ENGINE" test 2>&1 | tee "$OUT/tests.log"
rc=${PIPESTATUS[0]}
results=$(sed -n 's/^test-result //p' "$OUT/tests.log" | tr '\n' ';' | sed 's/;$//; s/;/; /g')
if timed_out "$rc"; then
    row tests "TIMED OUT; finished: ${results:-none} (see $OUT/tests.log)"
else
    row tests "${results:-no result (exit $rc, see $OUT/tests.log)}"
fi
worst=$(grep -E "worst (label |slot )?log-prob difference" "$OUT/tests.log" | sed 's/^ *//' | tr '\n' ';' | sed 's/;$//; s/;/; /g')
[[ -n $worst ]] && row test-parity "$worst"

# ---- 3. CPU-vs-CUDA parity per format -------------------------------------------------------
FORMATS=${FORMATS:-bf16 fp8 nvfp4}
declare -A AVAILABLE
for f in $FORMATS; do
    step "parity $f"
    model=$work/tiny-$f
    if ! "$ENGINE" make-tiny-model --out "$model" --dtype "$f" --seed 3 >"$OUT/tiny-$f.log" 2>&1; then
        row "parity $f" "not available in this build ($(tail -1 "$OUT/tiny-$f.log" | cut -c1-100))"
        continue
    fi
    AVAILABLE[$f]=1
    if [[ $usable != yes ]]; then
        row "parity $f" "skipped (no usable CUDA device); tiny model written"
        continue
    fi
    # bf16: both backends start from the same values (2e-2 as tst_cuda_backend). The quantized
    # formats may also quantize activations on one side only: a wider bound, the number printed.
    tol=2e-2
    [[ $f != bf16 ]] && tol=1e-1
    timeout "$(limit 90)" "$ENGINE" parity --model "$model" --tolerance "$tol" 2>&1 | tee "$OUT/parity-$f.log"
    rc=${PIPESTATUS[0]}
    if timed_out "$rc"; then row "parity $f" "TIMED OUT"
    else
        msg=$(grep '^parity' "$OUT/parity-$f.log" | sed 's/^parity: //' | tail -1)
        [[ $rc == 0 ]] || msg="FAILED (exit $rc) ${msg:-$(tail -1 "$OUT/parity-$f.log" | cut -c1-120)}"
        row "parity $f" "$msg"
    fi
done

# ---- 4. benchmark at the 26B-A4B shapes ------------------------------------------------------
if [[ $usable == yes ]]; then
    for f in $FORMATS; do
        step "benchmark $f at 26B-A4B shapes"
        args=(--config "$CONFIG" --json "$OUT/bench-$f.json")
        [[ $f != bf16 ]] && args+=(--format "$f")
        timeout "$(limit 150)" "$ENGINE" bench-cuda_decide "${args[@]}" 2>&1 | tee "$OUT/bench-$f.log"
        rc=${PIPESTATUS[0]}
        if timed_out "$rc"; then
            row "bench $f" "TIMED OUT"
        elif [[ $rc == 2 && $f != bf16 ]]; then
            row "bench $f" "not available in this build (bench-cuda_decide has no --format $f)"
        elif [[ $rc != 0 ]]; then
            row "bench $f" "FAILED (exit $rc: $(tail -1 "$OUT/bench-$f.log" | cut -c1-120))"
        else
            # The floor is per format (its weight bytes over the copy bandwidth of this run).
            row "bench $f" "$(grep -E '^(weights read|copy bandwidth|floor|decision|generation) ' "$OUT/bench-$f.log" | tr -s ' ' | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
        fi
    done
fi

# ---- 5. transformers ---------------------------------------------------------------------------
step "transformers"
if [[ $usable != yes ]]; then
    row transformers "skipped (no usable CUDA device)"
elif ! timeout 60 "$PY" -c 'import torch, transformers' >/dev/null 2>&1; then
    row transformers "skipped ($PY has no torch + transformers)"
elif [[ -z ${AVAILABLE[bf16]:-} ]]; then
    row transformers "skipped (no tiny bf16 model)"
else
    # transformers needs no tokenizer: the tiny bf16 model of step 3 serves as it is.
    if timeout "$(limit 60)" "$ENGINE" bench-cuda_decide --dump-slots "$work/tiny-bf16" --json "$OUT/ours.json" \
            >"$OUT/dump.log" 2>&1 &&
       timeout "$(limit 150)" "$PY" "$HF" parity --model "$work/tiny-bf16" --ours "$OUT/ours.json" \
            --json "$OUT/hf_parity.json" 2>&1 | tee "$OUT/hf_parity.log"; then
        row hf-parity "$(tail -1 "$OUT/hf_parity.log")"
    else
        row hf-parity "not established (see $OUT/dump.log, $OUT/hf_parity.log)"
    fi
    if [[ -f $OUT/bench-bf16.json ]] &&
       timeout "$(limit 150)" "$PY" "$HF" bench --config "$CONFIG" --ours "$OUT/bench-bf16.json" \
            2>&1 | tee "$OUT/hf_bench.log"; then
        row hf-bench "$(tail -1 "$OUT/hf_bench.log")"
    else
        row hf-bench "not run (see $OUT/hf_bench.log)"
    fi
fi

[[ $gpu == yes ]] || row cuda "skipped: no GPU on this machine (the CPU tests above ran)"
row total "$(($(date +%s) - t0)) s (budget $BUDGET_S s); logs in $OUT"
echo
echo "=== gpu-check summary ==="
printf '%s\n' "${ROWS[@]}" | tee "$OUT/summary.txt"
