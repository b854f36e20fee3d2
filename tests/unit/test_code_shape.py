"""refman's code stays in small pieces: modules of at most 400 lines, functions of at most 60
lines and a cyclomatic complexity (radon) of at most 15. The generated Alembic migrations are
exempt. A piece that grows past a limit is a sign that it does two jobs: split it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from radon.complexity import cc_visit

PACKAGE = Path(__file__).resolve().parents[2] / "refman"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
MAX_COMPLEXITY = 15


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


def _name(path: Path) -> str:
    return str(path.relative_to(PACKAGE))


@pytest.mark.parametrize("path", _modules(), ids=_name)
def test_module_is_small(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{_name(path)} has {lines} lines"


@pytest.mark.parametrize("path", _modules(), ids=_name)
def test_functions_are_short_and_simple(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    too_long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    too_complex = [
        f"{block.fullname} (complexity {block.complexity})"
        for block in cc_visit(source)
        if block.complexity > MAX_COMPLEXITY
    ]
    assert not too_long + too_complex, f"{_name(path)}: {too_long + too_complex}"


def test_test_modules_have_names_of_their_own() -> None:
    """The tests' folders are no packages: two test files of one name stop the whole run at
    collection ("import file mismatch"), so each name is used once."""
    tests = PACKAGE.parent / "tests"
    seen: dict[str, list[str]] = {}
    for path in sorted(tests.rglob("test_*.py")):
        seen.setdefault(path.name, []).append(str(path.relative_to(tests)))
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}
