#!/usr/bin/env bash
# Refreshes the Studio's Qt Linguist sources, translations/decision-studio_<lang>.ts, from the
# code with lupdate: strings new in the code come in as unfinished (translate them in Qt
# Linguist, `linguist translations/decision-studio_de.ts`, or in the XML), strings gone from
# the code are dropped. The build turns the .ts files into .qm with lrelease.
#
#   bash scripts/update-translations.sh                 # update both .ts files in place
#   bash scripts/update-translations.sh --extract FILE  # write the source strings alone to FILE
#
# --extract is what ui_tst_translations compares the .ts files with: a tr() string that is not
# in them (or one they keep that the code lost) fails that test until this script has run and
# the new strings are translated.
set -euo pipefail
cd "$(dirname "$0")/.."

lupdate="${LUPDATE:-}"
if [ -z "$lupdate" ]; then
  for candidate in /usr/lib/qt6/bin/lupdate "$(command -v lupdate6 || true)" \
                   "$(command -v lupdate || true)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then lupdate="$candidate"; break; fi
  done
fi
[ -n "$lupdate" ] || { echo "update-translations: lupdate not found (qt6-l10n-tools)" >&2; exit 1; }

# Everything the Studio shows: the widgets, the executable and the Qt parts of studio-core
# (progress stage names). Include paths let lupdate resolve "ui/..." headers, so contexts carry
# their namespace (ui::MainWindow), as tr() names them at run time.
sources=(ui app/studio studio-core/src studio-core/include)
options=(-I . -I studio-core/include -I local-engine/include -I local-engine/base/include
         -extensions cpp,h
         -locations none -no-obsolete -no-ui-lines -source-language en)

if [ "${1:-}" = "--extract" ]; then
  [ -n "${2:-}" ] || { echo "usage: $0 --extract FILE.ts" >&2; exit 2; }
  rm -f "$2"
  exec "$lupdate" -silent "${options[@]}" "${sources[@]}" -ts "$2"
fi

for lang in de ja; do
  "$lupdate" "${options[@]}" -target-language "$lang" "${sources[@]}" \
    -ts "translations/decision-studio_${lang}.ts"
done
# English needs only its plural forms ("%n draw(s)" -> "1 draw", "4 draws").
"$lupdate" "${options[@]}" -target-language en -pluralonly "${sources[@]}" \
  -ts translations/decision-studio_en.ts
