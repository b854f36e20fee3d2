"""Entry point of ``refman`` and ``python -m refman``."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from typing import NoReturn

__all__ = ["console", "main"]

#: Exit status of a command stopped by Ctrl+C: 128 + SIGINT, as shells report it.
INTERRUPTED = 130


def main(argv: list[str] | None = None) -> int:
    """Run refman's command line (or open its window when no command is given).

    Ctrl+C ends it with a short line on stderr and status 130, also while the command line
    is still loading; a change under way is not made (its transaction is rolled back).

    Args:
        argv: The arguments after the program name; ``sys.argv[1:]`` when None.

    Returns:
        The exit status.
    """
    try:
        from refman.cli import run  # (loaded here: Ctrl+C may come while it loads)

        return run(argv)
    except KeyboardInterrupt:
        sys.stderr.write("refman: interrupted\n")
        return INTERRUPTED


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
        with contextlib.suppress(OSError, ValueError, AttributeError):  # a closed pipe
            stream.flush()  # (``refman list | head``), or no stream at all (``>&-``)
    os._exit(code)


if __name__ == "__main__":
    console()
