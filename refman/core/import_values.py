"""Values of an import: the plan shown for review, the user's choices, and the result."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from refman.importers.records import ParsedPage, ParsedRecord

#: (page index, record index) of a record within one import.
RecordRef = tuple[int, int]


class RecordStatus(enum.StrEnum):
    """What importing a record would do."""

    NEW = "new"
    MERGE = "merge"  # the paper is already in the library; the record adds to it
    POSSIBLE_DUPLICATE = "possible-duplicate"  # near-identical to a paper: merge or keep apart
    REPEAT = "repeat"  # the same paper appeared earlier in this import; merged with it


@dataclass(frozen=True, slots=True)
class SourcedPage:
    """A parsed page and where it came from (a file name, or "pasted text")."""

    page: ParsedPage
    source: str = "pasted text"


@dataclass(frozen=True, slots=True)
class RecordPlan:
    """The decision for one record.

    Attributes:
        ref: (page index, record index).
        record: The parsed record.
        status: What importing it does.
        target_id: The library paper it merges into or resembles (MERGE, POSSIBLE_DUPLICATE).
        target_title: That paper's title, for display.
        target_ref: For REPEAT, the earlier record of this import it repeats.
        adds: Plain phrases of what a merge adds ("attribution to Liang Xiang", "3 authors").
        similarity: Fuzzy similarity (0–100) for POSSIBLE_DUPLICATE.
        target_in_trash: The library paper a MERGE goes into is in the Trash (it stays there).
    """

    ref: RecordRef
    record: ParsedRecord
    status: RecordStatus
    target_id: int | None = None
    target_title: str | None = None
    target_ref: RecordRef | None = None
    adds: tuple[str, ...] = ()
    similarity: float | None = None
    target_in_trash: bool = False

    @property
    def needs_title(self) -> bool:
        """True when the record brings no title and would create a paper."""
        return self.record.title_provisional and self.status is RecordStatus.NEW


@dataclass(frozen=True, slots=True)
class PagePlan:
    """Counts for one page of an import."""

    source: str
    owner: str
    format: str
    claimed: int | None
    parsed: int
    new: int
    merge: int
    possible_duplicates: int
    warnings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """What an import would do, record by record; computed without changing anything."""

    pages: tuple[PagePlan, ...]
    records: tuple[RecordPlan, ...]

    def record(self, ref: RecordRef) -> RecordPlan:
        """The plan of one record."""
        for plan in self.records:
            if plan.ref == ref:
                return plan
        raise KeyError(ref)


@dataclass(frozen=True, slots=True)
class ImportChoices:
    """The user's decisions for an import.

    Attributes:
        skip: Records not to import.
        keep_separate: Possible duplicates to add as papers of their own (the rest merge).
        keep_all_separate: Keep every possible duplicate separate (``--keep-separate``).
        titles: Titles the user typed for records without one (they count as the user's).
        tags: Tags to put on every imported paper.
        subject_tags: Also tag each paper with its arXiv subjects.
        dry_run: Plan and report, but change nothing.
    """

    skip: frozenset[RecordRef] = frozenset()
    keep_separate: frozenset[RecordRef] = frozenset()
    keep_all_separate: bool = False
    titles: dict[RecordRef, str] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    subject_tags: bool = False
    dry_run: bool = False


@dataclass(frozen=True, slots=True)
class PageReport:
    """The outcome for one page."""

    source: str
    owner: str
    format: str
    claimed: int | None
    parsed: int
    new: int
    merged: int  # papers already in the library that this page added something to
    unchanged: int  # papers already in the library, and nothing new about them here
    possible_duplicates: int
    skipped: int
    warnings: tuple[str, ...]
    batch_id: int | None
    repeats: int = 0  # papers this import added from an earlier page, found here again


@dataclass(frozen=True, slots=True)
class ImportResult:
    """The outcome of one import (one transaction over one or more pages)."""

    pages: tuple[PageReport, ...]
    new_ids: tuple[int, ...]
    merged_ids: tuple[int, ...]  # existing papers the import changed
    unchanged_ids: tuple[int, ...]  # existing papers the import found with nothing new
    skipped: int
    batch_ids: tuple[int, ...]
    possible_duplicates: tuple[RecordPlan, ...] = ()

    @property
    def paper_ids(self) -> tuple[int, ...]:
        """Every paper this import added or changed."""
        return self.new_ids + self.merged_ids
