"""Running the command line in-process, as tests of its commands do."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

from refman.__main__ import main


class Run(NamedTuple):
    """What one command did: its exit status and what it printed."""

    code: int
    out: str
    err: str


Cli = Callable[..., Run]


def runner(capsys: pytest.CaptureFixture[str], library_path: Path, *prefix: str) -> Cli:
    """Run ``refman --db LIBRARY [prefix] ARGS...`` and capture what it printed."""

    def call(*args: object) -> Run:
        code = main(["--db", str(library_path), *prefix, *map(str, args)])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return call


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], library_path: Path) -> Cli:
    """The command line on the test's library (files may define their own)."""
    return runner(capsys, library_path)
