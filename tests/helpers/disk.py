"""Disks that refuse: a file or folder made read-only (even for root), a file-size limit
that makes writes fail as on a full disk."""

from __future__ import annotations

import contextlib
import os
import resource
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Make a file or folder read-only, even for root (the immutable attribute), or skip."""
    if os.geteuid() == 0:
        made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
        if made.returncode != 0:
            pytest.skip(f"cannot make {path} immutable here: {made.stderr!r}")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        mode = path.stat().st_mode
        path.chmod(mode & ~0o222)
        try:
            yield
        finally:
            path.chmod(mode)


def size_limit(limit: int) -> Callable[[], None]:
    """A ``preexec_fn`` that caps the files a process writes at ``limit`` bytes (``ulimit
    -f``): a write past it fails as on a full disk."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return cap
