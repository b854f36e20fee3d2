"""citeproc-py ignores ``initialize="false"`` on a style's ``<name>``: CSL says given names
are then written in full, and only initials already in the data are formatted with
``initialize-with`` ("J.R.R." → "J. R. R."). Chicago's bibliography writes given names in
full (while its citations, which never show them, set ``initialize-with``), so citeproc-py
wrote "Smith, J., J. Müller" where citeproc-js writes "Smith, John, Jürgen Müller". Here
``Name.initialize`` — which citeproc-py calls whenever ``initialize-with`` is set — keeps a
given name that is a name, and formats the initials only, when the name says so.
"""

from __future__ import annotations

import re
from typing import Any

from citeproc.model import Name

#: A given name that is initials already: "J", "J.", "J.R.R.", "É.".
_INITIALS = re.compile(r"[^\W\d_]\.?|(?:[^\W\d_]\.)+")

_original = Name.initialize


def _initialize_flag(name: Any) -> str | None:
    """The ``initialize`` attribute of a ``<name>``, or of the ``<citation>`` or
    ``<bibliography>`` it inherits name options from."""
    value = name.get("initialize")
    if value is None:
        found = name.xpath_search("./ancestor::*[self::cs:citation or self::cs:bibliography][1]")
        value = found[0].get("initialize") if found else None
    return str(value) if value is not None else None


def _initialize(self: Any, given: str, mark: str, context: Any) -> str:
    if _initialize_flag(self) != "false":
        return str(_original(self, given, mark, context))
    words = given.split()
    return " ".join(
        str(_original(self, word, mark, context)) if _INITIALS.fullmatch(word) else word
        for word in words
    )


def install() -> None:
    """Make citeproc-py follow ``initialize="false"`` (idempotent)."""
    Name.initialize = _initialize
