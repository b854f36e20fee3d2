"""Merging several papers that are one into one of them, as one step.

Three copies of a paper (a preprint, the journal version, a conference version someone
typed in) are merged into the one kept in a single change: each other paper is merged into
it in turn, by the rules of :mod:`refman.core.paper_merge` (the first paper named wins where
two bring a citation key chosen by hand), and the kept paper ends with what all of them
brought. Undo takes every merge back, the last first, or none of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from refman.common.errors import InvalidValueError
from refman.core.context import Context, Handler, no_paper
from refman.core.operations import DryRunnable, Operation, Outcome
from refman.core.paper_merge import (
    MergePapers,
    MergeResult,
    UnmergePapers,
    describe,
    merge_papers,
    require_one_work,
    take_in,
    unmerge_papers,
)
from refman.core.paper_state import PaperState
from refman.core.state_io import load_states, state_keys
from refman.core.values import Changes


@dataclass(frozen=True, slots=True)
class MergeSeveral(DryRunnable[MergeResult]):
    """Merge the papers ``others`` into paper ``keep``, in that order, as one change."""

    keep: int
    others: tuple[int, ...]
    #: Only say what the merges would do.
    dry_run: bool = False

    @property
    def label(self) -> str:
        """ "Merge papers"."""
        return "Merge papers"


@dataclass(frozen=True, slots=True)
class UnmergeSeveral(Operation[tuple[int, ...]]):
    """Take several merges back, the last first. Its value: the papers merged."""

    steps: tuple[UnmergePapers, ...]

    @property
    def label(self) -> str:
        """ "Merge papers" (Undo/Redo Merge papers)."""
        return "Merge papers"


#: The most papers one merge takes (copies of one paper are a few; a whole selection merged
#: by mistake would take long to merge and to undo).
MOST = 100


def _require_distinct(op: MergeSeveral) -> None:
    if not op.others:
        raise InvalidValueError("No paper to merge was named.", "Name the papers to merge.")
    if len(op.others) >= MOST:
        raise InvalidValueError(
            f"{len(op.others) + 1:,} papers cannot be merged at once (at most {MOST}).",
            "Select the copies of one paper, and merge them.",
        )
    if op.keep in op.others:
        raise InvalidValueError(
            f"Paper #{op.keep} cannot be merged with itself.", "Name different papers."
        )
    if len(set(op.others)) < len(op.others):
        twice = next(i for i in op.others if op.others.count(i) > 1)
        raise InvalidValueError(f"Paper #{twice} was named twice.", "Name each paper once.")


def _require_one_work(states: dict[int, PaperState], ids: tuple[int, ...]) -> None:
    """Refuse papers two of which carry different DOIs or arXiv ids, as they are named
    (before any merge): each checked against the first that carries one of each."""
    first_doi = next((i for i in ids if state_keys(states[i]).doi), None)
    first_arxiv = next((i for i in ids if state_keys(states[i]).arxiv), None)
    for paper_id in ids:
        for first in (f for f in (first_doi, first_arxiv) if f is not None and f != paper_id):
            require_one_work(states[first], states[paper_id])


def _gains(ctx: Context, op: MergeSeveral) -> tuple[str, ...]:
    """What the kept paper would gain from all the others, merged in turn (in memory).

    Raises:
        NotFoundError: A paper is not in the library.
        InvalidValueError: Two of the papers cannot be one (different DOIs, the kept one in
            the Trash).
    """
    states = load_states(ctx.session, [op.keep, *op.others])
    for paper_id in (op.keep, *op.others):
        if paper_id not in states:
            raise no_paper(paper_id)
    _require_one_work(states, (op.keep, *op.others))
    keep = states[op.keep]
    tags = len(keep.tags)
    gains = [take_in(ctx, keep, states[other]) for other in op.others]
    return describe(ctx, op.keep, gains, len(keep.tags) - tags)


def merge_several(ctx: Context, op: MergeSeveral) -> Outcome[MergeResult]:
    """Merge several papers into one (see the module); refused as a whole when one of them
    cannot be merged."""
    _require_distinct(op)
    added = _gains(ctx, op)
    result = MergeResult(op.keep, op.others[0], added, op.dry_run, op.others)
    if op.dry_run:
        return Outcome(result)
    steps, changes = [], Changes()
    for other in op.others:
        done = merge_papers(ctx, MergePapers(op.keep, other))
        assert isinstance(done.inverse, UnmergePapers)
        steps.append(done.inverse)
        changes |= done.changes
    return Outcome(result, changes, UnmergeSeveral(tuple(steps)), op.label)


def unmerge_several(ctx: Context, op: UnmergeSeveral) -> Outcome[tuple[int, ...]]:
    """Take the merges back, the last first (refused as a whole when the kept paper changed
    since)."""
    changes = Changes()
    for step in reversed(op.steps):
        changes |= unmerge_papers(ctx, step).changes
    others = tuple(step.other for step in op.steps)
    keep = op.steps[0].keep
    return Outcome(others, changes, MergeSeveral(keep, others), op.label)


HANDLERS: dict[type, Handler] = {MergeSeveral: merge_several, UnmergeSeveral: unmerge_several}
