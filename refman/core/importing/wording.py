"""An import in words: what it will do (the review) and what it did (the report).

The wizard and the command line both word imports here, from the plan and from the record
outcomes the service returns; nothing works out again what the service decided. A paper two
pages of an import list is new on the first page and "also on" that page on the second, and
counts once in a headline.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from datetime import datetime

from refman.common.text import join_words, normalize_for_match, plural
from refman.core.importing.values import (
    ImportPlan,
    ImportResult,
    PageReport,
    RecordAction,
    RecordPlan,
    RecordStatus,
    SinceLast,
)

_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}
UNKNOWN_OWNER = "Unknown owner"
#: What a file that has no owner is, by its format (an author page is named by its owner).
SOURCE_KINDS = {
    "bibtex": "BibTeX bibliography",
    "ris": "RIS bibliography",
    "csl-json": "CSL-JSON bibliography",
    "zotero": "Zotero library",
    "mendeley": "Mendeley library",
    "pdf": "the paper's PDF",
    "kept": "a paper kept",
    "typed": "a paper added by hand",
}


# -- naming pages -----------------------------------------------------------------------------


def possessive(name: str) -> str:
    """ "Zhuo Jiang's" (or "James'" for a name ending in s)."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def page_names(pages: Sequence[tuple[str, str]]) -> list[str]:
    """The phrase for each page of an import, from (owner, source) pairs.

    "Zhuo Jiang's page"; with the source when the owner is unknown or owns several pages.
    """
    owners = Counter(owner for owner, _ in pages)
    names = []
    for owner, source in pages:
        if not owner:
            names.append(f"the page “{source}”")
        elif owners[owner] > 1:
            names.append(f"{possessive(owner)} page “{source}”")
        else:
            names.append(f"{possessive(owner)} page")
    return names


def page_label(owner: str, source: str, format: str) -> str:
    """ "Zhuo Jiang — zhuo.txt" for an author page; a bibliography (or a PDF), which has no
    owner, by its file and kind: "small.bib (BibTeX bibliography)"."""
    if not owner and format in SOURCE_KINDS:
        return f"{source} ({SOURCE_KINDS[format]})"
    return f"{owner or UNKNOWN_OWNER} — {source}"


def elsewhere_text(count: int, origins: set[int], names: Sequence[str]) -> str:
    """ "1 also on Zhuo Jiang's page" or "3 also on other pages of this import"."""
    if len(origins) == 1:
        return f"{count} also on {names[next(iter(origins))]}"
    return f"{count} also on other pages of this import"


# -- since the last import of a page ---------------------------------------------------------


def day_text(when: datetime) -> str:
    """ "12 March 2026": a day in words (the same in every locale)."""
    months = (
        "January February March April May June July August September October November December"
    ).split()
    return f"{when.day} {months[when.month - 1]} {when.year}"


def since_last_text(since: SinceLast) -> str:
    """ "3 new papers since 12 March 2026; 1 now has its real title; 12 unchanged"."""
    parts = [f"{plural(since.new, 'new paper')} since {day_text(since.date)}"]
    if since.titled:
        has = "now has its real title" if since.titled == 1 else "now have their real titles"
        parts.append(f"{since.titled} {has}")
    if since.updated:
        parts.append(f"{since.updated:,} updated")
    parts.append(f"{since.unchanged} unchanged")
    return "; ".join(parts)


# -- the review: records by planned status ----------------------------------------------------


def _plan_parts(plan: ImportPlan, page: int) -> list[str]:
    """What a page's records will do: "3 new", "1 also on …", "2 already in library", …"""
    mine = [p for p in plan.records if p.ref[0] == page]
    repeats = [p.target_ref for p in mine if p.status is RecordStatus.REPEAT and p.target_ref]
    origins = [ref[0] for ref in repeats if ref[0] != page]
    others = len(origins)
    counts = Counter(p.status for p in mine)
    parts = [f"{counts[RecordStatus.NEW]:,} new"]
    if others:
        names = page_names([(p.owner, p.source) for p in plan.pages])
        parts.append(elsewhere_text(others, set(origins), names))
    if len(repeats) > others:
        parts.append(f"{len(repeats) - others:,} repeated on this page")
    if counts[RecordStatus.MERGE]:
        parts.append(f"{counts[RecordStatus.MERGE]:,} already in library")
    if counts[RecordStatus.POSSIBLE_DUPLICATE]:
        parts.append(plural(counts[RecordStatus.POSSIBLE_DUPLICATE], "possible duplicate"))
    return parts


def plan_page_summary(plan: ImportPlan, page: int) -> str:
    """One line about a page to review: owner, source, records and what they will do."""
    info = plan.pages[page]
    said = f" (the page says {info.claimed})" if info.claimed is not None else ""
    label = page_label(info.owner, info.source, info.format)
    parts = ", ".join(_plan_parts(plan, page))
    return f"{label}: {plural(info.parsed, 'record')}{said}; {parts}"


def merge_text(record: RecordPlan) -> str:
    """ "Already in library (#7) — will merge: adds …" (or "— nothing new to add") for a
    record to merge; with the title of the library's paper when it is not the record's
    ("Already in library as “…” (#7)"), so that a record taken for another paper stands out."""
    adds = f"will merge: adds {join_words(record.adds)}" if record.adds else "nothing new to add"
    where = "in the Trash" if record.target_in_trash else "in library"
    title = record.target_title or ""
    same = record.record.title_provisional or (
        normalize_for_match(record.record.title) == normalize_for_match(title)
    )
    named = f" as “{title}”" if title and not same else ""
    number = f" (#{record.target_id})" if record.target_id is not None else ""
    return f"Already {where}{named}{number} — {adds}"


def duplicate_text(record: RecordPlan, keep_separate: bool) -> str:
    """The status of a possible duplicate, the user's choice first (so that a narrow column
    cutting the text keeps the choice readable)."""
    choice = "Keep separate" if keep_separate else "Merge"
    return f"{choice} — possible duplicate of “{record.target_title or 'a paper'}”"


def repeat_text(
    plan: ImportPlan | None, record: RecordPlan, row: int | None, title: str = ""
) -> str:
    """The status of a record that repeats an earlier record of this import (``title``: the
    one that record shows, the paper both become)."""
    target = record.target_ref
    into = f" — will merge into “{title}”" if title else ""
    if plan is None or target is None or target[0] == record.ref[0]:
        same = f"Same paper as row {row + 1}" if row is not None else "Same paper as above"
        return same + into
    name = page_names([(p.owner, p.source) for p in plan.pages])[target[0]]
    return (f"Also on {name} (row {row + 1})" if row is not None else f"Also on {name}") + into


def likeness_text(record: RecordPlan) -> str:
    """How alike a possible duplicate is to its look-alike.

    The percentage is rounded down: a pair that is not identical never shows as 100%. A pair
    at exactly 100% (the compared texts are equal once normalized) is told apart by what is
    the same: the title, or else the abstract. A pair whose one abstract is the start of the
    other says so.
    """
    if record.similarity is None:
        return ""
    if record.cut_short:
        return "alike as far as the shorter abstract goes (one is the start of the other)"
    percent = math.floor(record.similarity)
    if percent < 100:
        return f"{percent}% alike"
    title = normalize_for_match(record.record.title) if not record.record.title_provisional else ""
    if title and title == normalize_for_match(record.target_title or ""):
        return "100% alike: the same title, a different abstract"
    return "100% alike: the same abstract, a different title"


# -- the report: papers per page ---------------------------------------------------------------


def _origins(result: ImportResult) -> dict[int, int]:
    """The page whose record made each new paper."""
    return {r.paper_id: r.ref[0] for r in result.records if r.created and r.paper_id is not None}


def _pages_listing(result: ImportResult) -> dict[int, set[int]]:
    """For every paper the import touched, the pages that list it."""
    pages: dict[int, set[int]] = {}
    for r in result.records:
        if r.paper_id is not None:
            pages.setdefault(r.paper_id, set()).add(r.ref[0])
    return pages


def _several_pages(on_pages: Counter[int], whole: int) -> str:
    """ "2 of them on two pages" for papers that more than one page lists (else "")."""
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


def _library_notes(library: int, updated: int) -> str:
    if updated == library:
        return "updated" if library == 1 else "all updated"
    if updated == 0:
        return "nothing new about " + ("it" if library == 1 else "them")
    return f"{updated:,} updated, {library - updated:,} had nothing new"


def result_headline(result: ImportResult) -> str:
    """E.g. "20 new papers (2 of them on two pages), 0 already in library"."""
    listing = _pages_listing(result)
    new = set(result.new_ids)
    library = set(result.merged_ids) | set(result.unchanged_ids)

    def on_pages(ids: set[int]) -> Counter[int]:
        return Counter(len(listing[i]) for i in ids if len(listing.get(i, ())) > 1)

    text = plural(len(new), "new paper")
    several = _several_pages(on_pages(new), len(new))
    if several:
        text += f" ({several})"
    text += f", {len(library):,} already in library"
    if library:
        notes = [_library_notes(len(library), len(result.merged_ids))]
        several = _several_pages(on_pages(library), len(library))
        if several:
            notes.append(several)
        text += f" ({'; '.join(notes)})"
    if result.skipped:
        text += f", {plural(result.skipped, 'record')} skipped"
    return text


def renamed_text(result: ImportResult, shown: int = 3) -> str:
    """ "2 people now spelled as imported: Jose Garcia → José García, Muller, K. → Müller, K."
    ("" when the import named nobody again; the first ``shown``, then "and N more")."""
    if not result.renamed:
        return ""
    names = [f"{was} → {now}" for was, now in result.renamed[:shown]]
    if (more := len(result.renamed) - shown) > 0:
        names.append(f"{more:,} more")
    count = len(result.renamed)
    people = "1 person" if count == 1 else f"{count:,} people"
    return f"{people} now spelled as imported: {join_words(names)}"


def _listed_by(records: int, papers: int) -> str:
    """ " (listed by 3 records)" when more records than papers (a merged paper listed again)."""
    return f" (listed by {records} records)" if records > papers else ""


def _duplicate_notes(report: PageReport) -> str:
    """ " (1 possible duplicate merged; 1 possible duplicate kept separate)", or ""."""
    duplicates = [r for r in report.records if r.action is RecordAction.POSSIBLE_DUPLICATE]
    kept = sum(1 for r in duplicates if r.created)
    notes = []
    if len(duplicates) > kept:
        notes.append(f"{plural(len(duplicates) - kept, 'possible duplicate')} merged")
    if kept:
        notes.append(f"{plural(kept, 'possible duplicate')} kept separate")
    return f" ({'; '.join(notes)})" if notes else ""


def result_page_line(result: ImportResult, index: int) -> str:
    """One line about one page of a finished import, counting papers as the headline does."""
    report = result.pages[index]
    names = page_names([(p.owner, p.source) for p in result.pages])
    origins = _origins(result)
    papers = {r.paper_id for r in report.records if r.paper_id is not None}
    elsewhere = {p for p in papers if origins.get(p, index) != index}
    library = {r.paper_id for r in report.records if r.in_library}
    parts = [f"{report.new:,} new"]
    if elsewhere:
        parts.append(elsewhere_text(len(elsewhere), {origins[p] for p in elsewhere}, names))
    if library:
        listed = sum(1 for r in report.records if r.in_library)
        parts.append(f"{len(library):,} already in library{_listed_by(listed, len(library))}")
    if report.skipped:
        parts.append(f"{report.skipped:,} skipped")
    label = page_label(report.owner, report.source, report.format)
    return f"{label}: {', '.join(parts)}{_duplicate_notes(report)}"


# -- the command line ---------------------------------------------------------------------------


def report_counts(report: PageReport) -> str:
    """ "12 new, 0 merged, 0 possible duplicates", or "0 new, 12 already in library"."""
    dups, merged, already = report.possible_duplicates, report.merged, report.unchanged
    parts = [f"{report.new:,} new"]
    if merged or not already:
        parts.append(f"{merged:,} merged")
    if already:
        updated = {r.paper_id for r in report.records if r.in_library and r.updated}
        listed = sum(1 for r in report.records if r.in_library and r.paper_id not in updated)
        parts.append(f"{already:,} already in library{_listed_by(listed, already)}")
    if dups or not already:
        parts.append(plural(dups, "possible duplicate"))
    if report.repeated:
        parts.append(f"{plural(report.repeated, 'record')} listing a paper again")
    return ", ".join(parts)


def duplicate_line(record: RecordPlan, kept_separate: bool) -> str:
    """A possible duplicate and what became of it, for the command line's report (a paper
    kept separate because its title is worded apart says so: the person may disagree)."""
    score = f" ({record.similarity:.0f}%)" if record.similarity is not None else ""
    if record.cut_short:
        score = " (one abstract is the start of the other)"
    if record.target_id is not None:
        other = f"#{record.target_id} “{record.target_title or ''}”"
    else:
        elsewhere = record.target_ref is not None and record.target_ref[0] != record.ref[0]
        where = "in an earlier file" if elsewhere else "earlier in this file"
        other = f"“{record.target_title or ''}” {where}"
    outcome = "kept separate" if kept_separate else "merged"
    if kept_separate and record.apart:
        outcome += " (the titles differ by a word: marked as a possible duplicate to check)"
    return f"  possible duplicate: “{record.record.title}” resembles {other}{score} — {outcome}"


#: How a report names a bibliography file's format (an author page is named by its owner).
BIBLIOGRAPHY_NAMES = {kind: f"{words} ({kind})" for kind, words in SOURCE_KINDS.items()}


def report_lines(label: str, result: ImportResult, page: int = 0) -> list[str]:
    """The command line's block about one imported file (the import's ``page``-th): a
    summary, warnings, duplicates.

    Example:
        ``zhuo.txt: Zhuo Jiang (publication-list) — 12 new, 0 merged, 0 possible duplicates``
    """
    report = result.pages[page]
    if report.format in BIBLIOGRAPHY_NAMES:
        head = f"{label}: {BIBLIOGRAPHY_NAMES[report.format]} — {report_counts(report)}"
    else:
        owner = report.owner or "unknown owner"
        head = f"{label}: {owner} ({report.format}) — {report_counts(report)}"
    if result.dry_run:
        head += " (dry run: nothing was changed)"
    lines = [head]
    if report.since_last is not None:
        lines.append(f"  {since_last_text(report.since_last)}")
    lines.extend(f"  {warning}" for warning in report.warnings)
    created = {r.ref for page in result.pages for r in page.records if r.created}
    mine = (p for p in result.possible_duplicates if p.ref[0] == page)
    lines.extend(duplicate_line(p, p.ref in created) for p in mine)
    if page == len(result.pages) - 1 and (renamed := renamed_text(result, shown=10)):
        lines.append(f"  {renamed}")
    return lines
