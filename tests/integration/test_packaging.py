"""Packaging: the PyInstaller spec, the wheel's contents and the desktop integration script.

The slow, network-using checks (building the bundle, installing the wheel into a new venv)
live in packaging/check_bundle.sh and packaging/check_wheel.sh; these tests are the cheap
ones that catch the usual mistakes: a run-time file missing from the package data, a spec
that stops collecting the migrations, a desktop integration that leaves files behind.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from refman.resources import ICON_SIZES

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
SPEC = PACKAGING / "refman.spec"
ENTRY = PACKAGING / "entry.py"
INTEGRATE = PACKAGING / "install-desktop-integration.sh"
APP_ID = "io.github.refman.Refman"

#: Files refman reads at run time from its package folder; a wheel without them is broken.
RUNTIME_FILES = {
    "refman/data/arxiv_categories.json",
    "refman/data/icons/refman.svg",
    "refman/store/migrations/env.py",
    "refman/store/migrations/script.py.mako",
    "refman/store/migrations/versions/0001_initial_schema.py",
} | {f"refman/data/icons/refman-{size}.png" for size in ICON_SIZES}


def _source_resources() -> set[str]:
    """Every data and migration file in the source tree (all of them must be shipped)."""
    found = set()
    for folder in ("refman/data", "refman/store/migrations"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                found.add(path.relative_to(ROOT).as_posix())
    return found


def _run(
    *args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(arg) for arg in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


# --- the PyInstaller spec ---------------------------------------------------------------------


def _spec_tree() -> ast.Module:
    return ast.parse(SPEC.read_text(encoding="utf-8"), filename=str(SPEC))


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    ]


def _literal_args(call: ast.Call) -> tuple[list[object], dict[str, object]]:
    args: list[object] = [arg.value for arg in call.args if isinstance(arg, ast.Constant)]
    kwargs: dict[str, object] = {
        kw.arg: kw.value.value
        for kw in call.keywords
        if kw.arg is not None and isinstance(kw.value, ast.Constant)
    }
    return args, kwargs


def test_spec_collects_data_and_migrations() -> None:
    tree = _spec_tree()
    collected = [_literal_args(call) for call in _calls(tree, "collect_data_files")]
    packages = {args[0] for args, _ in collected if args}
    assert "refman.data" in packages, "the icons and arXiv categories are not collected"
    assert "pylatexenc" in packages
    migrations = [kw for args, kw in collected if args == ["refman.store"]]
    assert migrations, "the Alembic migrations are not collected"
    assert migrations[0].get("subdir") == "migrations"
    # env.py and versions/*.py are read as files at run time: they must go in as data.
    assert migrations[0].get("include_py_files") is True


def test_spec_bundles_what_the_migrations_import() -> None:
    submodules = {
        _literal_args(call)[0][0]
        for call in _calls(_spec_tree(), "collect_submodules")
        if _literal_args(call)[0]
    }
    assert {"refman", "alembic"} <= submodules
    assert "sqlalchemy.dialects.sqlite" in SPEC.read_text(encoding="utf-8")


def test_spec_keeps_the_qt_plugins_refman_needs_and_drops_heavy_modules() -> None:
    text = SPEC.read_text(encoding="utf-8")
    for plugin in ("libqoffscreen.so", "libqxcb.so", "libqsvg.so"):
        assert f'"{plugin}"' in text, plugin
    excludes = next(
        node.value
        for node in ast.walk(_spec_tree())
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "excludes" for t in node.targets)
    )
    assert isinstance(excludes, ast.List)
    names = {elt.value for elt in excludes.elts if isinstance(elt, ast.Constant)}
    for heavy in ("QtWebEngineCore", "Qt3DCore", "QtQuick", "QtQml", "QtMultimedia"):
        assert f"PySide6.{heavy}" in names, heavy
    # Nothing refman imports may be excluded.
    used = {
        line.split()[1]
        for path in (ROOT / "refman").rglob("*.py")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("from PySide6.")
    }
    assert not used & names, used & names


def test_spec_checks_name_real_files() -> None:
    """The resource paths the spec insists on exist in the source tree."""
    named = {
        node.value
        for node in ast.walk(_spec_tree())
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.startswith("refman/")
        and "*" not in node.value
    }
    assert named, "the spec checks no resource"
    absent = {
        name
        for name in named
        if not ((ROOT / name).is_dir() if name.endswith("/") else (ROOT / name).is_file())
    }
    assert absent == set()


def test_spec_builds_a_one_folder_bundle_named_refman() -> None:
    tree = _spec_tree()
    (exe,) = _calls(tree, "EXE")
    (coll,) = _calls(tree, "COLLECT")
    assert _literal_args(exe)[1]["name"] == "refman"
    assert _literal_args(exe)[1]["exclude_binaries"] is True  # one folder, not one file
    assert _literal_args(coll)[1]["name"] == "refman"
    assert 'ENTRY = str(SPEC_DIR / "entry.py")' in SPEC.read_text(encoding="utf-8")


def test_entry_script_runs_refman_like_the_console_script(tmp_path: Path) -> None:
    tree = ast.parse(ENTRY.read_text(encoding="utf-8"))
    imports = {
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert ("refman.__main__", "console") in imports
    env = {**os.environ, "REFMAN_HOME": str(tmp_path)}
    result = _run(sys.executable, ENTRY, "--version", cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    from refman import __version__

    assert result.stdout.strip() == f"refman {__version__}"


# --- the wheel --------------------------------------------------------------------------------


def _copy_source(target: Path) -> Path:
    """A clean copy of what setuptools needs, so no build/ or *.egg-info lands in the repo."""
    src = target / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, src / name)
    shutil.copytree(
        ROOT / "refman", src / "refman", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    return src


def _can_import(module: str) -> bool:
    return _run(sys.executable, "-c", f"import {module}").returncode == 0


def _packaged_files(tmp_path: Path) -> tuple[str, set[str]]:
    """Build refman without network access; return how and the packaged file names.

    A wheel (``pip wheel --no-build-isolation``) when this venv's setuptools can make one
    (setuptools >= 70.1, or the ``wheel`` package); otherwise setuptools' ``build_py``, the
    step that decides which package-data files a wheel gets.
    """
    if not _can_import("setuptools"):
        pytest.skip("setuptools is not installed in this venv: cannot build refman offline")
    src = _copy_source(tmp_path)
    out = tmp_path / "out"
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    if _can_import("setuptools.command.bdist_wheel") or _can_import("wheel.bdist_wheel"):
        result = _run(
            sys.executable,
            "-m",
            "pip",
            "wheel",
            src,
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            out,
            env=env,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        (wheel,) = out.glob("refman-*.whl")
        return "wheel", set(zipfile.ZipFile(wheel).namelist())
    result = _run(
        sys.executable,
        "-c",
        "from setuptools import setup; setup()",
        "build_py",
        "--build-lib",
        out,
        cwd=src,
        env=env,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return "build_py", {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}


def test_wheel_ships_runtime_resources(tmp_path: Path) -> None:
    how, names = _packaged_files(tmp_path)
    missing = sorted((RUNTIME_FILES | _source_resources()) - names)
    assert not missing, (
        f"missing from the {how} output (add them to [tool.setuptools.package-data] in "
        f"pyproject.toml): {missing}"
    )
    assert "refman/__main__.py" in names
    assert not [n for n in names if n.startswith(("tests/", "bench/")) or "__pycache__" in n]
    if how == "wheel":
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        assert entry_points


# --- desktop integration ----------------------------------------------------------------------


def _integrate(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "share")}
    return _run(bash, INTEGRATE, *args, env=env)


def _files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def test_desktop_integration_installs_and_uninstalls(tmp_path: Path) -> None:
    share = tmp_path / "share"
    other = share / "applications" / "other.desktop"
    other.parent.mkdir(parents=True)
    other.write_text("[Desktop Entry]\n", encoding="utf-8")

    result = _integrate(tmp_path)
    assert result.returncode == 0, result.stderr
    installed = _files(share)
    icon_dirs = sorted(
        p.parent.parent.name for p in (ROOT / "resources/icons/hicolor").glob(f"*/apps/{APP_ID}.*")
    )
    expected = {
        f"applications/{APP_ID}.desktop",
        f"metainfo/{APP_ID}.metainfo.xml",
        *(f"icons/hicolor/{size}x{size}/apps/{APP_ID}.png" for size in ICON_SIZES),
        f"icons/hicolor/scalable/apps/{APP_ID}.svg",
    }
    assert len(icon_dirs) == len(ICON_SIZES) + 1
    assert expected <= installed
    entry = share / "applications" / f"{APP_ID}.desktop"
    assert "Exec=refman %F\n" in entry.read_text(encoding="utf-8")
    assert (share / "metainfo" / f"{APP_ID}.metainfo.xml").read_bytes() == (
        ROOT / "resources" / f"{APP_ID}.metainfo.xml"
    ).read_bytes()
    validate = shutil.which("desktop-file-validate")
    if validate is not None:
        check = _run(validate, entry)
        assert check.returncode == 0 and "error:" not in check.stdout + check.stderr, check.stdout

    # Installing again is harmless and changes nothing.
    assert _integrate(tmp_path).returncode == 0
    assert _files(share) == installed

    result = _integrate(tmp_path, "--uninstall")
    assert result.returncode == 0, result.stderr
    left = _files(share)
    assert "applications/other.desktop" in left, "uninstall removed a file it did not install"
    assert not [name for name in left if APP_ID in name], left
    assert not (share / "icons").exists() and not (share / "metainfo").exists()
    # Uninstalling what is not installed is fine too.
    assert _integrate(tmp_path, "--uninstall").returncode == 0


def test_desktop_integration_exec_path_with_spaces(tmp_path: Path) -> None:
    program = tmp_path / "my apps" / "refman" / "refman"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    program.chmod(0o755)
    result = _integrate(tmp_path, "--exec", str(program))
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "share" / "applications" / f"{APP_ID}.desktop").read_text(encoding="utf-8")
    assert f'Exec="{program}" %F\n' in text
    assert f"TryExec={program}\n" in text
    assert _integrate(tmp_path, "--exec", "/opt/$HOME/refman").returncode == 2
    assert _integrate(tmp_path, "--uninstall").returncode == 0
    assert not _files(tmp_path / "share")


# --- the scripts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "script",
    ["build.sh", "check_bundle.sh", "check_wheel.sh", "install-desktop-integration.sh"],
)
def test_scripts_are_strict_bash(script: str) -> None:
    path = PACKAGING / script
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "\nset -euo pipefail\n" in text
    assert os.access(path, os.X_OK), f"{script} is not executable"
    bash = shutil.which("bash")
    if bash is not None:
        syntax = _run(bash, "-n", path)
        assert syntax.returncode == 0, syntax.stderr
