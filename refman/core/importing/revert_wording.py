"""A revert of an import in words (:mod:`refman.core.importing.revert`): the summary, then
each paper removed, put back or kept, and why."""

from __future__ import annotations

from refman.common.text import join_words, plural
from refman.core.importing.revert import RevertPlan


def revert_lines(plan: RevertPlan, most: int | None = None) -> list[str]:
    """A revert in words: the summary, then each paper removed, put back or kept (and why);
    of each, at most ``most`` papers (then how many more: a terminal is no place for the
    4,000 papers of a large import, ``--json`` lists them all)."""
    lines = [f"Import #{plan.import_id} ({plan.label}): {revert_summary(plan)}."]
    gone = "would go" if plan.dry_run else "removed"
    back = "would be put back" if plan.dry_run else "put back"
    lines += _at_most([f"  {gone}: #{i} {t}" for i, t in plan.removed], most)
    lines += _at_most([f"  {back}: #{i} {t}" for i, t in plan.restored], most)
    lines += _at_most([f"  kept: #{k.paper_id} {k.title} — {k.reason}" for k in plan.kept], most)
    if plan.dry_run:
        lines.append("Nothing was changed (dry run).")
    return lines


def _at_most(lines: list[str], most: int | None) -> list[str]:
    if most is None or len(lines) <= most:
        return lines
    return [*lines[:most], f"  … and {len(lines) - most:,} more (--json lists them all)"]


def revert_summary(plan: RevertPlan) -> str:
    """ "Would remove 3 papers, put 1 paper back as it was before and keep 2" (a dry run),
    "Removed 3 papers, …" (done)."""
    dry = plan.dry_run
    parts = []
    if plan.removed:
        parts.append(f"{'remove' if dry else 'removed'} {plural(len(plan.removed), 'paper')}")
    if plan.restored:
        n = len(plan.restored)
        was = "it was" if n == 1 else "they were"
        parts.append(f"put {plural(n, 'paper')} back as {was} before")
    if plan.kept:
        parts.append(f"{'keep' if dry else 'kept'} {plural(len(plan.kept), 'paper')}")
    text = join_words(parts) if parts else ("change no paper" if dry else "changed no paper")
    return ("Would " + text) if dry else text[0].upper() + text[1:]
