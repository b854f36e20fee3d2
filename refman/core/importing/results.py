"""What an import did, page by page: the reports the command line, the wizard and the history
read (from the records' outcomes, never worked out again)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from refman.core.importing.values import (
    ImportPlan,
    ImportResult,
    PageReport,
    RecordOutcome,
    RecordStatus,
    SinceLast,
    SourcedPage,
)
from refman.core.merge import TITLE_ADDED

__all__ = ["import_result"]


def _report(
    plan: ImportPlan,
    pi: int,
    sp: SourcedPage,
    outcomes: Sequence[RecordOutcome],
    batch_ids: tuple[int, ...],
    clashes: Sequence[str],
) -> PageReport:
    report = PageReport(
        source=sp.source,
        owner=sp.page.owner,
        format=str(sp.page.format),
        claimed=sp.page.claimed,
        parsed=len(sp.page.records),
        warnings=(*sp.page.warnings, *clashes),
        batch_id=batch_ids[pi] if batch_ids else None,
        records=tuple(r for r in outcomes if r.ref[0] == pi),
    )
    planned = plan.pages[pi].since_last
    if planned is None:
        return report
    title_added = {p.ref for p in plan.records if p.ref[0] == pi and TITLE_ADDED in p.adds}
    titled = {r.paper_id for r in report.records if r.updated and r.ref in title_added}
    since = SinceLast(
        planned.date,
        new=report.new,
        titled=len(titled),
        updated=report.merged - len(titled),
        unchanged=report.unchanged,
    )
    return replace(report, since_last=since)


def import_result(
    plan: ImportPlan,
    pages: Sequence[SourcedPage],
    outcomes: Sequence[RecordOutcome],
    batch_ids: tuple[int, ...],
    *,
    found: Sequence[int],
    new_ids: Sequence[int],
    clashes: Mapping[int, Sequence[str]],
    renamed: Sequence[tuple[str, str]],
    dry_run: bool = False,
) -> ImportResult:
    """The result of an import.

    Args:
        found: The library's papers its records joined.
        new_ids: The papers it made.
        clashes: Per page, the warnings about citation keys other papers hold.
        renamed: The people it spelled better, (as they were, as they are).
    """
    updated = {r.paper_id for r in outcomes if r.in_library and r.updated}
    return ImportResult(
        pages=tuple(
            _report(plan, pi, sp, outcomes, batch_ids, clashes.get(pi, []))
            for pi, sp in enumerate(pages)
        ),
        new_ids=tuple(new_ids),
        merged_ids=tuple(i for i in found if i in updated),
        unchanged_ids=tuple(i for i in found if i not in updated),
        batch_ids=batch_ids,
        possible_duplicates=tuple(
            p for p in plan.records if p.status is RecordStatus.POSSIBLE_DUPLICATE
        ),
        dry_run=dry_run,
        renamed=tuple(sorted(set(renamed))),
    )
