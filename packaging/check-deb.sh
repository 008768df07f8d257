#!/usr/bin/env bash
# packaging_deb: makes the .deb from the build folder and checks it as a user would get it.
#   check-deb.sh BUILD_DIR SOURCE_DIR VERSION [JEVBENCH_DIR]
# 1. cpack -G DEB into a temporary folder: one decision-studio_VERSION_ARCH.deb;
# 2. lintian: no E: line (every tag is printed);
# 3. dpkg-deb -c: the programs, policies, suites, translations (one .qm per translations/*.ts),
#    JevBench's items (when JEVBENCH_DIR is given), icon, desktop entry, metainfo, manual pages,
#    copyright and changelog;
# 4. Depends computed by dpkg-shlibdeps (names libqt6core6);
# 5. dpkg-deb -x into a temporary folder: the unpacked desktop entry and metadata validate
#    (appstreamcli validate-tree too), usr/bin/dgem --help prints its usage, dgem reads the
#    unpacked data (version's default model: models/$DS_DEFAULT_MODEL_NAME, tiny when unset;
#    bench-jev --sync), and the unpacked Studio opens and closes under the offscreen platform
#    (DS_QUIT_AFTER_SHOW) on the unpacked data.
# The cpack build folder and the unpacked tree are removed at the end.
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) version=$3 jevbench=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ds-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
step() { echo "== $* ($SECONDS s)"; }

step "cpack -G DEB -B $tmp/out"
(cd "$build" && cpack -G DEB -B "$tmp/out") > "$tmp/cpack.log" 2>&1 || {
  cat "$tmp/cpack.log"
  fail "cpack failed"
}
shopt -s nullglob
debs=("$tmp"/out/*.deb)
[ ${#debs[@]} -eq 1 ] || fail "expected one .deb, cpack wrote: ${debs[*]:-none}"
deb=${debs[0]}
expected="decision-studio_${version}_$(dpkg --print-architecture).deb"
[ "$(basename "$deb")" = "$expected" ] || fail "file name $(basename "$deb"), expected $expected"
echo "$expected: $(stat -c %s "$deb") bytes"

step "lintian"
lintian --tag-display-limit 0 --display-info "$deb" > "$tmp/lintian.log" 2>&1 || true
grep -v '^running with root privileges' "$tmp/lintian.log" || true
if grep -q '^E: ' "$tmp/lintian.log"; then fail "lintian reports errors"; fi

step "contents"
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./||' > "$tmp/contents"
want=(
  usr/bin/dgem usr/bin/decision-studio
  usr/share/applications/io.decisionstudio.DecisionStudio.desktop
  usr/share/metainfo/io.decisionstudio.DecisionStudio.metainfo.xml
  usr/share/icons/hicolor/scalable/apps/io.decisionstudio.DecisionStudio.svg
  usr/share/man/man1/dgem.1.gz usr/share/man/man1/decision-studio.1.gz
  usr/share/doc/decision-studio/copyright usr/share/doc/decision-studio/changelog.gz
)
for f in "$src"/resources/templates/* "$src"/resources/suites/*; do
  want+=("usr/share/decision-studio/${f#"$src"/resources/}")
done
for ts in "$src"/translations/*.ts; do
  want+=("usr/share/decision-studio/translations/$(basename "${ts%.ts}").qm")
done
if [ -n "$jevbench" ]; then
  want+=(usr/share/decision-studio/jevbench/jevbench_public.jsonl
         usr/share/decision-studio/jevbench/manifest.lock.json
         usr/share/decision-studio/jevbench/leaderboard_v14.json)
fi
missing=0
for f in "${want[@]}"; do
  grep -qxF "$f" "$tmp/contents" || { echo "missing from the package: $f"; missing=1; }
done
[ $missing -eq 0 ] || fail "files missing"
echo "${#want[@]} expected files present ($(grep -cv '/$' "$tmp/contents") files in all)"

step "Depends"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
[[ "$depends" == *libqt6core6* ]] || fail "Depends does not name libqt6core6 (shlibdeps)"

step "dpkg-deb -x"
root="$tmp/root"
dpkg-deb -x "$deb" "$root"
share="$root/usr/share"
bash "$here/check-metadata.sh" "$share/applications/io.decisionstudio.DecisionStudio.desktop" \
  "$share/metainfo/io.decisionstudio.DecisionStudio.metainfo.xml" "$version" ||
  fail "the installed desktop entry or metadata"
appstreamcli validate-tree --no-net --strict "$root" || fail "appstreamcli validate-tree"

# Away from the build tree and from the user's files: a fresh home for both programs.
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share"
export XDG_CACHE_HOME="$tmp/home/.cache" XDG_RUNTIME_DIR="$tmp/run"
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
unset DGEM_URL DS_THEME
cd "$tmp"

step "usr/bin/dgem --help"
"$root/usr/bin/dgem" --help > "$tmp/help" || fail "dgem --help exited $?"
grep -q '^Usage: dgem COMMAND' "$tmp/help" || { cat "$tmp/help"; fail "dgem --help printed no usage"; }
"$root/usr/bin/dgem" version > "$tmp/version" || fail "dgem version exited $?"
default_model=$share/decision-studio/models/${DS_DEFAULT_MODEL_NAME:-tiny}
grep -qxF "default model: $default_model" "$tmp/version" ||
  { cat "$tmp/version"; fail "the unpacked dgem does not read the unpacked data"; }
if [ -n "$jevbench" ]; then
  "$root/usr/bin/dgem" bench-jev --sync > "$tmp/sync" 2>&1 || { cat "$tmp/sync"; fail "bench-jev --sync"; }
  grep -qF "$share/decision-studio/jevbench/jevbench_public.jsonl sha256" "$tmp/sync" ||
    { cat "$tmp/sync"; fail "bench-jev --sync did not check the unpacked items"; }
  head -n1 "$tmp/sync"
fi

step "usr/bin/decision-studio (offscreen, DS_QUIT_AFTER_SHOW)"
status=0
QT_QPA_PLATFORM=offscreen DS_QUIT_AFTER_SHOW=0 timeout 120 "$root/usr/bin/decision-studio" \
  > "$tmp/studio.log" 2>&1 || status=$?
cat "$tmp/studio.log"
[ $status -eq 0 ] || fail "decision-studio exited $status"
grep -q 'shown, closing' "$tmp/studio.log" || fail "decision-studio never showed its window"
settings="$XDG_CONFIG_HOME/decision-studio/decision-studio.conf"
grep -qF "model_dir=$default_model" "$settings" ||
  { cat "$settings"; fail "the unpacked Studio's local engine is not on the unpacked data"; }

step "ok"
