"""What an import does, page by page, in the words the wizard shows.

The review page counts records by their planned status; the result page counts papers. Both
tell apart a paper already in the library from a paper that is only repeated within this import
(found on an earlier page, or earlier on the same page), so that an import into an empty library
never reports anything as "already in library".

The result page's per-page lines and its headline come from one source: :func:`paper_identities`
follows each record of the plan to the paper it becomes (exactly as the library service does:
a repeat joins the paper of the record it repeats, a possible duplicate joins its look-alike
unless kept separate), and the headline's totals are checked against the service's ids.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from refman.common.text import normalize_for_match
from refman.core.import_values import (
    ImportChoices,
    ImportPlan,
    ImportResult,
    PageReport,
    RecordPlan,
    RecordRef,
    RecordStatus,
)

#: A paper an import touches: ("new", the record that creates it) or ("library", paper id).
Identity = tuple[str, RecordRef] | tuple[str, int]

_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}


def plural(n: int, word: str) -> str:
    """Return "1 paper" or "3 papers"."""
    return f"{n} {word if n == 1 else word + 's'}"


# -- naming pages ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PageName:
    """How one page of an import is named in texts."""

    owner: str
    source: str

    def phrase(self, others: Sequence[PageName] = ()) -> str:
        """ "Zhuo Jiang's page", or with the source when the owner is unknown or ambiguous."""
        same_owner = sum(1 for o in others if o.owner == self.owner) > 1
        if not self.owner:
            return f"the page “{self.source}”"
        if same_owner:
            return f"{possessive(self.owner)} page “{self.source}”"
        return f"{possessive(self.owner)} page"


def possessive(name: str) -> str:
    """Return "Zhuo Jiang's" (or "James'" for a name ending in s)."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def page_names(pages: Sequence[tuple[str, str]]) -> list[str]:
    """The phrase for each page of an import, from (owner, source) pairs."""
    names = [PageName(owner or "", source) for owner, source in pages]
    return [n.phrase(names) for n in names]


def elsewhere_text(count: int, origins: set[int], names: Sequence[str]) -> str:
    """ "1 also on Zhuo Jiang's page" or "3 also on other pages of this import"."""
    if len(origins) == 1:
        return f"{count} also on {names[next(iter(origins))]}"
    return f"{count} also on other pages of this import"


# -- the review page: records by status -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlanCounts:
    """The records of one page by what importing them does.

    Attributes:
        new: Records that become new papers.
        library: Records of papers already in the library.
        elsewhere: Records of papers that an earlier page of this import also lists.
        elsewhere_pages: The pages those earlier records are on.
        twice: Records that repeat an earlier record of the same page.
        possible_duplicates: Records near-identical to another paper.
    """

    new: int
    library: int
    elsewhere: int
    elsewhere_pages: frozenset[int]
    twice: int
    possible_duplicates: int


def plan_counts(plan: ImportPlan, page: int) -> PlanCounts:
    """Count one page's records of a plan."""
    mine = [p for p in plan.records if p.ref[0] == page]
    repeats = [p for p in mine if p.status is RecordStatus.REPEAT and p.target_ref is not None]
    elsewhere = [p for p in repeats if p.target_ref and p.target_ref[0] != page]
    return PlanCounts(
        new=sum(p.status is RecordStatus.NEW for p in mine),
        library=sum(p.status is RecordStatus.MERGE for p in mine),
        elsewhere=len(elsewhere),
        elsewhere_pages=frozenset(p.target_ref[0] for p in elsewhere if p.target_ref),
        twice=len(repeats) - len(elsewhere),
        possible_duplicates=sum(p.status is RecordStatus.POSSIBLE_DUPLICATE for p in mine),
    )


def plan_page_summary(plan: ImportPlan, page: int) -> str:
    """One line about a page to review: owner, source, records and what they will do."""
    info = plan.pages[page]
    names = page_names([(p.owner, p.source) for p in plan.pages])
    counts = plan_counts(plan, page)
    said = f" (the page says {info.claimed})" if info.claimed is not None else ""
    parts = [f"{counts.new} new"]
    if counts.elsewhere:
        parts.append(elsewhere_text(counts.elsewhere, set(counts.elsewhere_pages), names))
    if counts.twice:
        parts.append(f"{counts.twice} repeated on this page")
    if counts.library:
        parts.append(f"{counts.library} already in library")
    if counts.possible_duplicates:
        parts.append(plural(counts.possible_duplicates, "possible duplicate"))
    owner = info.owner or "Unknown owner"
    return f"{owner} — {info.source}: {plural(info.parsed, 'record')}{said}; {', '.join(parts)}"


def repeat_text(plan: ImportPlan | None, record: RecordPlan, row: int | None) -> str:
    """The Status text of a record that repeats an earlier record of this import."""
    target = record.target_ref
    if plan is None or target is None or target[0] == record.ref[0]:
        return f"Same paper as row {row + 1}" if row is not None else "Same paper as above"
    name = page_names([(p.owner, p.source) for p in plan.pages])[target[0]]
    return f"Also on {name} (row {row + 1})" if row is not None else f"Also on {name}"


# -- similarity --------------------------------------------------------------------------------


def likeness_text(record: RecordPlan) -> str:
    """How alike a possible duplicate is to its look-alike, for its tooltip.

    The percentage is rounded down: a pair that is not identical never shows as 100%. A pair
    at exactly 100% (the compared texts are equal once normalized) is told apart by what is the
    same: the title, or else the abstract.
    """
    if record.similarity is None:
        return ""
    percent = math.floor(record.similarity)
    if percent < 100:
        return f"{percent}% alike"
    title = normalize_for_match(record.record.title) if not record.record.title_provisional else ""
    if title and title == normalize_for_match(record.target_title or ""):
        return "100% alike: the same title, a different abstract"
    return "100% alike: the same abstract, a different title"


# -- the result page: papers per page ---------------------------------------------------------


def paper_identities(plan: ImportPlan, choices: ImportChoices) -> dict[RecordRef, Identity]:
    """The paper each imported record becomes or joins (skipped records are left out).

    This follows the library service's rules: a new record makes a paper; a merge joins its
    library paper; a repeat joins the paper of the record it repeats (a new paper when that
    record was skipped); a possible duplicate joins its look-alike unless the user keeps it
    separate.
    """
    found: dict[RecordRef, Identity] = {}
    for p in plan.records:
        if p.ref in choices.skip:
            continue
        ident: Identity | None = None
        if p.status is RecordStatus.MERGE and p.target_id is not None:
            ident = ("library", p.target_id)
        elif p.status is RecordStatus.REPEAT and p.target_ref is not None:
            ident = found.get(p.target_ref)
        elif p.status is RecordStatus.POSSIBLE_DUPLICATE:
            kept = choices.keep_all_separate or p.ref in choices.keep_separate
            if not kept and p.target_id is not None:
                ident = ("library", p.target_id)
            elif not kept and p.target_ref is not None:
                ident = found.get(p.target_ref)
        found[p.ref] = ident if ident is not None else ("new", p.ref)
    return found


@dataclass(frozen=True, slots=True)
class PageOutcome:
    """The papers one page of a finished import touched.

    Attributes:
        new: New papers this page added.
        elsewhere: New papers of this import that an earlier page added (this page adds to them).
        elsewhere_pages: The pages that added them.
        library: Papers that were already in the library.
        skipped: Records the user unchecked.
        duplicates_merged: Possible duplicates merged with their look-alike.
        duplicates_kept: Possible duplicates kept as papers of their own.
    """

    new: int
    elsewhere: int
    elsewhere_pages: frozenset[int]
    library: int
    skipped: int
    duplicates_merged: int
    duplicates_kept: int


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    """A finished import in the wizard's words: per-page lines and a headline that agree."""

    pages: tuple[PageOutcome, ...]
    names: tuple[str, ...]
    reports: tuple[PageReport, ...]
    new: int
    new_on_pages: Counter[int]  # new papers by how many pages list them (2 or more)
    library: int
    library_on_pages: Counter[int]
    updated: int
    skipped: int

    def headline(self) -> str:
        """E.g. "20 new papers (2 of them on two pages), 0 already in library"."""
        text = plural(self.new, "new paper")
        several = _several_pages(self.new_on_pages, self.new)
        if several:
            text += f" ({several})"
        text += f", {self.library} already in library"
        notes = []
        if self.library:
            if self.updated == self.library:
                notes.append("updated" if self.library == 1 else "all updated")
            elif self.updated == 0:
                notes.append("nothing new about " + ("it" if self.library == 1 else "them"))
            else:
                unchanged = self.library - self.updated
                notes.append(f"{self.updated} updated, {unchanged} had nothing new")
            several = _several_pages(self.library_on_pages, self.library)
            if several:
                notes.append(several)
        if notes:
            text += f" ({'; '.join(notes)})"
        if self.skipped:
            text += f", {plural(self.skipped, 'record')} skipped"
        return text

    def page_line(self, index: int) -> str:
        """One line about one page, counting its papers as the headline does."""
        report, page = self.reports[index], self.pages[index]
        parts = [f"{page.new} new"]
        if page.elsewhere:
            parts.append(elsewhere_text(page.elsewhere, set(page.elsewhere_pages), self.names))
        if page.library:
            parts.append(f"{page.library} already in library")
        if page.skipped:
            parts.append(f"{page.skipped} skipped")
        notes = []
        if page.duplicates_merged:
            notes.append(f"{plural(page.duplicates_merged, 'possible duplicate')} merged")
        if page.duplicates_kept:
            notes.append(f"{plural(page.duplicates_kept, 'possible duplicate')} kept separate")
        note = f" ({'; '.join(notes)})" if notes else ""
        owner = report.owner or "Unknown owner"
        return f"{owner} — {report.source}: {', '.join(parts)}{note}"


def _several_pages(on_pages: Counter[int], whole: int) -> str:
    """ "2 of them on two pages" for papers that more than one page lists (else "").

    Args:
        on_pages: How many papers each number of pages (2 or more) lists.
        whole: How many papers there are in all.
    """
    total = sum(on_pages.values())
    if not total:
        return ""
    if len(on_pages) == 1:
        [count] = on_pages
        where = f"on {_NUMBER_WORDS.get(count, str(count))} pages"
    else:
        where = "on more than one page"
    if total == whole:
        return where if whole == 1 else f"all {where}"
    return f"{total} of them {where}"


def import_outcome(
    plan: ImportPlan, choices: ImportChoices, result: ImportResult
) -> ImportOutcome | None:
    """Describe a finished import page by page.

    Args:
        plan: The plan the user reviewed (the import itself planned the same).
        choices: The user's choices.
        result: What the library service did.

    Returns:
        The outcome, or None when the plan does not fit the result (the library changed in
        between), so that the caller falls back to the service's own counts.
    """
    if len(plan.pages) != len(result.pages):
        return None
    found = paper_identities(plan, choices)
    pages_of: dict[Identity, set[int]] = {}
    for ref, ident in found.items():
        pages_of.setdefault(ident, set()).add(ref[0])
    new_idents = [i for i in pages_of if i[0] == "new"]
    library_idents = [i for i in pages_of if i[0] == "library"]
    found_again = len(result.merged_ids) + len(result.unchanged_ids)
    if len(new_idents) != len(result.new_ids) or len(library_idents) != found_again:
        return None
    outcomes = []
    for pi, report in enumerate(result.pages):
        mine = {found[p.ref] for p in plan.records if p.ref[0] == pi and p.ref in found}
        here = [i for i in mine if i[0] == "new" and _origin(i) == pi]
        elsewhere = [i for i in mine if i[0] == "new" and _origin(i) != pi]
        dups = [
            p
            for p in plan.records
            if p.ref[0] == pi and p.status is RecordStatus.POSSIBLE_DUPLICATE and p.ref in found
        ]
        kept = sum(1 for p in dups if choices.keep_all_separate or p.ref in choices.keep_separate)
        outcomes.append(
            PageOutcome(
                new=len(here),
                elsewhere=len(elsewhere),
                elsewhere_pages=frozenset(_origin(i) for i in elsewhere),
                library=sum(1 for i in mine if i[0] == "library"),
                skipped=report.skipped,
                duplicates_merged=len(dups) - kept,
                duplicates_kept=kept,
            )
        )
    if sum(o.new for o in outcomes) != len(result.new_ids):
        return None
    return ImportOutcome(
        pages=tuple(outcomes),
        names=tuple(page_names([(r.owner, r.source) for r in result.pages])),
        reports=result.pages,
        new=len(result.new_ids),
        new_on_pages=Counter(len(pages_of[i]) for i in new_idents if len(pages_of[i]) > 1),
        library=len(library_idents),
        library_on_pages=Counter(len(pages_of[i]) for i in library_idents if len(pages_of[i]) > 1),
        updated=len(result.merged_ids),
        skipped=result.skipped,
    )


def _origin(ident: Identity) -> int:
    """The page of the record that creates a new paper."""
    ref = ident[1]
    assert isinstance(ref, tuple)
    return ref[0]


# -- without a plan ---------------------------------------------------------------------------


def fallback_headline(result: ImportResult) -> str:
    """The headline from the service's totals alone."""
    library = len(result.merged_ids) + len(result.unchanged_ids)
    text = f"{plural(len(result.new_ids), 'new paper')}, {library} already in library"
    if result.merged_ids:
        text += f" ({len(result.merged_ids)} updated)"
    if result.skipped:
        text += f", {plural(result.skipped, 'record')} skipped"
    return text


def fallback_page_line(report: PageReport) -> str:
    """One line about a page from the service's counts alone."""
    owner = report.owner or "Unknown owner"
    line = f"{owner} — {report.source}: {report.new} new"
    library = report.merged + report.unchanged
    if library:
        line += f", {library} already in library"
    if report.repeats:
        line += f", {report.repeats} also on another page of this import"
    if report.skipped:
        line += f", {report.skipped} skipped"
    return line
