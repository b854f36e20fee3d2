"""Packages whose names load on first use: a program that never exports or parses (the
window starting, ``refman list``) does not pay for loading the exporters, the parsers and
the libraries behind them (bibtexparser, pylatexenc, rispy)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports each name from its module on
    first use.

    Args:
        package: The package's ``__name__``.
        homes: Each name the package offers → the module (within the package) defining it.
    """

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(f"{package}.{home}"), name)

    return __getattr__
