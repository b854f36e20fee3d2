"""Running the command line in-process, as tests of its commands do, or as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from refman.__main__ import main


class Run(NamedTuple):
    """What one command did: its exit status and what it printed."""

    code: int
    out: str
    err: str


Cli = Callable[..., Run]


def runner(capsys: pytest.CaptureFixture[str], library: Path | str, *prefix: str) -> Cli:
    """Run ``refman --db LIBRARY [prefix] ARGS...`` and capture what it printed."""

    def call(*args: object) -> Run:
        code = main(["--db", str(library), *prefix, *map(str, args)])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return call


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], library_location: str) -> Cli:
    """The command line on the test's library, a file or a shared library (files may
    define their own)."""
    return runner(capsys, library_location)


def refman_process(
    library: Path | str, home: Path, *args: str, **options: Any
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m refman --db LIBRARY ARGS...`` as a real process with its own refman
    folder (``REFMAN_HOME``), its output captured as text (only stderr when ``stdout`` is
    given); ``options`` go to :func:`subprocess.run`."""
    env = {**os.environ, "REFMAN_HOME": str(home)}
    env.pop("REFMAN_DB", None)
    captured: dict[str, Any] = (
        {"stderr": subprocess.PIPE} if "stdout" in options else {"capture_output": True}
    )
    return subprocess.run(
        [sys.executable, "-m", "refman", "--db", str(library), *args],
        env=env,
        **captured,
        text=True,
        timeout=options.pop("timeout", 300),
        check=False,
        **options,
    )
