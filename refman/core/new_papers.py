"""A paper added by hand: a book on the shelf, a paper a colleague mentioned, a report no
page lists.

The person types its title (the one field it cannot go without), its authors as one line
("Ann Smith, Bob Jones and Carol White"; "et al." when the list is longer) and any of the
fields ``refman edit`` sets. It is added as an import of one record (:func:`typed_page`): one
transaction, one undo step, a line in the import history, and the import's rules give it its
people, citation key, search words and match keys — and when the library holds the paper
already (the same DOI, arXiv id or title), it is merged into that paper, filling in what it
lacked, instead of becoming a duplicate. Every value is checked by the rule an edit of the
field would meet, before anything changes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace

from refman.common.errors import InvalidValueError
from refman.core.importing.values import ImportResult, SourcedPage
from refman.core.rules import FieldEdits, clean_tag_names, clean_title, typed_text
from refman.importers import ParsedPage, ParsedRecord
from refman.importers.records import PageFormat
from refman.importers.titles import shorten
from refman.importers.typed_names import typed_authors

__all__ = [
    "TYPED_SOURCE",
    "TYPED_TYPE",
    "Added",
    "TypedValueError",
    "typed_page",
    "typed_record",
]

#: How the import history names where a paper added by hand came from.
TYPED_SOURCE = "Added by hand"
#: The type of a paper added by hand when none is given (the form's and ``refman add``'s).
TYPED_TYPE = "article-journal"


class TypedValueError(InvalidValueError):
    """A value typed for a paper by hand that breaks its field's rule.

    Attributes:
        field: The field: ``title``, ``authors``, ``tags`` or a field of
            :class:`~refman.core.rules.FieldEdits` (``year``, ``doi``, …), so that a form can
            put the cursor where the mistake is.
    """

    def __init__(self, field: str, error: InvalidValueError) -> None:
        super().__init__(error.message, error.hint, error.window_hint)
        self.field = field


def typed_record(
    title: str,
    authors: str = "",
    fields: Mapping[str, str] | None = None,
    tags: Sequence[str] = (),
) -> ParsedRecord:
    """The record of a paper added by hand.

    Args:
        title: Its title.
        authors: Its authors as one line (:func:`~refman.importers.typed_names.typed_authors`).
        fields: Text by field name (``year``, ``venue``, ``doi``, ``arxiv_id``, ``type``, …:
            the fields of :class:`~refman.core.rules.FieldEdits`); empty text is no value.
        tags: Tags to give it.

    Raises:
        TypedValueError: The title is empty, the authors do not read as names, a field's
            text breaks its rule (a year "MMXX", a DOI that is none) or a tag name is empty;
            its ``field`` says which.
    """
    with _field("title"):
        cleaned = clean_title(typed_text(title))
    with _field("authors"):
        people, complete = typed_authors(typed_text(authors))
    with _field("tags"):
        tag_names = clean_tag_names(tags)
    record = ParsedRecord(
        title=cleaned,
        title_provisional=False,
        abstract="",
        authors=tuple(person.display for person in people),
        authors_complete=complete,
        author_names=people,
        tags=tag_names,
        type=TYPED_TYPE,
    )
    values: dict[str, object] = {}
    for name, text in (fields or {}).items():
        if text.strip():
            with _field(name):
                values.update(FieldEdits.typed(name, typed_text(text).strip()).items())
    values.pop("title", None)
    return replace(record, **values)  # type: ignore[arg-type]


@contextmanager
def _field(name: str) -> Iterator[None]:
    """Say which field a value breaking its rule was typed in (:class:`TypedValueError`)."""
    try:
        yield
    except InvalidValueError as error:
        raise TypedValueError(name, error) from None


def typed_page(record: ParsedRecord) -> SourcedPage:
    """A page of the one paper added by hand, to import."""
    page = ParsedPage(owner="", format=PageFormat.TYPED, claimed=None, records=[record])
    return SourcedPage(page, f"{TYPED_SOURCE}: “{shorten(record.title, 60)}”")


@dataclass(frozen=True, slots=True)
class Added:
    """What adding a paper by hand did.

    Attributes:
        paper_id: The paper: new, or the one of the library it was found to be.
        title: The title typed.
        created: A new paper was made.
        updated: The paper of the library gained something from what was typed.
        resembles: A paper of the library the new one may be (id, title): it is marked as a
            possible duplicate (*Needs attention*).
        in_trash: The paper of the library it was found to be is in the Trash (it stays
            there, as with any import).
    """

    paper_id: int
    title: str
    created: bool
    updated: bool = False
    resembles: tuple[int, str] | None = None
    in_trash: bool = False

    @classmethod
    def of(cls, record: ParsedRecord, result: ImportResult) -> Added:
        """What the import of :func:`typed_page` did."""
        [outcome] = result.records
        assert outcome.paper_id is not None  # (a record added by hand is never left out)
        like = next(iter(result.possible_duplicates), None)
        resembles = None
        if outcome.created and like is not None and like.target_id is not None:
            resembles = (like.target_id, like.target_title or "")
        return cls(
            outcome.paper_id,
            record.title,
            outcome.created,
            outcome.updated,
            resembles,
            outcome.in_trash,
        )

    def text(self) -> str:
        """What it did, in a sentence ("Added #21 “The Art of Computer Programming”.")."""
        title = f"“{shorten(self.title, 60)}”"
        if not self.created:
            did = "added what it lacked" if self.updated else "nothing new to add"
            if self.in_trash:
                return (
                    f"{title} is in the Trash, as #{self.paper_id}: {did}. Restore it from the "
                    "Trash to see it in the list again."
                )
            return f"{title} is in the library already, as #{self.paper_id}: {did}."
        if self.resembles is None:
            return f"Added #{self.paper_id} {title}."
        like, like_title = self.resembles
        return (
            f"Added #{self.paper_id} {title}. It may be #{like} “{shorten(like_title, 60)}”: "
            "it is in Needs attention, to merge or keep apart."
        )
