#!/usr/bin/env bash
# bench/llama_cpp.sh: our engine against llama.cpp's DiffusionGemma, per prompt encoding and per
# denoising pass, on the same checkpoint, the same cores and the same thread count, in one run.
#
#   bench/llama_cpp.sh --llama-cpp DIR [--threads N] [--preset tiny|small] [--prompt-tokens P]
#                      [--repeat K] [--build DIR] [--llama-build DIR] [--python PY] [--work DIR]
#                      [--check]
#
# --llama-cpp DIR  a llama.cpp source folder with DiffusionGemma support and a CPU build of its
#                  shared libllama (default build folder DIR/build, or --llama-build).
# --build DIR      this project's build folder (default: build/ beside bench/); needs bin/dgem
#                  and bin/bench-engine_passes.
# --python PY      the Python that runs the converters (default /usr/bin/python3).
# --check          before timing, compare llama.cpp's logits (flash attention off) of one
#                  unconditioned and one self-conditioned canvas pass with this project's PyTorch
#                  reference (bench/llama_cpp/compare_ref.py; needs python3-torch and numpy).
#
# What it does: makes the preset's checkpoint with `dgem make-tiny-model` (f32 weights), converts
# it to an f32 GGUF (so both sides read the same numbers) with llama.cpp's own
# convert_hf_to_gguf.py --outtype f32 when that runs, else with bench/llama_cpp/to_gguf.py (the
# same keys, tensors and values, written with DIR's gguf-py and numpy only: llama.cpp's converter
# needs the `transformers` package, which Debian does not have); it prints which converter made
# the GGUF. Then it compiles bench/llama_cpp/pass_timer.cpp against DIR's llama.h and libllama and
# times both sides pinned to CPUs 0..N-1 (taskset) with OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and
# MKL_NUM_THREADS set to N and each engine's own thread count set to N. It fetches nothing.
# Whatever is missing (the folder, its build, DiffusionGemma support, a working converter) is
# reported as `not available: <reason>` and the script exits 0; our side is still timed and
# printed when only the llama.cpp side is missing.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")

llama_dir="" llama_build="" threads=1 preset=tiny prompt_tokens=128 repeat=3
build="$repo/build" python="" work="" check=0
while [ $# -gt 0 ]; do
    case "$1" in
        --llama-cpp) llama_dir=$2; shift 2 ;;
        --llama-build) llama_build=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --preset) preset=$2; shift 2 ;;
        --prompt-tokens) prompt_tokens=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --python) python=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        --check) check=1; shift ;;
        -h|--help) sed -n '2,28p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench/llama_cpp.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$preset" in tiny|small) ;; *) echo "bench/llama_cpp.sh: --preset tiny or small" >&2; exit 2 ;; esac
case "$threads" in ''|*[!0-9]*|0) echo "bench/llama_cpp.sh: --threads N (N >= 1)" >&2; exit 2 ;; esac
if [ "$threads" -gt "$(nproc)" ]; then
    echo "bench/llama_cpp.sh: --threads $threads but this machine has $(nproc) CPUs" >&2; exit 2
fi

not_available() { echo "not available: $*"; exit 0; }

# --- our side -------------------------------------------------------------------------------
dgem="$build/bin/dgem"
ours="$build/bin/bench-engine_passes"
[ -x "$dgem" ] || not_available "no $dgem (build this project first)"
[ -x "$ours" ] || not_available "no $ours (cmake --build $build --target bench-engine_passes)"

work=${work:-${TMPDIR:-/tmp}/dgem-llama-cpp-bench}
model="$work/$preset"
mkdir -p "$work"
if [ ! -f "$model/config.json" ]; then
    "$dgem" make-tiny-model --preset "$preset" --dtype f32 --out "$model" >/dev/null
fi

# --- llama.cpp side: every piece it needs, checked before anything is timed --------------------
llama_missing=""
python=${python:-/usr/bin/python3}
if [ -z "$llama_dir" ]; then
    llama_missing="no --llama-cpp DIR given"
elif [ ! -d "$llama_dir" ]; then
    llama_missing="$llama_dir is not a folder"
elif [ ! -f "$llama_dir/include/llama.h" ] || [ ! -d "$llama_dir/gguf-py/gguf" ]; then
    llama_missing="$llama_dir is not a llama.cpp source folder (no include/llama.h or gguf-py)"
elif ! grep -q 'llama_diffusion_set_phase' "$llama_dir/include/llama.h"; then
    llama_missing="this llama.cpp has no DiffusionGemma support (llama.h lacks llama_diffusion_set_phase)"
fi
if [ -z "$llama_missing" ]; then
    llama_build=${llama_build:-$llama_dir/build}
    libllama=$(find "$llama_build" -name 'libllama.so' -print -quit 2>/dev/null || true)
    [ -n "$libllama" ] || llama_missing="no libllama.so under $llama_build (configure with -DBUILD_SHARED_LIBS=ON, build target llama)"
fi
# The GGUF (and, beside it, which converter wrote it) is kept in --work for later runs.
gguf="$work/$preset-f32.gguf"
last_line() { grep -v '^\s*$' "$1" | tail -n 1 || true; }
if [ -z "$llama_missing" ] && [ ! -f "$gguf" ]; then
    rm -f "$gguf.converter"
    if ! command -v "$python" >/dev/null 2>&1; then
        llama_missing="no Python at $python for the converters"
    elif [ -f "$llama_dir/convert_hf_to_gguf.py" ] &&
            "$python" "$llama_dir/convert_hf_to_gguf.py" "$model" --outtype f32 \
            --outfile "$gguf.part" >"$work/convert.log" 2>&1; then
        mv "$gguf.part" "$gguf"
        echo "llama.cpp's convert_hf_to_gguf.py --outtype f32" >"$gguf.converter"
    else
        why="no convert_hf_to_gguf.py"
        [ -f "$llama_dir/convert_hf_to_gguf.py" ] && why="it failed: $(last_line "$work/convert.log")"
        rm -f "$gguf.part"
        if "$python" "$here/llama_cpp/to_gguf.py" --llama-cpp "$llama_dir" "$model" "$gguf.part" \
                >"$work/to_gguf.log" 2>&1; then
            mv "$gguf.part" "$gguf"
            echo "bench/llama_cpp/to_gguf.py (llama.cpp's converter: $why)" >"$gguf.converter"
        else
            rm -f "$gguf.part"
            llama_missing="no converter worked: llama.cpp's convert_hf_to_gguf.py ($why); bench/llama_cpp/to_gguf.py: $(last_line "$work/to_gguf.log")"
        fi
    fi
fi
timer="$work/pass_timer"
if [ -z "$llama_missing" ]; then
    libdir=$(dirname "$libllama")
    if ! ${CXX:-c++} -O2 -std=c++17 -I"$llama_dir/include" -I"$llama_dir/ggml/include" \
            "$here/llama_cpp/pass_timer.cpp" -o "$timer" "$libllama" -Wl,-rpath,"$libdir" \
            >"$work/pass_timer.log" 2>&1; then
        llama_missing="bench/llama_cpp/pass_timer.cpp does not build against $llama_dir: $(grep -m1 'error' "$work/pass_timer.log" || tail -n 1 "$work/pass_timer.log" || true)"
    fi
fi

converter=$(cat "$gguf.converter" 2>/dev/null || echo "unknown (a GGUF left in $work)")

# --- optional check: llama.cpp's logits against the PyTorch reference ---------------------------
if [ "$check" = 1 ]; then
    if [ -n "$llama_missing" ]; then
        echo "check: skipped (llama.cpp not available: $llama_missing)"
    else
        echo "check: GGUF by $converter; llama.cpp with flash attention off (on this CPU"
        echo "       backend it casts K and V to F16; the timing below uses llama.cpp's default, auto)"
        "$timer" --model "$gguf" --threads "$threads" --prompt-tokens "$prompt_tokens" \
            --flash-attn off --dump-logits "$work/$preset-llama" >/dev/null ||
            { echo "check: pass_timer --dump-logits failed" >&2; exit 1; }
        rc=0
        "$python" "$here/llama_cpp/compare_ref.py" --model "$model" --dump "$work/$preset-llama" \
            --prompt-tokens "$prompt_tokens" --threads "$threads" || rc=$?
        [ "$rc" = 1 ] && echo "check: llama.cpp and the reference DISAGREE (see above)"
        [ "$rc" -gt 1 ] && echo "check: compare_ref.py failed (exit $rc)"
        rm -f "$work/$preset-llama.first.f32" "$work/$preset-llama.sc.f32"
    fi
    echo
fi

# --- the measurement ----------------------------------------------------------------------------
cpus="0-$((threads - 1))"
pinned() {
    env OMP_NUM_THREADS="$threads" OPENBLAS_NUM_THREADS="$threads" MKL_NUM_THREADS="$threads" \
        taskset -c "$cpus" "$@"
}
value() { sed -n "s/^$1=//p" <<<"$2"; }

echo "DiffusionGemma '$preset' preset (dgem make-tiny-model, f32 weights), prompt $prompt_tokens tokens,"
echo "$threads thread(s) each side, pinned to CPUs $cpus; median of $repeat runs after a warm-up;"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
our_out=$(pinned "$ours" --model "$model" --threads "$threads" --prompt-tokens "$prompt_tokens" --repeat "$repeat")
canvas=$(value canvas "$our_out")
echo "ours     : $(value device "$our_out"), bench-engine_passes: encoder pass over the prompt into a"
echo "           fresh cache; decoder pass over the $canvas-token canvas with self-conditioning + all logits"
if [ -z "$llama_missing" ]; then
    llama_out=$(pinned "$timer" --model "$gguf" --threads "$threads" --prompt-tokens "$prompt_tokens" --repeat "$repeat")
    commit=$(git -C "$llama_dir" rev-parse --short HEAD 2>/dev/null || echo unknown)
    echo "llama.cpp: commit $commit, CPU, n_threads = n_threads_batch = $threads, flash_attn $(value flash_attn "$llama_out"),"
    echo "           GGUF (f32) by $converter;"
    echo "           pass_timer: prompt-prefill phase (prompt K/V store; llama_decode outputs every"
    echo "           row's logits there, as in llama.cpp's diffusion runner);"
    echo "           canvas-decode phase over $(value canvas "$llama_out") tokens with self-conditioning + all logits"
else
    echo "llama.cpp: not available: $llama_missing"
fi
echo "load average after : $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '%-16s %12s %14s %22s\n' "per" "ours (ms)" "llama.cpp (ms)" "llama.cpp / ours"
for key in encode_ms pass_ms; do
    label=$([ "$key" = encode_ms ] && echo "prompt encoding" || echo "denoising pass")
    o=$(value "$key" "$our_out")
    if [ -z "$llama_missing" ]; then
        l=$(value "$key" "$llama_out")
        printf '%-16s %12.2f %14.2f %21.2fx\n' "$label" "$o" "$l" "$(awk -v a="$l" -v b="$o" 'BEGIN { print a / b }')"
    else
        printf '%-16s %12.2f %14s %22s\n' "$label" "$o" "n/a" "n/a"
    fi
done
if [ -n "$llama_missing" ]; then
    echo
    echo "not available: $llama_missing"
fi
