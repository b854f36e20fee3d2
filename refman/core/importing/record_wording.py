"""Each record of an import, what it was read as and what the import did with it: one line
for the command line's ``refman import --dry-run`` (the wizard's review shows the same as a
table), and the facts ``refman import --json`` gives per record.
"""

from __future__ import annotations

from dataclasses import dataclass

from refman.core.contributors import editor_names
from refman.core.importing.values import RecordAction, RecordOutcome, SourcedPage
from refman.core.merge import author_line
from refman.core.publication_status import publication_status, year_text
from refman.importers.records import ParsedRecord
from refman.importers.titles import shorten

__all__ = ["RecordRead", "record_line", "records_read"]

#: How long a title may be in a record's line before it is shortened.
_TITLE_WIDTH = 90


@dataclass(frozen=True, slots=True)
class RecordRead:
    """One record of an imported file and what the import did with it.

    Attributes:
        record: The record as the file was read.
        outcome: What the import did with it.
        paper_id: The paper it became or joined; None for a paper a dry run would make
            (its number is given only when it is made).
    """

    record: ParsedRecord
    outcome: RecordOutcome
    paper_id: int | None

    @property
    def year(self) -> str:
        """The record's year, or its publication status ("in press"), or ""."""
        return year_text(self.record.year, publication_status(self.record.extra))


def records_read(
    page: SourcedPage, outcomes: tuple[RecordOutcome, ...], *, dry_run: bool
) -> list[RecordRead]:
    """The records of ``page`` with what the import did with each, in the page's order."""
    records = page.page.records
    return [
        RecordRead(
            records[o.ref[1]],
            o,
            None if dry_run and not o.in_library else o.paper_id,
        )
        for o in outcomes
    ]


def record_line(read: RecordRead) -> str:
    """A record in one line: what the import does with it, its title, its authors, year and
    venue.

    Example:
        ``    new: “Sediment transport in fjords” — N. Okafor et al., 2019, Mar Geol``
    """
    record = read.record
    editors = editor_names(record.extra)
    about = [author_line(list(record.authors), record.authors_complete, editors), read.year]
    about.append(record.venue or "")
    tail = ", ".join(part for part in about if part)
    title = shorten(record.title, _TITLE_WIDTH) if record.title else "(no title)"
    return f"    {_what(read)}: “{title}”" + (f" — {tail}" if tail else "")


def _what(read: RecordRead) -> str:
    """What the import does with a record, in a few words."""
    outcome = read.outcome
    paper = f"#{read.paper_id}" if read.paper_id is not None else "a paper"
    trash = " (in the Trash)" if outcome.in_trash else ""
    if outcome.action is RecordAction.SKIPPED:
        return "left out"
    if outcome.created:
        if outcome.action is RecordAction.POSSIBLE_DUPLICATE:
            return "new (a possible duplicate, kept separate)"
        return "new"
    if not outcome.in_library:
        return "same paper as an earlier record"
    if outcome.action is RecordAction.POSSIBLE_DUPLICATE:
        return f"possible duplicate, merged into {paper}{trash}"
    if outcome.updated:
        return f"adds to {paper}{trash}"
    return f"already in the library as {paper}{trash}, nothing new"
