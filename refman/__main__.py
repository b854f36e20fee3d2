"""Entry point of ``refman`` and ``python -m refman``."""

from __future__ import annotations

import sys

from refman.cli import run

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Run refman's command line (or open its window when no command is given).

    Args:
        argv: The arguments after the program name; ``sys.argv[1:]`` when None.

    Returns:
        The exit status.
    """
    return run(argv)


if __name__ == "__main__":
    sys.exit(main())
