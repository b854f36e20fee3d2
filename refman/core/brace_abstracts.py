"""Abstracts an older refman read from BibTeX with their grouping braces, mended once (an
upgrade to revision 0030).

Before that revision refman kept a ``.bib`` abstract's grouping braces (``from {AlphaFold}
to``): it showed them, searched them and exported them as ``\\{AlphaFold\\}``. Such a paper
is read again from the entry its import kept (``batch_papers.raw``) with today's reader
(:func:`~refman.importers.bib_earlier.reread`), and takes today's abstract — and, when its
title was suggested from that abstract, today's title — only where it still holds exactly
what the older reader made of that entry and the person never edited it. A paper edited
since, or one whose abstract came from another source, stays as it is.
"""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from refman.core.paper_state import PaperState
from refman.core.state_io import load_states, write_mended
from refman.importers.bib_earlier import Reading, reread
from refman.store.bulk import chunks, row_stream
from refman.store.models import BatchPaper, Paper
from refman.store.models_upkeep import LibraryTask
from refman.store.packed import unpack
from refman.store.search import SearchIndex

__all__ = ["TASK", "mend_brace_abstracts"]

#: The task revision 0030 leaves for the library service.
TASK = "bib_braces"


def mend_brace_abstracts(session: Session, search: SearchIndex) -> int:
    """Give the papers an older refman read from BibTeX with grouping braces in their
    abstract today's reading, where they still hold the older one; how many."""
    if session.get(LibraryTask, TASK) is None:
        return 0
    braced = [
        pid
        for pid, stored in row_stream(session, select(Paper.id, Paper.abstract))
        if "{" in (abstract := unpack(stored)) or "}" in abstract
    ]
    mended = 0
    for part in chunks(braced):
        states = [
            state
            for state in load_states(session, part).values()
            if "abstract" not in state.user_edited
        ]
        changed = [s for s in states if _mended(s, _raws(session, s.id))]
        if changed:
            write_mended(session, changed, search)
            mended += len(changed)
    session.execute(delete(LibraryTask).where(LibraryTask.task == TASK))
    return mended


def _raws(session: Session, paper_id: int) -> list[str]:
    rows = session.execute(
        select(BatchPaper.raw).where(BatchPaper.paper_id == paper_id, BatchPaper.raw.is_not(None))
    ).scalars()
    return [raw for raw in rows if raw]


def _mended(state: PaperState, raws: list[str]) -> bool:
    """Give ``state`` today's reading of the first entry whose older reading it holds."""
    for raw in raws:
        readings = reread(raw)
        if readings is None or readings[0].abstract != state.abstract:
            continue
        before, now = readings
        state.abstract = now.abstract
        if _title_suggested(state, before):
            state.title = now.title
        return True
    return False


def _title_suggested(state: PaperState, before: Reading) -> bool:
    """Whether the paper's title is the one suggested from the older abstract, unedited."""
    return (
        state.title_provisional and state.title == before.title and "title" not in state.user_edited
    )
