"""Entry point of ``refman`` and ``python -m refman``."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from typing import NoReturn

from refman.cli import run

__all__ = ["console", "main"]


def main(argv: list[str] | None = None) -> int:
    """Run refman's command line (or open its window when no command is given).

    Args:
        argv: The arguments after the program name; ``sys.argv[1:]`` when None.

    Returns:
        The exit status.
    """
    return run(argv)


def console() -> NoReturn:
    """Run :func:`main` as a program, and end the process with its status.

    By the time :func:`main` returns, refman has closed its library (the file as it left it,
    no write-ahead log), stopped its threads and closed its windows; what is left is to
    write out the last output and the log. The interpreter's own teardown of Qt and
    SQLAlchemy then takes about a quarter of a second and has nothing left to save, so the
    process ends at once instead: every command returns that much sooner.
    """
    if getattr(sys, "frozen", False):  # the bundle: a spawned text reader runs this program
        import multiprocessing

        multiprocessing.freeze_support()
    code = main()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe (``refman list | head``)
            stream.flush()
    os._exit(code)


if __name__ == "__main__":
    console()
