"""The entry keys of a ``.bib`` export, and the papers whose key the file holds otherwise.

An entry's key is the paper's citation key. A key BibTeX or biber cannot read as it is (one
that holds a space or a parenthesis, from a bibliography imported before refman made such
keys readable: :func:`~refman.importers.bib_common.bib_key`), or one BibTeX takes for another
entry's (the two differ only in case, in a library made before keys were compared so), is
written otherwise — and a ``\\cite`` with the paper's key would not find it, or would find the
other paper. The export says which (:func:`key_changes_text`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from refman.common.text import plural
from refman.core.citekeys import folded
from refman.core.export.common import ExportItem
from refman.importers.bib_common import bib_key

__all__ = ["KeyChange", "entry_keys", "key_changes", "key_changes_text"]

#: How many changed keys a message names.
_NAMED = 3


@dataclass(frozen=True, slots=True)
class KeyChange:
    """A paper whose key an export's ``.bib`` file holds otherwise.

    Attributes:
        paper_id: The paper.
        key: Its citation key.
        written: The entry's key in the file.
        other: The paper BibTeX takes the key for (its key or other key, case ignored);
            None when the key holds a character BibTeX or biber does not take in a key.
    """

    paper_id: int
    key: str
    written: str
    other: int | None


def entry_keys(items: Sequence[ExportItem]) -> list[tuple[str, int | None]]:
    """Each entry's key and, when it had to be told apart, the paper whose key it was.

    The keys are the citation keys, written as a ``.bib`` file can hold them and unique in the
    file as BibTeX compares keys (:func:`~refman.core.citekeys.folded`: straße2020 and
    STRASSE2020 are two); a key made up (``-2``) is neither another entry's key nor one of
    its other keys.
    """
    safe = [bib_key(x.key) or "paper" for x in items]
    kept = {folded(k): x.detail.id for x, k in zip(items, safe, strict=True) if k == x.key}
    seen = {folded(a): x.detail.id for x in items for a in x.detail.aliases}
    keys: list[tuple[str, int | None]] = []
    for x, base in zip(items, safe, strict=True):
        key, n, other = base, 1, None
        while (holder := _holder(folded(key), seen, kept, made=key != x.key)) not in (
            None,
            x.detail.id,  # (one of its own other keys: an older key's entry, imported)
        ):
            other = holder if other is None else other
            n += 1
            key = f"{base}-{n}"
        seen[folded(key)] = x.detail.id
        keys.append((key, other))
    return keys


def _holder(key: str, seen: dict[str, int], kept: dict[str, int], *, made: bool) -> int | None:
    """The paper a key (folded) is already an entry's key or other key of, if any; a key made
    up must not be another paper's key written later either."""
    return seen.get(key, kept.get(key) if made else None)


def key_changes(
    items: Sequence[ExportItem], keys: Sequence[tuple[str, int | None]]
) -> tuple[KeyChange, ...]:
    """The papers whose citation key the file holds otherwise (``keys``: :func:`entry_keys`)."""
    return tuple(
        KeyChange(x.detail.id, x.detail.citekey, written, other)
        for x, (written, other) in zip(items, keys, strict=True)
        if x.detail.citekey and written != x.detail.citekey
    )


def _why(change: KeyChange) -> str:
    if change.other is None:
        return "a character BibTeX or biber does not take in a key"
    return f"BibTeX takes it for paper #{change.other}'s key, ignoring case"


def key_changes_text(changes: Sequence[KeyChange]) -> str:
    """What an export says of the keys it wrote otherwise ("" when none): a ``\\cite`` of those
    papers by their keys would not find them."""
    if not changes:
        return ""
    if len(changes) == 1:
        (c,) = changes
        return (
            f"Paper #{c.paper_id}'s key ‘{c.key}’ is ‘{c.written}’ in the file ({_why(c)}): "
            "a \\cite of that key would not find it."
        )
    named = ", ".join(
        f"#{c.paper_id} ‘{c.key}’ as ‘{c.written}’ ({_why(c)})" for c in changes[:_NAMED]
    )
    more = f", and {len(changes) - _NAMED} more" if len(changes) > _NAMED else ""
    return (
        f"{plural(len(changes), 'paper')}' keys are written otherwise in the file, and a "
        f"\\cite of those keys would not find them: {named}{more}."
    )
