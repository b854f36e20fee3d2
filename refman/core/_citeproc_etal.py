"""An author list known to stop short ends in the style's "et al.". Private to
:mod:`refman.core._citeproc_render`.

Author pages often list the first authors of a long paper and then "et al." or "… and 12
others"; refman keeps the names it was given and that the list is incomplete
(``authors_complete``). CSL-JSON has no variable for that, so a citation engine would print
the names given as if they were all the authors ("Smith, J., & Müller, J."), crediting the
paper to two people. Here, while :func:`incomplete_authors` is in force, the author names
of those items end in the style's et-al term, placed with its own options
(``delimiter-precedes-et-al``, the term's formatting): "Smith, J., Müller, J., et al." in
APA, "J. Smith, J. Müller, et al." in IEEE, "Smith J et al." in Nature. Where the style
truncates the list itself (more names than its ``et-al-min``) its output stands as it is,
but for APA's ``et-al-use-last`` ("…, Last, L."), which would name the last name given as
the paper's last author: the list ends in "et al." there too. Sorting compares the names
alone.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from typing import Any

from citeproc.model import Name

_local = threading.local()
_ORIGINAL_PROCESS = Name.process
_ORIGINAL_OPTION = Name.get_option

#: The name options that write every name given, joined by the delimiter alone.
_ALL_NAMES: dict[str, Any] = {"and": None, "et-al-min": None, "et-al-use-last": None}
#: The name options of a list the style truncates that is incomplete: its "et al.", never
#: APA's "… Last, L." (the last name given is not the paper's last author).
_NO_LAST: dict[str, Any] = {"et-al-use-last": None}


@contextmanager
def incomplete_authors(keys: Collection[str]) -> Iterator[None]:
    """While the block runs, the author lists of the items of these citeproc-py keys end in
    "et al."."""
    before: frozenset[str] = getattr(_local, "keys", frozenset())
    _local.keys = frozenset(keys)
    try:
        yield
    finally:
        _local.keys = before


def _get_option(self: Any, name: str, context: Any = None, sort_options: Any = None) -> Any:
    overrides: dict[str, Any] | None = getattr(_local, "overrides", None)
    if overrides is not None and name in overrides:
        return overrides[name]
    return _ORIGINAL_OPTION(self, name, context, sort_options)


def _incomplete(item: Any, variable: str, sort_options: Any) -> bool:
    """True when these names are an author list known to stop short (not when sorting)."""
    if variable != "author" or sort_options is not None:
        return False
    return getattr(item, "key", None) in getattr(_local, "keys", ())


def _stops_short(self: Any, item: Any, variable: str, context: Any, sort_options: Any) -> bool:
    """True when these names are an incomplete author list the style would not truncate."""
    if not _incomplete(item, variable, sort_options):
        return False
    names = item.reference.get(variable, [])
    if not names or self.get_option("form", context, sort_options) == "count":
        return False
    least = self.get_option("et-al-min", context, sort_options)
    return not (len(names) > 1 and least and len(names) >= int(least))


def _process(
    self: Any, item: Any, variable: str, context: Any = None, sort_options: Any = None, **kw: Any
) -> Any:
    """citeproc-py's ``Name.process``, ending an incomplete author list in "et al."."""
    if not _stops_short(self, item, variable, context, sort_options):
        if not _incomplete(item, variable, sort_options):
            return _ORIGINAL_PROCESS(self, item, variable, context, sort_options, **kw)
        _local.overrides = _NO_LAST  # truncated by the style: its last name is not the last
        try:
            return _ORIGINAL_PROCESS(self, item, variable, context, sort_options, **kw)
        finally:
            _local.overrides = None
    _local.overrides = _ALL_NAMES
    try:
        text = _ORIGINAL_PROCESS(self, item, variable, context, sort_options, **kw)
    finally:
        _local.overrides = None
    et_al = self.et_al()
    if not text or not et_al:
        return text
    option = self.get_option
    precedes = option("delimiter-precedes-et-al", context, sort_options)
    count = len(item.reference.get(variable, []))
    inverted = option("name-as-sort-order", context, sort_options)
    last_inverted = inverted == "all" or (inverted == "first" and count == 1)
    if (
        precedes == "always"
        or (precedes == "contextual" and count >= 2)
        or (precedes == "after-inverted-name" and last_inverted)
    ):
        return self.join([text, et_al], option("delimiter", context, sort_options))
    return text + " " + et_al


def install() -> None:
    """End incomplete author lists in "et al." (idempotent)."""
    Name.get_option = _get_option
    Name.process = _process
