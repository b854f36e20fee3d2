"""Validate the freedesktop desktop entry and the AppStream metainfo file.

The validators are system tools; the tests skip when they are not installed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
DESKTOP_FILE = RESOURCES / "io.github.refman.Refman.desktop"
METAINFO_FILE = RESOURCES / "io.github.refman.Refman.metainfo.xml"


def _require(tool: str, package: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} not installed: apt-get install {package}")
    return path


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, check=False, timeout=120)


def test_desktop_file_is_valid() -> None:
    tool = _require("desktop-file-validate", "desktop-file-utils")
    result = _run(tool, str(DESKTOP_FILE))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error:" not in result.stdout + result.stderr


def test_metainfo_is_valid() -> None:
    tool = _require("appstreamcli", "appstream")
    result = _run(tool, "validate", "--no-net", str(METAINFO_FILE))
    assert result.returncode == 0, result.stdout + result.stderr


def test_desktop_file_and_metainfo_agree() -> None:
    desktop = DESKTOP_FILE.read_text(encoding="utf-8")
    metainfo = METAINFO_FILE.read_text(encoding="utf-8")
    assert "Icon=io.github.refman.Refman\n" in desktop
    assert "Exec=refman %F\n" in desktop
    assert f'<launchable type="desktop-id">{DESKTOP_FILE.name}</launchable>' in metainfo
    assert "<binary>refman</binary>" in metainfo
