#!/usr/bin/env bash
# Builds the engine-only GPU bundle HERE (where the toolchain and our Debian packages are) for a
# GPU machine that has nothing but an NVIDIA driver, and packs it to carry there:
#   build-bundle/dgem-gpu-bundle/            the folder (runs in place, or anywhere it is copied)
#     bin/dgem-engine                        engine tests + tiny-model writer + parity + benchmark,
#                                            OpenBLAS, libstdc++ and the CUDA runtime inside
#     models/tokenizer/tokenizer.json        the Gemma tokenizer the tests and tiny models use
#     scripts/gpu-check.sh, scripts/gpu/     the device check and its inputs
#     BUNDLE.txt                             what was built, from which commit, for which GPUs
#   build-bundle/dgem-gpu-bundle.tar.gz      the same folder packed (what travels)
# Fails when the packed bundle exceeds 64 MiB (what the device tool carries).
#
#   scripts/make-gpu-bundle.sh [-j N]        (JOBS=N works too; default 2)
# cuBLAS is not inside (CUDA 13 has no static cuBLAS; the shared one is 600 MB): the bundle
# loads libcublas.so.13 (or .12) on the device, see local-engine/bundle/cublas_loader.cpp.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=${JOBS:-2}
[[ ${1:-} == -j ]] && jobs=$2
build=$root/build-bundle
name=dgem-gpu-bundle
limit_mib=64

export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER-$(command -v ccache || true)}
export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER-$CMAKE_CXX_COMPILER_LAUNCHER}
export CMAKE_CUDA_COMPILER_LAUNCHER=${CMAKE_CUDA_COMPILER_LAUNCHER-$CMAKE_CXX_COMPILER_LAUNCHER}

start=$(date +%s)
mkdir -p "$build"
cmake --preset engine-bundle >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
grep -q "CUDA backend ON" "$build/configure.log" ||
    echo "make-gpu-bundle: WARNING: nvcc not found; the bundle will have no CUDA backend" >&2
cmake --build "$build" -j"$jobs" --target dgem-engine
echo "make-gpu-bundle: built in $(($(date +%s) - start)) s"

# The tokenizer: the bundle build's own, else the main build's, else prepare one (network).
tokenizer=""
for t in "$build/models/tokenizer/tokenizer.json" "$root/build/models/tokenizer/tokenizer.json"; do
    [[ -f $t ]] && { tokenizer=$t; break; }
done
if [[ -z $tokenizer ]]; then
    bash scripts/prepare-tokenizer.sh "$build"
    tokenizer=$build/models/tokenizer/tokenizer.json
fi

out=$build/$name
rm -rf "$out" "$out.tar.gz"
mkdir -p "$out/bin" "$out/models/tokenizer" "$out/scripts/gpu"
# Symbols are not needed on the device; the CUDA kernels live in their own section and stay.
strip --strip-unneeded -o "$out/bin/dgem-engine" "$build/bin/dgem-engine"
cp "$tokenizer" "$out/models/tokenizer/"
cp scripts/gpu-check.sh "$out/scripts/"
cp scripts/gpu/diffusiongemma-26b-a4b.config.json scripts/gpu/hf_compare.py "$out/scripts/gpu/"
{
    echo "dgem engine-only GPU bundle"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "built: $(date -u +%Y-%m-%dT%H:%MZ) on $(uname -m), $(/usr/local/cuda/bin/nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo 'no nvcc')"
    "$out/bin/dgem-engine" info | grep -E "^cuda-(compiled|archs)"
    echo "needs on the device: an NVIDIA driver for CUDA 13 (580 or newer) and libcublas.so.13"
    glibc=$(objdump -T "$out/bin/dgem-engine" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
    echo "(or .12 from CUDA 12.5+) found at run time; x86-64 Linux with ${glibc/_/ } or newer"
} >"$out/BUNDLE.txt"

tar -C "$build" -czf "$out.tar.gz" "$name"
folder_mib=$(du -sm "$out" | cut -f1)
packed_bytes=$(stat -c %s "$out.tar.gz")
packed_mib=$(( (packed_bytes + 1048575) / 1048576 ))
echo "make-gpu-bundle: $out: $(du -sh "$out" | cut -f1) ($folder_mib MiB; dgem-engine $(du -sh "$out/bin/dgem-engine" | cut -f1))"
echo "make-gpu-bundle: $out.tar.gz: $packed_bytes bytes ($packed_mib MiB, limit $limit_mib MiB)"
if (( packed_bytes > limit_mib * 1048576 )); then
    echo "make-gpu-bundle: the packed bundle is over $limit_mib MiB" >&2
    exit 1
fi
