"""The packages of refman import each other in one direction only.

``common`` is the leaf; ``importers`` and ``store`` sit on it and know nothing of each other or
of ``core``; ``core`` (the library service) sits on those three; ``cli`` and ``ui`` are the two
fronts on top. The check reads every module's imports (including the ones inside functions),
so a circle can never creep back in.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "refman"

#: What each part of refman may import from refman (besides itself).
ALLOWED: dict[str, frozenset[str]] = {
    "common": frozenset(),
    "data": frozenset(),
    "paths": frozenset(),
    "resources": frozenset(),
    "__init__": frozenset(),
    "logging_setup": frozenset({"paths"}),
    "importers": frozenset({"common"}),
    "store": frozenset({"common"}),
    "core": frozenset({"common", "importers", "store"}),
    "cli": frozenset({"common", "core", "importers", "paths", "logging_setup", "__init__"}),
    "ui": frozenset(
        {"common", "core", "importers", "paths", "logging_setup", "resources", "__init__"}
    ),
    "__main__": frozenset({"cli"}),
}
#: The command line opens the window for ``refman`` without a command: only that module,
#: only inside a function, so that no command loads Qt.
LAZY_EXCEPTIONS = {("cli", "refman.ui.app")}


def _part(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(module, imported at module level) for every refman import of a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, bool]] = []
    top_level = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # ``from refman import paths`` imports the module refman.paths.
            names = [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if name == "refman" or name.startswith("refman."):
                found.append((name, id(node) in top_level))
    return found


def _target(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__"
    target = parts[1]
    if target == "__version__":
        return "__init__"
    return target


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_go_down_the_layers(path: Path) -> None:
    part = _part(path)
    assert part in ALLOWED, f"{part} is not a known part of refman: add it to ALLOWED"
    wrong = []
    for module, top_level in _imports(path):
        target = _target(module)
        if target == part or target in ALLOWED[part]:
            continue
        lazy = any(module.startswith(name) for p, name in LAZY_EXCEPTIONS if p == part)
        if lazy and not top_level:
            continue
        wrong.append(module)
    assert not wrong, f"{path.relative_to(PACKAGE)} ({part}) may not import {sorted(set(wrong))}"


def test_the_check_sees_a_wrong_import(tmp_path: Path) -> None:
    """The reader finds imports inside functions too (a check that cannot fail is no check)."""
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from refman.core import library\n", encoding="utf-8")
    assert ("refman.core.library", False) in _imports(sample)
