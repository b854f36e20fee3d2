"""A paper deleted for good elsewhere while someone wrote in it, brought back with what they
wrote.

Someone empties the Trash, or undoes the import that brought a paper, in another window or on
another computer sharing the library, while a person writes a note in that paper: the window
keeps the paper shown, the note with it (:mod:`refman.ui.kept_paper`), and Keep Paper brings
the paper back as it was last shown, with its notes as written. It comes back as an import of
one record (:func:`kept_page`): one transaction, one undo step, a line in the import history,
and the import's rules give it its people, citation key, search words and match keys — and
find it again, merging into it, if the library holds the paper in another form by then. Its
reading status and stars come back with it; its files were deleted with it and do not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from refman.common.errors import RefmanError
from refman.core.importing.values import SourcedPage
from refman.core.paper_state import BIB_FIELDS
from refman.core.rules import FieldEdits
from refman.core.values import PaperDetail
from refman.importers import ParsedPage, ParsedRecord
from refman.importers.records import PageFormat
from refman.importers.titles import shorten

#: How the import history names where a paper kept came from.
KEPT_SOURCE = "Kept after it was deleted elsewhere"


def kept_record(
    detail: PaperDetail, notes: Sequence[str], typed: Mapping[str, str] | None = None
) -> ParsedRecord:
    """The paper as it was last shown, with ``notes`` (the notes as written; empty ones are
    left out) in place of the notes it had, and the fields ``typed`` (text by field name, as
    typed in the window; a value its field's rule refuses is left out)."""
    record = ParsedRecord(
        title=detail.title,
        title_provisional=detail.title_provisional,
        abstract=detail.abstract,
        year=detail.year,
        venue=detail.venue,
        subjects=detail.subjects,
        authors=detail.authors,
        authors_complete=detail.authors_complete,
        type=detail.type,
        citekey=detail.citekey,
        aliases=detail.aliases,
        author_names=detail.author_names,
        extra=dict(detail.extra),
        tags=tuple(tag.name for tag in detail.tags),
        notes=tuple(text for text in notes if text.strip()),
        attributed_to=detail.attributed_to,
        status=None if detail.status == "unread" else detail.status,
        rating=detail.rating or None,
        **{name: getattr(detail, name) for name in BIB_FIELDS},
    )
    changed: dict[str, object] = {}
    for name, text in (typed or {}).items():
        try:
            changed.update(FieldEdits.typed(name, text).items())
        except (RefmanError, TypeError):  # refused, or no field of a record
            continue
    if "title" in changed:
        changed["title_provisional"] = False
    return replace(record, **changed)  # type: ignore[arg-type]


def kept_page(
    detail: PaperDetail, notes: Sequence[str], typed: Mapping[str, str] | None = None
) -> SourcedPage:
    """A page of the one paper to import again (see :func:`kept_record`)."""
    record = kept_record(detail, notes, typed)
    page = ParsedPage(owner="", format=PageFormat.KEPT, claimed=None, records=[record])
    return SourcedPage(page, f"{KEPT_SOURCE}: “{shorten(detail.title, 60)}”")
