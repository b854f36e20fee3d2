"""The list's author column of a book that names no authors but its editors, as Zotero's
creator column shows an edited book: "Luca Rossi (ed.)", "Luca Rossi et al. (eds.)".

One home for the wording: the library service writes it (``Paper.author_line``), the store
tells it from an author list cut short (such a book needs no attention,
:data:`refman.store.models.ATTENTION`), and the list's tooltip says they are editors.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["EDITORS_LIKE", "editor_line", "editor_mark", "names_editors"]

_ONE = " (ed.)"
_SEVERAL = " (eds.)"
#: An SQL ``LIKE`` pattern of an author line that names editors.
EDITORS_LIKE = "% (ed%.)"


def editor_line(editors: Sequence[str], *, every: bool = False) -> str:
    """The author column of a book by its editors ("" when it has none): the first editor,
    or ``every`` one (the import wizard's review lists every author).

    Example:
        ``["Luca Rossi", "Kofi Mensah"]`` → ``"Luca Rossi et al. (eds.)"``, or
        ``"Luca Rossi, Kofi Mensah (eds.)"`` with ``every``
    """
    if not editors:
        return ""
    if len(editors) == 1:
        return editors[0] + _ONE
    names = ", ".join(editors) if every else f"{editors[0]} et al."
    return names + _SEVERAL


def names_editors(line: str) -> bool:
    """True when an author column names a book's editors (:func:`editor_line`)."""
    return bool(editor_mark(line))


def editor_mark(line: str) -> str:
    """The mark that ends an author column naming editors (" (ed.)", " (eds.)"), kept when
    the column is cut short; "" for one naming authors."""
    return next((mark for mark in (_ONE, _SEVERAL) if line.endswith(mark)), "")
