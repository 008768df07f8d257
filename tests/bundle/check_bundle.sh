#!/usr/bin/env bash
# ctest bundle_engine_only: the engine-only GPU bundle works from a copy in a temporary folder,
# with an empty environment (no LD_LIBRARY_PATH, so no Qt or toolkit on the library path):
#   - dgem-engine needs no shared library beyond glibc's (and the kernel's loader): no Qt, no
#     libopenblas, no libstdc++/libgcc_s/libgfortran, no CUDA runtime or cuBLAS; and no glibc
#     symbol newer than 2.34; an exception thrown in it is caught;
#   - the CPU tests pass (backend_cpu, thread_pool, engine_forward);
#   - without a usable GPU the CUDA tests and the parity check report "skipped" (exit 77), not
#     a crash; with one they pass;
#   - make-tiny-model writes a model folder; an unknown --dtype is refused with exit 3.
#
#   check_bundle.sh BUNDLE            BUNDLE: a bundle folder (as make-gpu-bundle.sh assembles)
#   check_bundle.sh --build SRC DIR [CMAKE-ARGS...]
#                                     first build the engine-only targets in DIR (a sub-build of
#                                     the source tree SRC, CUDA as the machine allows), assemble a
#                                     bundle folder there and check that
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }

if [[ ${1:-} == --build ]]; then
    src=$2 dir=$3
    shift 3
    tokenizer=${DS_TOKENIZER_JSON:-$src/build/models/tokenizer/tokenizer.json}
    mkdir -p "$dir"
    cmake -S "$src" -B "$dir" -G Ninja -DDS_ENGINE_ONLY=ON "$@" >"$dir/configure.log" 2>&1 ||
        { cat "$dir/configure.log"; fail "engine-only configure"; }
    cmake --build "$dir" --target dgem-engine -j"${DS_BUNDLE_JOBS:-2}" >"$dir/build.log" 2>&1 ||
        { tail -50 "$dir/build.log"; fail "engine-only build"; }
    bundle=$dir/dgem-gpu-bundle
    rm -rf "$bundle"
    mkdir -p "$bundle/bin" "$bundle/models/tokenizer" "$bundle/scripts/gpu"
    cp "$dir/bin/dgem-engine" "$bundle/bin/"
    [[ -f $tokenizer ]] && cp "$tokenizer" "$bundle/models/tokenizer/"
    cp "$src"/scripts/gpu/* "$bundle/scripts/gpu/"
else
    bundle=${1:?usage: check_bundle.sh BUNDLE | --build SRC DIR}
fi
[[ -x $bundle/bin/dgem-engine ]] || fail "$bundle/bin/dgem-engine is missing"

# The copy: a fresh folder, so nothing can come from the build tree.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bundle-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp -r "$bundle" "$tmp/bundle"
engine=$tmp/bundle/bin/dgem-engine
run() { env -i PATH=/usr/bin:/bin HOME="$tmp" TMPDIR="$tmp" "$engine" "$@"; }

# 1. What the executable asks the dynamic loader for.
needed=$(readelf -d "$engine" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort)
echo "dgem-engine needs: $(echo $needed)"
while read -r lib; do
    case $lib in
        libc.so.*|libm.so.*|libdl.so.*|librt.so.*|libpthread.so.*|ld-linux*) ;;
        *) fail "dgem-engine needs $lib (only glibc's libraries are allowed in the bundle)" ;;
    esac
done <<<"$needed"
# And what the loader actually resolves in the empty environment (catches indirect needs).
resolved=$(env -i PATH=/usr/bin:/bin ldd "$engine") || fail "ldd dgem-engine: $resolved"
echo "$resolved"
if grep -E -i "qt6|openblas|libstdc\+\+|libgcc_s|gfortran|cublas|cudart|not found" <<<"$resolved"; then
    fail "dgem-engine resolves a library the bundle must not need (above)"
fi

# Nothing newer than glibc 2.34 (Ubuntu 22.04, RHEL 9): see local-engine/bundle/glibc_compat.cpp.
newest=$(objdump -T "$engine" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
echo "newest glibc symbol version: $newest"
[[ $(printf '%s\n' "$newest" 2.34 | sort -V | tail -1) == 2.34 ]] ||
    fail "dgem-engine needs glibc $newest (at most 2.34 allowed): $(objdump -T "$engine" | grep -E "GLIBC_2\.(3[5-9])" | head -3)"
run info | tee "$tmp/info.log"
grep -q '^exceptions ok' "$tmp/info.log" || fail "an exception thrown in dgem-engine was not caught"
# cuBLAS is loaded at run time (local-engine/bundle/cublas_loader.cpp); loading needs no GPU, so
# where the toolkit's is installed the bundle must find it and read its version through it.
if grep -q '^cuda-compiled yes' "$tmp/info.log" && [[ -e /usr/local/cuda/lib64/libcublas.so.13 ]]; then
    grep -q '^cublas .*libcublas\.so\.13 (version 13\.' "$tmp/info.log" ||
        fail "the bundle did not load /usr/local/cuda/lib64/libcublas.so.13"
fi

# 2. The Qt Test stand-in the tests are compiled against still fails what must fail.
set +e
run shim-probe >"$tmp/probe.log" 2>&1
rc=$?
set -e
grep -q '^Totals: 3 passed, 4 failed, 1 skipped' "$tmp/probe.log" && [[ $rc == 4 ]] ||
    { cat "$tmp/probe.log"; fail "shim-probe: expected 3 passed, 4 failed, 1 skipped and exit 4 (got $rc)"; }
for f in failsVerify failsCompareInt failsCompareFloat failsCompareNearZero; do
    grep -q "^FAIL!  : ShimProbe::$f()" "$tmp/probe.log" || fail "shim-probe: $f did not fail"
done
echo "qt_shim probe: 3 passed, 4 failed, 1 skipped, as expected"

# 3. The CPU tests.
[[ -f $tmp/bundle/models/tokenizer/tokenizer.json ]] ||
    fail "the bundle has no models/tokenizer/tokenizer.json (scripts/prepare-tokenizer.sh build)"
run test backend_cpu thread_pool engine_forward >"$tmp/cpu.log" 2>&1 ||
    { cat "$tmp/cpu.log"; fail "the bundle's CPU tests"; }
grep '^test-result' "$tmp/cpu.log"
grep -q '^test-result engine_forward: passed' "$tmp/cpu.log" || fail "engine_forward did not pass"
grep -q 'FAIL!' "$tmp/cpu.log" && fail "a test function failed"

# 4. CUDA: skipped without a usable device, passing with one.
usable=$(sed -n 's/^cuda-usable //p' "$tmp/info.log")
set +e
run test cuda_backend cuda_ops cuda_vision_ops >"$tmp/cuda.log" 2>&1
rc=$?
set -e
grep '^test-result' "$tmp/cuda.log" || true
if [[ $usable == yes ]]; then
    [[ $rc == 0 ]] || { cat "$tmp/cuda.log"; fail "the CUDA tests on this machine's GPU"; }
else
    [[ $rc == 77 ]] || { cat "$tmp/cuda.log"; fail "without a GPU the CUDA tests must report skipped (77), got $rc"; }
fi

# 5. The tiny-model writer and the parity check.
run make-tiny-model --out "$tmp/tiny" --dtype bf16 --seed 3 || fail "make-tiny-model"
[[ -f $tmp/tiny/model.safetensors && -f $tmp/tiny/config.json && -f $tmp/tiny/tokenizer.json ]] ||
    fail "make-tiny-model wrote no complete model folder"
set +e
out=$(run make-tiny-model --out "$tmp/bad" --dtype no-such-type 2>&1)
rc=$?
set -e
[[ $rc == 3 ]] || fail "an unknown --dtype gave exit $rc (expected 3): $out"
echo "unknown dtype refused: $out"
set +e
run parity --model "$tmp/tiny"
rc=$?
set -e
if [[ $usable == yes ]]; then
    [[ $rc == 0 ]] || fail "parity on this machine's GPU: exit $rc"
else
    [[ $rc == 77 ]] || fail "parity without a GPU must report skipped (77), got $rc"
fi
echo "bundle check passed (CUDA usable: ${usable:-no})"
