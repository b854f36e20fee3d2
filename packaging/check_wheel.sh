#!/usr/bin/env bash
# Build refman's wheel and check that it installs and runs on its own.
#
#   1. `python -m build --wheel` (in .venv-package, with build isolation) from a clean copy of
#      the working tree, so that no stale build/ folder can add or hide files; the wheel is
#      left in dist/.
#   2. The wheel must contain the run-time resources: the icons, the arXiv category names and
#      the Alembic migrations (env.py, script.py.mako, versions/*.py) - every file of
#      refman/data and refman/store/migrations in the source tree, in fact.
#   3. It is installed (not editable) into a brand-new virtual environment, and from a folder
#      outside the repository `refman --version` and `refman --db NEW screenshot OUT.png`
#      must work, with refman imported from that environment.
#
# Environment: PYTHON (default python3) creates the virtual environments.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"
PYTHON="${PYTHON:-python3}"
VENV="$ROOT/.venv-package"

fail() { printf 'check_wheel: FAIL: %s\n' "$*" >&2; exit 1; }
ok() { printf 'check_wheel: ok: %s\n' "$*"; }

TMP="$(mktemp -d "${TMPDIR:-/tmp}/refman-wheel-check.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
# Work from the temporary folder: in the repository root, `python -m build` would find the
# build/ folder (PyInstaller's work folder) as a namespace package instead of the tool.
cd "$TMP"

# --- the build tool --------------------------------------------------------------------------
if [[ ! -x "$VENV/bin/python" ]]; then
    "$PYTHON" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import build" 2> /dev/null; then
    # The `build` requirement of the [package] extra in pyproject.toml.
    BUILD_REQ="$("$VENV/bin/python" - "$ROOT/pyproject.toml" <<'TOML'
import sys
import tomllib

extra = tomllib.load(open(sys.argv[1], "rb"))["project"]["optional-dependencies"]["package"]
print(next(req for req in extra if req.replace(" ", "").lower().startswith("build")))
TOML
)"
    "$VENV/bin/python" -m pip install --quiet "$BUILD_REQ"
fi

# --- build -----------------------------------------------------------------------------------
# A clean copy of the working tree: tracked and new files, nothing git ignores.
SRC="$TMP/src"
mkdir -p "$SRC"
if git -C "$ROOT" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    # (.venv-package may not be in .gitignore yet; deleted files cannot be copied.)
    git -C "$ROOT" ls-files -z --cached --others --exclude-standard \
        | { grep -zv '^\.venv' || true; } \
        | (cd "$ROOT" && xargs -0 -r cp --parents -t "$SRC" 2> /dev/null || true)
else
    cp -R "$ROOT/pyproject.toml" "$ROOT/refman" "$SRC/"
    for extra in README.md LICENSE; do
        if [[ -f "$ROOT/$extra" ]]; then cp "$ROOT/$extra" "$SRC/"; fi
    done
fi
[[ -f "$SRC/pyproject.toml" && -d "$SRC/refman" ]] || fail "could not copy the source tree"
find "$SRC" -name '__pycache__' -type d -prune -exec rm -rf {} +

mkdir -p "$ROOT/dist"
rm -f "$ROOT"/dist/refman-*.whl
"$VENV/bin/python" -m build --wheel --outdir "$ROOT/dist" "$SRC" > "$TMP/build.log" 2>&1 \
    || { cat "$TMP/build.log" >&2; fail "python -m build --wheel failed"; }
WHEELS=("$ROOT"/dist/refman-*.whl)
[[ ${#WHEELS[@]} -eq 1 && -f "${WHEELS[0]}" ]] || fail "expected one wheel in dist/, found: ${WHEELS[*]}"
WHEEL="${WHEELS[0]}"
ok "built $(basename "$WHEEL") ($(du -h "$WHEEL" | cut -f1))"

# --- contents --------------------------------------------------------------------------------
"$PYTHON" - "$WHEEL" "$ROOT" <<'CONTENTS' || fail "the wheel lacks run-time resources (see above): check [tool.setuptools.package-data] in pyproject.toml"
import sys
import zipfile
from pathlib import Path

wheel, root = sys.argv[1], Path(sys.argv[2])
names = set(zipfile.ZipFile(wheel).namelist())
required = {
    "refman/data/arxiv_categories.json",
    "refman/data/icons/refman.svg",
    "refman/store/migrations/env.py",
    "refman/store/migrations/script.py.mako",
    "refman/store/migrations/versions/0001_initial_schema.py",
}
required |= {f"refman/data/icons/refman-{n}.png" for n in (16, 24, 32, 48, 64, 128, 256, 512)}
# Every data and migration file of the source tree, not only the ones named above.
for folder in ("refman/data", "refman/store/migrations"):
    for path in (root / folder).rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            required.add(path.relative_to(root).as_posix())
missing = sorted(required - names)
for name in missing:
    print(f"missing from the wheel: {name}", file=sys.stderr)
stray = sorted(n for n in names if "__pycache__" in n or n.startswith(("tests/", "bench/")))
for name in stray:
    print(f"should not be in the wheel: {name}", file=sys.stderr)
sys.exit(1 if missing or stray else 0)
CONTENTS
ok "the wheel contains the icons, arXiv categories and Alembic migrations"

# --- install into a brand-new environment and run it -----------------------------------------
"$PYTHON" -m venv "$TMP/venv"
"$TMP/venv/bin/python" -m pip install --quiet "$WHEEL" > "$TMP/pip.log" 2>&1 \
    || { cat "$TMP/pip.log" >&2; fail "pip install of the wheel failed"; }
ok "installed into a new virtual environment"

mkdir -p "$TMP/elsewhere"
cd "$TMP/elsewhere"  # outside the repository: nothing may be imported from the source tree
unset PYTHONPATH REFMAN_DB
export REFMAN_HOME="$TMP/home"
export QT_QPA_PLATFORM=offscreen

LOCATION="$("$TMP/venv/bin/python" -c 'import refman; print(refman.__file__)')"
[[ "$LOCATION" == "$TMP/venv/"* ]] || fail "refman was imported from $LOCATION, not the new venv"
ok "refman is imported from the new venv ($LOCATION)"

EXPECTED="$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$ROOT/refman/__init__.py")"
VERSION="$("$TMP/venv/bin/refman" --version)"
[[ "$VERSION" == "refman $EXPECTED" ]] || fail "--version printed '$VERSION', expected 'refman $EXPECTED'"
ok "$VERSION"

"$TMP/venv/bin/refman" --db "$TMP/new/library.sqlite" screenshot "$TMP/x.png" --size 1100x700 \
    > "$TMP/shot.out" 2>&1 || fail "screenshot failed: $(cat "$TMP/shot.out")"
[[ -f "$TMP/new/library.sqlite" ]] || fail "the new library was not created"
SIZE="$("$PYTHON" - "$TMP/x.png" <<'PNG'
import struct
import sys

with open(sys.argv[1], "rb") as handle:
    header = handle.read(24)
if header[:8] != b"\x89PNG\r\n\x1a\n" or header[12:16] != b"IHDR":
    sys.exit(f"{sys.argv[1]} is not a PNG")
print("{}x{}".format(*struct.unpack(">II", header[16:24])))
PNG
)" || fail "the screenshot is not a PNG"
[[ "$SIZE" == "1100x700" ]] || fail "the screenshot is $SIZE, expected 1100x700"
ok "screenshot of a new library is a 1100x700 PNG"

echo "check_wheel: all checks passed for $WHEEL"
