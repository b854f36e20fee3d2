#!/usr/bin/env bash
# Check the PyInstaller bundle in dist/refman/ (build it first: packaging/build.sh).
#
# Runs the bundled executable headless (QT_QPA_PLATFORM=offscreen) from a folder outside the
# repository, with REFMAN_HOME in a throwaway folder, and checks that:
#   * `refman --version` prints the version of the source tree;
#   * a small author page (written by this script) imports into a new library, which creates
#     it through the bundled Alembic migrations;
#   * `refman list --json` shows the imported papers, with arXiv category names resolved and
#     LaTeX converted (bundled data files and pylatexenc);
#   * `refman screenshot` writes a PNG of the requested size (bundled Qt plugins);
#   * nothing was written outside REFMAN_HOME and the chosen library.
# When xvfb-run is installed the screenshot is also taken on the xcb platform.
#
# Usage: packaging/check_bundle.sh [BUNDLE_DIR]   (default: dist/refman)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"
BUNDLE="$(cd "${1:-$ROOT/dist/refman}" && pwd)"
EXE="$BUNDLE/refman"
PY="${PYTHON:-python3}"

fail() { printf 'check_bundle: FAIL: %s\n' "$*" >&2; exit 1; }
ok() { printf 'check_bundle: ok: %s\n' "$*"; }

[[ -x "$EXE" ]] || fail "$EXE not found: build the bundle first (make package)"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/refman-bundle-check.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
export REFMAN_HOME="$TMP/home"
export QT_QPA_PLATFORM=offscreen
unset REFMAN_DB
LIB="$TMP/library/check.sqlite"
mkdir -p "$TMP/library"  # (refman makes a new library in a folder that exists, not the folder)
cd "$TMP"  # nothing may come from the source tree

# --- version ---------------------------------------------------------------------------------
EXPECTED="$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$ROOT/refman/__init__.py")"
VERSION="$("$EXE" --version)"
[[ "$VERSION" == "refman $EXPECTED" ]] || fail "--version printed '$VERSION', expected 'refman $EXPECTED'"
ok "$VERSION"

# --- import a page into a new library -------------------------------------------------------
cat > "$TMP/bundle-check.txt" <<'PAGE'
arXiv subjects

Bundle Checker

Publications and source records attributed to Bundle Checker.

2 recordsLinked to original sources

arXiv2025

Frozen Applications Ship Their Own Migrations

We show that a \textbf{one-folder bundle} opens a new library and creates its schema with the Alembic scripts it carries.

cs.SE↗

ICML2024

Headless Screenshots of Bundled Qt Programs

An offscreen platform plugin renders the main window without a display.

cs.GR↗
PAGE
"$EXE" --db "$LIB" import "$TMP/bundle-check.txt" > "$TMP/import.out"
grep -q "2 new" "$TMP/import.out" || fail "import did not report 2 new papers: $(cat "$TMP/import.out")"
[[ -f "$LIB" ]] || fail "the library $LIB was not created"
ok "imported a page into a new library ($(cat "$TMP/import.out"))"

# --- list --json -----------------------------------------------------------------------------
"$EXE" --db "$LIB" list --json > "$TMP/list.json"
"$PY" - "$TMP/list.json" <<'CHECK' || fail "list --json does not show the imported papers"
import json
import sys

papers = json.load(open(sys.argv[1], encoding="utf-8"))
titles = {paper["title"] for paper in papers}
expected = {
    "Frozen Applications Ship Their Own Migrations",
    "Headless Screenshots of Bundled Qt Programs",
}
assert titles == expected, titles
by_title = {paper["title"]: paper for paper in papers}
frozen = by_title["Frozen Applications Ship Their Own Migrations"]
assert frozen["subjects"] == ["cs.SE"], frozen["subjects"]
assert frozen["year"] == 2025 and frozen["venue"] == "arXiv", frozen
assert all(paper["attributed_to"] == ["Bundle Checker"] for paper in papers)
CHECK
ok "list --json shows both papers"

# arXiv category names (refman/data/arxiv_categories.json) and LaTeX -> text (pylatexenc).
"$EXE" --db "$LIB" show 1 > "$TMP/show.txt" 2>&1 || fail "show 1 failed: $(cat "$TMP/show.txt")"
grep -q "Software Engineering" "$TMP/show.txt" || fail "arXiv category name not shown: $(cat "$TMP/show.txt")"
grep -q "one-folder bundle" "$TMP/show.txt" || fail "abstract not shown: $(cat "$TMP/show.txt")"
if grep -q 'textbf' "$TMP/show.txt"; then fail "LaTeX markup not converted: $(cat "$TMP/show.txt")"; fi
ok "arXiv category names and LaTeX conversion work"

# Citations (refman/data/styles, citeproc's locales) and exports (the CSL-JSON schema).
"$EXE" --db "$LIB" cite 1 2 --style ieee > "$TMP/cite.out" 2>&1 || fail "cite failed: $(cat "$TMP/cite.out")"
grep -q '^\[1\] ' "$TMP/cite.out" || fail "IEEE entries not numbered: $(cat "$TMP/cite.out")"
"$EXE" --db "$LIB" cite 1 --style nature --format html > "$TMP/cite-html.out" 2>&1 || fail "cite --format html failed"
grep -q 'csl-left-margin' "$TMP/cite-html.out" || fail "HTML entry not shaped as citeproc-js's"
"$EXE" --db "$LIB" export --format csl-json > "$TMP/export.json" 2>&1 || fail "export failed: $(cat "$TMP/export.json")"
grep -q '"citation-key"' "$TMP/export.json" || fail "CSL-JSON export has no citation keys"
ok "cite formats citations and export writes CSL-JSON (styles, locales and schema bundled)"

# Citation keys transliterated (anyascii's tables, read at run time).
printf '@article{,\n  author = {Иванов, Пётр},\n  title = {Теория чисел},\n  year = {2018},\n}\n' > "$TMP/bundle-check.bib"
"$EXE" --db "$LIB" import "$TMP/bundle-check.bib" > "$TMP/ru.out" 2>&1 || fail "import of a .bib failed: $(cat "$TMP/ru.out")"
"$EXE" --db "$LIB" list --json > "$TMP/ru.json"
grep -q '"citekey": "ivanov2018teoriya"' "$TMP/ru.json" || fail "citation key not transliterated: $(cat "$TMP/ru.json")"
ok "citation keys are transliterated (Иванов → ivanov2018teoriya)"

# --- screenshot ------------------------------------------------------------------------------
png_size() {
    "$PY" - "$1" <<'PNG'
import struct
import sys

with open(sys.argv[1], "rb") as handle:
    header = handle.read(24)
if header[:8] != b"\x89PNG\r\n\x1a\n" or header[12:16] != b"IHDR":
    sys.exit(f"{sys.argv[1]} is not a PNG")
width, height = struct.unpack(">II", header[16:24])
print(f"{width}x{height}")
PNG
}

"$EXE" --db "$LIB" screenshot "$TMP/shot.png" --size 1024x700 > "$TMP/shot.out" 2>&1 \
    || fail "screenshot failed: $(cat "$TMP/shot.out")"
SIZE="$(png_size "$TMP/shot.png")" || fail "screenshot is not a PNG"
[[ "$SIZE" == "1024x700" ]] || fail "screenshot is $SIZE, expected 1024x700"
ok "screenshot (offscreen) is a 1024x700 PNG"

# A new default library below REFMAN_HOME (no --db) works too.
"$EXE" screenshot "$TMP/empty.png" --size 1000x640 > "$TMP/empty.out" 2>&1 \
    || fail "screenshot of a new default library failed: $(cat "$TMP/empty.out")"
[[ "$(png_size "$TMP/empty.png")" == "1000x640" ]] || fail "screenshot of the new library has the wrong size"
[[ -f "$REFMAN_HOME/data/library.sqlite" ]] || fail "the default library was not created below REFMAN_HOME"
ok "screenshot of a new default library"

# The xcb platform (a real X display) needs a few X libraries from the system, as on any
# desktop; without them, or without xvfb-run, that part is skipped.
QXCB="$BUNDLE/_internal/PySide6/Qt/plugins/platforms/libqxcb.so"
[[ -f "$QXCB" ]] || fail "the xcb platform plugin is not in the bundle"
if ! command -v xvfb-run > /dev/null; then
    echo "check_bundle: skipped the xcb screenshot (xvfb-run not installed: apt-get install xvfb)"
else
    MISSING="$(LD_LIBRARY_PATH="$BUNDLE/_internal:$BUNDLE/_internal/PySide6/Qt/lib" ldd "$QXCB" \
        | awk '/not found/ {print $1}' | tr '\n' ' ' || true)"
    if [[ -n "$MISSING" ]]; then
        echo "check_bundle: skipped the xcb screenshot (system libraries missing: $MISSING)"
    else
        QT_QPA_PLATFORM=xcb xvfb-run -a "$EXE" --db "$LIB" screenshot "$TMP/xcb.png" \
            --size 800x600 > "$TMP/xcb.out" 2>&1 || fail "screenshot on xcb failed: $(cat "$TMP/xcb.out")"
        [[ "$(png_size "$TMP/xcb.png")" == "800x600" ]] || fail "xcb screenshot has the wrong size"
        ok "screenshot (xcb under Xvfb) is an 800x600 PNG"
    fi
fi

# --- desktop integration from the bundle -----------------------------------------------------
INTEGRATE="$BUNDLE/install-desktop-integration.sh"
[[ -x "$INTEGRATE" ]] || fail "$INTEGRATE is missing"
XDG="$TMP/xdg-data"
XDG_DATA_HOME="$XDG" "$INTEGRATE" > "$TMP/integrate.out" 2>&1 \
    || fail "desktop integration failed: $(cat "$TMP/integrate.out")"
ENTRY="$XDG/applications/io.github.refman.Refman.desktop"
grep -qxF "Exec=$EXE %F" "$ENTRY" || fail "the menu entry does not start $EXE: $(grep Exec "$ENTRY")"
[[ -f "$XDG/icons/hicolor/256x256/apps/io.github.refman.Refman.png" ]] || fail "icons not installed"
[[ -f "$XDG/metainfo/io.github.refman.Refman.metainfo.xml" ]] || fail "metainfo not installed"
if command -v desktop-file-validate > /dev/null; then
    desktop-file-validate "$ENTRY" > "$TMP/validate.out" 2>&1 || fail "$(cat "$TMP/validate.out")"
fi
XDG_DATA_HOME="$XDG" "$INTEGRATE" --uninstall > "$TMP/integrate.out" 2>&1 \
    || fail "desktop integration --uninstall failed: $(cat "$TMP/integrate.out")"
LEFT="$(find "$XDG" -type f)"
[[ -z "$LEFT" ]] || fail "--uninstall left files behind: $LEFT"
rm -rf "$XDG"
ok "desktop integration installs (Exec=$EXE) and uninstalls"

# --- nothing written elsewhere ---------------------------------------------------------------
STRAY="$(find "$TMP" -mindepth 1 -maxdepth 1 \
    ! -name home ! -name library ! -name '*.txt' ! -name '*.bib' ! -name '*.out' ! -name '*.json' ! -name '*.png')"
[[ -z "$STRAY" ]] || fail "unexpected files in the working folder: $STRAY"

echo "check_bundle: all checks passed for $BUNDLE ($(du -sh "$BUNDLE" | cut -f1))"
