#!/usr/bin/env bash
# Build the one-folder PyInstaller bundle of refman in dist/refman/ (`make package`).
#
# Uses its own virtual environment, .venv-package, so that the test environment (.venv)
# stays lean. refman is installed into it as a regular (non-editable) package, so the bundle
# is made from exactly the files a wheel ships: a package-data rule that is missing in
# pyproject.toml makes the bundle fail its check too.
#
# Environment:
#   PYTHON       the Python 3.11+ that creates .venv-package (default: python3)
#   PIP_QUIET    set to 0 to see pip's output
#
# Run from anywhere; safe to run again (it reuses the venv and rebuilds the bundle).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"
PYTHON="${PYTHON:-python3}"
VENV="$ROOT/.venv-package"
STAMP="$VENV/.stamp-package"
QUIET=(--quiet)
[[ "${PIP_QUIET:-1}" == "0" ]] && QUIET=()

step() { printf '==> %s\n' "$*"; }

if [[ ! -x "$VENV/bin/python" ]]; then
    step "creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi

# A copy of the source tree to install from, so that setuptools leaves no build/ or
# *.egg-info behind in the checkout.
SRC="$(mktemp -d "${TMPDIR:-/tmp}/refman-src.XXXXXX")"
trap 'rm -rf "$SRC"' EXIT
cp -R "$ROOT/pyproject.toml" "$ROOT/refman" "$SRC/"
for extra in README.md LICENSE; do
    if [[ -f "$ROOT/$extra" ]]; then cp "$ROOT/$extra" "$SRC/"; fi
done
find "$SRC" -name '__pycache__' -type d -prune -exec rm -rf {} +

# Dependencies, build and pyinstaller: only when pyproject.toml changed.
if [[ ! -f "$STAMP" || "$ROOT/pyproject.toml" -nt "$STAMP" ]]; then
    step "installing refman's dependencies and the [package] extra into $VENV"
    "$VENV/bin/python" -m pip install "${QUIET[@]}" --upgrade pip
    "$VENV/bin/python" -m pip install "${QUIET[@]}" "$SRC[package]"
    touch "$STAMP"
fi
# refman itself every time, so that the bundle has the current source.
step "installing refman (non-editable) into $VENV"
"$VENV/bin/python" -m pip install "${QUIET[@]}" --no-deps --force-reinstall "$SRC"

step "running PyInstaller"
WORK="$ROOT/build/pyinstaller"
mkdir -p "$WORK"
# Run from the work folder, not the repository root: PyInstaller's helper processes put
# their working directory on sys.path, and the source tree must not shadow the installed
# package there.
(
    cd "$WORK"
    "$VENV/bin/pyinstaller" --noconfirm --clean --log-level WARN \
        --distpath "$ROOT/dist" --workpath "$WORK" \
        "$ROOT/packaging/refman.spec"
)

# Desktop integration beside the executable: share/ is laid out like a prefix, and the
# script finds it there (and then writes the bundle's full path into the menu entry).
step "adding the desktop integration files"
BUNDLE="$ROOT/dist/refman"
rm -rf "$BUNDLE/share"
install -D -m 644 "$ROOT/resources/io.github.refman.Refman.desktop" \
    "$BUNDLE/share/applications/io.github.refman.Refman.desktop"
install -D -m 644 "$ROOT/resources/io.github.refman.Refman.metainfo.xml" \
    "$BUNDLE/share/metainfo/io.github.refman.Refman.metainfo.xml"
mkdir -p "$BUNDLE/share/icons"
cp -R "$ROOT/resources/icons/hicolor" "$BUNDLE/share/icons/"
install -m 755 "$ROOT/packaging/install-desktop-integration.sh" "$BUNDLE/"

SIZE="$(du -sh "$ROOT/dist/refman" | cut -f1)"
step "bundle: $ROOT/dist/refman ($SIZE); run dist/refman/refman, check with packaging/check_bundle.sh"
