"""PyInstaller entry script: the ``refman`` executable of the one-folder bundle.

It does what the ``refman`` console script of an installed wheel does: run
:func:`refman.__main__.console`, which exits with the command's status.
"""

from __future__ import annotations

from refman.__main__ import console

if __name__ == "__main__":
    console()
