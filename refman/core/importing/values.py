"""Values of an import: the plan shown for review, the user's choices, and the result."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime

from refman.importers.records import ParsedPage, ParsedRecord

#: A batch's record of a paper already in the library that its page listed as it was: no
#: change to undo, but a revert of an earlier import knows a later page still lists it.
FOUND = "found"

#: (page index, record index) of a record within one import.
RecordRef = tuple[int, int]


class RecordStatus(enum.StrEnum):
    """What importing a record would do."""

    NEW = "new"
    MERGE = "merge"  # the paper is already in the library; the record adds to it
    POSSIBLE_DUPLICATE = "possible-duplicate"  # near-identical to a paper: merge or keep apart
    REPEAT = "repeat"  # the same paper appeared earlier in this import; merged with it


class RecordAction(enum.StrEnum):
    """What importing a record did."""

    NEW = "new"  # it became a new paper
    MERGED = "merged"  # it joined a paper that was in the library before
    REPEAT = "repeat"  # it joined a paper an earlier record of this import brought
    POSSIBLE_DUPLICATE = "possible-duplicate"  # near-identical: merged, or kept as a new paper
    SKIPPED = "skipped"  # the user left it out


@dataclass(frozen=True, slots=True)
class RecordOutcome:
    """What happened to one record of an import.

    Attributes:
        ref: (page index, record index).
        action: What the import did with it.
        paper_id: The paper it became or joined; None when skipped.
        created: The record made the paper (new, or a possible duplicate kept separate).
        in_library: The paper was in the library before this import.
        updated: For a paper in the library: the record added something to it.
        in_trash: The paper it joined is in the Trash (it stays there).
    """

    ref: RecordRef
    action: RecordAction
    paper_id: int | None = None
    created: bool = False
    in_library: bool = False
    updated: bool = False
    in_trash: bool = False


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
        cut_short: For POSSIBLE_DUPLICATE, one abstract is the start of the other (a page
            that lists only the first paragraph or lines; similarity 100), not 95% alike.
        apart: For POSSIBLE_DUPLICATE, the titles differ by a word that is no spelling of
            the other's ("with" / "without", "legal" / "medical") and no abstract makes them
            one: it becomes a paper of its own (marked as a possible duplicate) unless the
            person merges it (:attr:`ImportChoices.merge`).
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
    cut_short: bool = False
    apart: bool = False

    @property
    def needs_title(self) -> bool:
        """True when the record brings no title and would create a paper."""
        return self.record.title_provisional and self.status is RecordStatus.NEW


@dataclass(frozen=True, slots=True)
class SinceLast:
    """What a page brings compared with the last import of its owner's page.

    Attributes:
        date: When the owner's page was last imported.
        new: Papers new to the library.
        titled: Papers in the library that now get their real title (they had a suggested one).
        updated: Other papers in the library the page adds something to.
        unchanged: Papers in the library the page brings nothing new about.
    """

    date: datetime
    new: int = 0
    titled: int = 0
    updated: int = 0
    unchanged: int = 0


@dataclass(frozen=True, slots=True)
class PagePlan:
    """Counts for one page of an import (``since_last`` when its owner's page was imported
    before)."""

    source: str
    owner: str
    format: str
    claimed: int | None
    parsed: int
    new: int
    merge: int
    possible_duplicates: int
    warnings: tuple[str, ...]
    since_last: SinceLast | None = None


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """What an import would do, record by record; computed without changing anything."""

    pages: tuple[PagePlan, ...]
    records: tuple[RecordPlan, ...]

    def papers_changed(self) -> int:
        """How many records add a paper or add to one already in the library."""
        return sum(p.status is not RecordStatus.REPEAT for p in self.records)

    def review_order(self) -> tuple[RecordPlan, ...]:
        """The records as a review lists them: page by page, and on a page imported before
        (``since_last``) the papers new to the library first."""
        if not any(page.since_last for page in self.pages):
            return self.records
        fresh = (RecordStatus.NEW, RecordStatus.POSSIBLE_DUPLICATE)

        def place(plan: RecordPlan) -> tuple[int, bool]:
            again = self.pages[plan.ref[0]].since_last is not None
            return plan.ref[0], again and plan.status not in fresh

        return tuple(sorted(self.records, key=place))  # stable: page order kept within

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
        keep_separate: Possible duplicates to add as papers of their own (the rest merge,
            but for those worded apart: see :meth:`kept_apart`).
        merge: Possible duplicates worded apart (:attr:`RecordPlan.apart`) to merge all the
            same.
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
    merge: frozenset[RecordRef] = frozenset()

    def kept_apart(self, plan: RecordPlan) -> bool:
        """Whether a possible duplicate becomes a paper of its own: when the person says so,
        or when its title is worded apart from its look-alike's and the person did not say to
        merge it."""
        if self.keep_all_separate or plan.ref in self.keep_separate:
            return True
        return plan.apart and plan.ref not in self.merge


@dataclass(frozen=True, slots=True)
class PageReport:
    """The outcome for one page: where it came from and what each of its records did.

    The counts are of papers, not records: a paper listed twice on a page counts once.
    """

    source: str
    owner: str
    format: str
    claimed: int | None
    parsed: int
    warnings: tuple[str, ...]
    batch_id: int | None
    records: tuple[RecordOutcome, ...] = ()
    since_last: SinceLast | None = None

    def _papers(self, *, in_library: bool, updated: bool | None = None) -> int:
        found = {
            r.paper_id
            for r in self.records
            if r.paper_id is not None
            and r.in_library == in_library
            and (updated is None or r.updated == updated)
        }
        if updated is False:  # a paper another record of this page updated is not unchanged
            found -= {r.paper_id for r in self.records if r.in_library and r.updated}
        return len(found)

    @property
    def new(self) -> int:
        """New papers this page's records made."""
        return sum(1 for r in self.records if r.created)

    @property
    def merged(self) -> int:
        """Papers already in the library that this page added something to."""
        return self._papers(in_library=True, updated=True)

    @property
    def unchanged(self) -> int:
        """Papers already in the library that this page brought nothing new about."""
        return self._papers(in_library=True, updated=False)

    @property
    def repeats(self) -> int:
        """Papers this import made from an earlier record that this page lists again."""
        made_here = {r.paper_id for r in self.records if r.created}
        return len(
            {
                r.paper_id
                for r in self.records
                if r.paper_id is not None
                and not r.in_library
                and not r.created
                and r.paper_id not in made_here
            }
        )

    @property
    def repeated(self) -> int:
        """Records that list again a paper an earlier record of this import brought."""
        return sum(1 for r in self.records if r.action is RecordAction.REPEAT)

    @property
    def possible_duplicates(self) -> int:
        """Records near-identical to another paper."""
        return sum(1 for r in self.records if r.action is RecordAction.POSSIBLE_DUPLICATE)

    @property
    def skipped(self) -> int:
        """Records the user left out."""
        return sum(1 for r in self.records if r.action is RecordAction.SKIPPED)


@dataclass(frozen=True, slots=True)
class ImportResult:
    """The outcome of one import (one transaction over one or more pages).

    Attributes:
        pages: Per page: where it came from and what each record did.
        new_ids: Papers the import made.
        merged_ids: Papers that were in the library and that the import changed.
        unchanged_ids: Papers that were in the library and that the import found unchanged.
        batch_ids: The import's batches (empty when nothing changed, or in a dry run).
        possible_duplicates: The plans of the records near-identical to another paper.
        dry_run: Nothing was written.
        renamed: The people it named by a better spelling the pages gave (Jose Garcia ->
            José García): their name before and after, by the name before.
    """

    pages: tuple[PageReport, ...]
    new_ids: tuple[int, ...]
    merged_ids: tuple[int, ...]
    unchanged_ids: tuple[int, ...]
    batch_ids: tuple[int, ...]
    possible_duplicates: tuple[RecordPlan, ...] = ()
    dry_run: bool = False
    renamed: tuple[tuple[str, str], ...] = ()

    @property
    def records(self) -> tuple[RecordOutcome, ...]:
        """What happened to every record, page after page."""
        return tuple(r for page in self.pages for r in page.records)

    @property
    def skipped(self) -> int:
        """Records the user left out."""
        return sum(page.skipped for page in self.pages)

    @property
    def paper_ids(self) -> tuple[int, ...]:
        """Every paper this import added or changed."""
        return self.new_ids + self.merged_ids
