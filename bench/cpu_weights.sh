#!/usr/bin/env bash
# bench/cpu_weights.sh: the CPU backend with weights held as published (bench-cpu_weights) beside
# llama.cpp's CPU path (ggml, bench/llama_cpp/layer_timer.cpp) at the real 26B-A4B layer shapes,
# per format, in one run, both pinned to CPUs 0..N-1 with the same thread count.
#
#   bench/cpu_weights.sh --ggml DIR [--threads N] [--layers L] [--repeat K] [--formats LIST]
#                        [--build DIR] [--work DIR]
#
# --ggml DIR   a ggml source folder (github.com/ggml-org/ggml, or llama.cpp's ggml/ subfolder)
#              with a CPU build of its shared libraries in DIR/build (cmake -B build
#              -DGGML_NATIVE=ON -DGGML_LLAMAFILE=ON -DBUILD_SHARED_LIBS=ON; then cmake --build
#              build). GGML_LLAMAFILE is llama.cpp's default; the script warns without it.
# --build DIR  this project's build folder (default build/ beside bench/); needs
#              bin/bench-cpu_weights.
# --formats    comma list of bf16, fp8, nvfp4 (default all three). ggml's closest types: bf16 ->
#              BF16, fp8 -> Q8_0 (every linear but the router), nvfp4 -> MXFP4 (experts and
#              dense MLP).
#
# Prints each side's ms per layer (prompt of 512 tokens; canvas of 4 rows x 32 over it) and the
# ratio llama.cpp / ours. A missing ggml prints `not available: <reason>` and times our side only.
# It fetches nothing.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
ggml="" threads=2 layers=2 repeat=3 formats="bf16,fp8,nvfp4" build="$repo/build" work=""
while [ $# -gt 0 ]; do
    case "$1" in
        --ggml) ggml=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --layers) layers=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --formats) formats=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        -h|--help) sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench/cpu_weights.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$threads" in ''|*[!0-9]*|0) echo "bench/cpu_weights.sh: --threads N (N >= 1)" >&2; exit 2 ;; esac
if [ "$threads" -gt "$(nproc)" ]; then
    echo "bench/cpu_weights.sh: --threads $threads but this machine has $(nproc) CPUs" >&2; exit 2
fi
ours="$build/bin/bench-cpu_weights"
[ -x "$ours" ] || { echo "bench/cpu_weights.sh: $ours is missing (cmake --build build --target bench-cpu_weights)" >&2; exit 2; }
work=${work:-$(mktemp -d)}
mkdir -p "$work"
cpus="0-$((threads - 1))"
export OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads MKL_NUM_THREADS=$threads

timer=""
if [ -z "$ggml" ]; then
    echo "not available: no --ggml DIR"
elif [ ! -f "$ggml/include/ggml.h" ] || [ ! -d "$ggml/build" ]; then
    echo "not available: $ggml has no include/ggml.h or no build/ folder"
else
    libdir=$(dirname "$(find "$ggml/build" -name 'libggml-cpu.so' | head -n 1)")
    if [ -z "$libdir" ] || [ "$libdir" = "." ]; then
        echo "not available: no libggml-cpu.so under $ggml/build"
    else
        timer="$work/layer_timer"
        c++ -O2 -std=c++17 "$here/llama_cpp/layer_timer.cpp" -I"$ggml/include" -L"$libdir" \
            -lggml -lggml-base -lggml-cpu -Wl,-rpath,"$libdir" -o "$timer"
        echo "ggml: $(git -C "$ggml" rev-parse --short HEAD 2>/dev/null || echo "$ggml") ($libdir)"
        # llama.cpp turns GGML_LLAMAFILE on; ggml alone may default it off, and its bf16 and Q8_0
        # products are then about 1.5x slower (measured: bf16 prompt 907 against 614 ms/layer).
        settings=$(grep -E '^GGML_(LLAMAFILE|NATIVE|OPENMP):' "$ggml/build/CMakeCache.txt" 2>/dev/null |
            sed 's/:BOOL=/=/' | tr '\n' ' ')
        echo "ggml build: ${settings:-settings unknown (no CMakeCache.txt)}"
        case "$settings" in *GGML_LLAMAFILE=OFF*)
            echo "warning: ggml built without GGML_LLAMAFILE (llama.cpp's default is on): rebuild with -DGGML_LLAMAFILE=ON for llama.cpp's speed" ;;
        esac
    fi
fi

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" | tail -n 1; }
table=""
IFS=',' read -ra list <<< "$formats"
for f in "${list[@]}"; do
    out=$(taskset -c "$cpus" "$ours" --formats "$f" --layers "$layers" --threads "$threads" \
          --repeat "$repeat" --dir "$work/weights" --keep)
    echo "$out"
    op=$(echo "$out" | field prompt_ms_per_layer)
    oc=$(echo "$out" | field canvas_ms_per_layer)
    lp="-" lc="-" rp="-" rc="-"
    if [ -n "$timer" ]; then
        case "$f" in bf16) t=bf16 ;; fp8) t=q8_0 ;; nvfp4) t=mxfp4 ;; esac
        lout=$(taskset -c "$cpus" "$timer" --type "$t" --threads "$threads" --repeat "$repeat")
        echo "$lout"
        lp=$(echo "$lout" | field prompt_ms_per_layer)
        lc=$(echo "$lout" | field canvas_ms_per_layer)
        rp=$(awk -v a="$lp" -v b="$op" 'BEGIN{printf "%.2f", a/b}')
        rc=$(awk -v a="$lc" -v b="$oc" 'BEGIN{printf "%.2f", a/b}')
    fi
    table+="| $f | $op / $lp | $rp | $oc / $lc | $rc |"$'\n'
done
rm -rf "$work/weights"
echo
echo "| format | prompt 512 ms/layer: ours / llama.cpp | ratio | canvas 4x32 ms/layer: ours / llama.cpp | ratio |"
echo "|---|---|---|---|---|"
printf "%s" "$table"
