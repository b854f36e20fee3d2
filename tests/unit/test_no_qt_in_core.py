"""The core, the importers, the store and the command line never import Qt."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

MODULES = [
    "refman.common.errors",
    "refman.common.text",
    "refman.core.library",
    "refman.core.importing.wording",
    "refman.core.operations",
    "refman.importers",
    "refman.store.database",
    "refman.store.search",
    "refman.cli",
]

_PROBE = """
import importlib, json, sys
loaded, missing = [], []
for name in sys.argv[1:]:
    if importlib.util.find_spec(name) is None:
        missing.append(name)
        continue
    importlib.import_module(name)
    loaded.append(name)
qt = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6", "PyQt5", "PyQt6"))
ui = sorted(m for m in sys.modules if m == "refman.ui" or m.startswith("refman.ui."))
print(json.dumps({"loaded": loaded, "missing": missing, "qt": qt, "ui": ui}))
"""


def test_core_modules_import_without_qt() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import importlib.util\n" + _PROBE, *MODULES],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["qt"] == [], f"Qt was imported: {report['qt']}"
    assert report["ui"] == [], f"refman.ui was imported: {report['ui']}"
    assert set(report["missing"]) <= {"refman.cli"}, report["missing"]
    assert "refman.core.library" in report["loaded"]


@pytest.mark.skipif(importlib.util.find_spec("refman.cli") is None, reason="no refman.cli yet")
def test_the_command_line_imports_without_qt() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import importlib.util\n" + _PROBE, "refman.cli"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["loaded"] == ["refman.cli"]
    assert report["qt"] == []
