"""PyInstaller entry script: the ``refman`` executable of the one-folder bundle.

It does what the ``refman`` console script of an installed wheel does: run
:func:`refman.__main__.main` and exit with its status.
"""

from __future__ import annotations

import sys

from refman.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
