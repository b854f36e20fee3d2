"""The review's choices carried over when the person goes back and changes the pages: those
made on the records of a page still given stay made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from refman.core.importing.values import ImportChoices, RecordRef, SourcedPage


def moved_pages(before: Sequence[SourcedPage], now: Sequence[SourcedPage]) -> dict[int, int]:
    """Where each page given before is now: its index before → its index now (a page no
    longer given, or read again from text changed since, has none).

    Args:
        before: The pages the choices were made on.
        now: The pages given now.
    """
    moved: dict[int, int] = {}
    for old, page in enumerate(before):
        new = next(
            (i for i, p in enumerate(now) if p.page is page.page and p.source == page.source),
            None,
        )
        if new is not None:
            moved[old] = new
    return moved


def carried(choices: ImportChoices, moved: Mapping[int, int]) -> ImportChoices:
    """The choices made on records of the pages before, as the pages are numbered now.

    Args:
        choices: The choices made before.
        moved: See :func:`moved_pages`.

    Returns:
        The choices on the records of the pages still given (the others dropped).
    """

    def now(refs: frozenset[RecordRef]) -> frozenset[RecordRef]:
        return frozenset((moved[p], r) for p, r in refs if p in moved)

    return ImportChoices(
        skip=now(choices.skip),
        keep_separate=now(choices.keep_separate),
        merge=now(choices.merge),
        titles={(moved[p], r): t for (p, r), t in choices.titles.items() if p in moved},
    )
