"""Bringing an upgraded library's data up to date, once, when it is opened.

A schema upgrade adds columns; what they hold for the papers already there is worked out by
the rules that hold for new papers (the same functions), here: citation keys for papers that
have none, the name parts of people known only by their display name, and the match keys
of papers a layout change left without them, the keys of their abstracts' openings, or the
keys of papers whose texts hold TeX's dashes and quotes or whose abstracts only say there is
none; DOIs stored without their closing brackets; BibTeX abstracts read with their grouping
braces and titles kept with their LaTeX markup (``library_tasks``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from sqlalchemy import Text, delete, func, or_, select, type_coerce, update
from sqlalchemy.orm import Session

from refman.common.identifiers import closed_doi
from refman.common.typeset import has_tex_ligature
from refman.core.brace_abstracts import mend_brace_abstracts
from refman.core.citekeys import assign_citekeys, family_name
from refman.core.latex_titles import mend_latex_titles
from refman.core.matching import MatchKeys
from refman.core.paper_state import PaperState
from refman.core.placeholder_abstracts import LONGEST as PLACEHOLDER_LONGEST
from refman.core.placeholder_abstracts import is_placeholder_abstract
from refman.core.state_io import load_states
from refman.core.stored_keys import remember_blocks, remember_openings, stored_match_keys
from refman.importers.names import name_parts
from refman.store.bulk import UNSYNCHRONIZED, chunks, id_set, row_stream, run_many
from refman.store.database import Database
from refman.store.models import MatchBlock, Paper, Person
from refman.store.models_upkeep import LibraryTask, MergedKey
from refman.store.packed import unpack

log = logging.getLogger("refman.library")


def _needs_upkeep(session: Session) -> bool:
    no_key = select(Paper.id).where(Paper.citekey.is_(None)).limit(1)
    no_parts = select(Person.id).where(Person.family == "", Person.literal.is_(False)).limit(1)
    task = select(LibraryTask.task).limit(1)
    return any(session.scalar(q) is not None for q in (no_key, no_parts, task))


def _fill_match_keys(session: Session) -> int:
    """The exact and blocking keys of every paper (an upgrade from an older layout)."""
    if session.get(LibraryTask, "match_keys") is None:
        return 0
    session.execute(delete(MatchBlock))
    rows = stored_match_keys(session)
    _write_keys(session, rows)
    # every key is made again, openings of abstracts included
    session.execute(delete(LibraryTask).where(LibraryTask.task.in_(_KEY_TASKS)))
    return len(rows)


def _write_keys(session: Session, rows: Sequence[tuple[int, str, MatchKeys]]) -> None:
    """Store papers' match keys and blocking keys (their old blocking keys are gone)."""
    for part in chunks(rows, 5000):
        keys = [(pid, mk) for pid, _, mk in part]
        run_many(
            session,
            "UPDATE papers SET title_key = ?, abstract_key = ?, doi_key = ?, arxiv_key = ? "
            "WHERE id = ?",
            [(*mk.columns().values(), pid) for pid, mk in keys],
        )
        remember_blocks(session, ((pid, mk.blocks) for pid, mk in keys))


#: The tasks that make papers' keys: all of them, their abstracts' openings (an upgrade to
#: revision 0014), or those of papers whose texts hold TeX's dashes and quotes (0017).
_KEY_TASKS = ("match_keys", "opening_keys", "ligature_keys")


def _fill_ligature_keys(session: Session) -> int:
    """The keys of the papers whose title or abstract holds one of TeX's dashes or quotes,
    worked out again (an upgrade to revision 0017: keys fold them now)."""
    if session.get(LibraryTask, "ligature_keys") is None:
        return 0
    ids = [
        pid
        for pid, title, abstract in row_stream(session, "SELECT id, title, abstract FROM papers")
        if has_tex_ligature(title) or has_tex_ligature(unpack(abstract))
    ]
    if ids:
        session.execute(
            delete(MatchBlock).where(MatchBlock.paper_id.in_(id_set(ids))),
            execution_options=UNSYNCHRONIZED,
        )
        _write_keys(session, stored_match_keys(session, ids))
    session.execute(delete(LibraryTask).where(LibraryTask.task == "ligature_keys"))
    return len(ids)


def _mend_dois(session: Session) -> int:
    """The DOIs stored without the closing brackets they end in, given them back, and their
    papers' keys worked out again (an upgrade to revision 0021)."""
    if session.get(LibraryTask, "doi_brackets") is None:
        return 0
    opening = or_(*(Paper.doi.contains(c, autoescape=True) for c in "([{"))
    rows = session.execute(select(Paper.id, Paper.doi).where(opening)).all()
    mended = {pid: whole for pid, doi in rows if doi and (whole := closed_doi(doi)) != doi}
    for pid, doi in mended.items():
        session.execute(update(Paper).where(Paper.id == pid).values(doi=doi))
    if mended:
        session.execute(delete(MatchBlock).where(MatchBlock.paper_id.in_(id_set(list(mended)))))
        _write_keys(session, stored_match_keys(session, list(mended)))
    session.execute(delete(LibraryTask).where(LibraryTask.task == "doi_brackets"))
    return len(mended)


def _drop_placeholder_keys(session: Session) -> int:
    """The keys of the papers whose abstract only says there is none, worked out again
    without it, and such abstracts' keys kept for papers merged into others dropped (an
    upgrade to revision 0028: a placeholder names no paper). Only abstracts short enough to
    be one are read."""
    if session.get(LibraryTask, "placeholder_keys") is None:
        return 0
    stored = type_coerce(Paper.abstract, Text)  # (as stored: unpacked here)
    short = select(Paper.id, stored).where(
        Paper.abstract_key.is_not(None), func.length(stored) <= PLACEHOLDER_LONGEST
    )
    ids = [pid for pid, text in session.execute(short) if is_placeholder_abstract(unpack(text))]
    if ids:
        session.execute(delete(MatchBlock).where(MatchBlock.paper_id.in_(id_set(ids))))
        _write_keys(session, stored_match_keys(session, ids))
    merged = select(MergedKey.merged_id, MergedKey.value).where(MergedKey.kind == "abstract")
    gone = [mid for mid, value in session.execute(merged) if is_placeholder_abstract(value)]
    for part in chunks(gone):
        session.execute(
            delete(MergedKey).where(MergedKey.kind == "abstract", MergedKey.merged_id.in_(part))
        )
    session.execute(delete(LibraryTask).where(LibraryTask.task == "placeholder_keys"))
    return len(ids)


def _fill_opening_keys(session: Session) -> int:
    """The key of every paper's abstract opening (an upgrade from a library without)."""
    if session.get(LibraryTask, "opening_keys") is None:
        return 0
    found = remember_openings(session)
    session.execute(delete(LibraryTask).where(LibraryTask.task == "opening_keys"))
    return found


def _fill_name_parts(session: Session) -> int:
    rows = session.execute(
        select(Person.id, Person.name).where(Person.family == "", Person.literal.is_(False))
    ).all()
    for person_id, name in rows:
        parts = name_parts(name)
        session.execute(
            update(Person)
            .where(Person.id == person_id)
            .values(
                family=parts.family or name,
                given=parts.given,
                particle=parts.particle,
                suffix=parts.suffix,
                literal=parts.literal,
            )
        )
    return len(rows)


def fill_citekeys(session: Session, paper_ids: Sequence[int] | None = None) -> int:
    """Give a key to the papers (of ``paper_ids``, else of the library) that have none: a
    library an upgrade left so, a paper whose key went to the paper it was merged into. How
    many."""
    keyless = select(Paper.id).where(Paper.citekey.is_(None))
    if paper_ids is not None:
        keyless = keyless.where(Paper.id.in_(id_set(paper_ids)))
    ids = list(session.execute(keyless).scalars())
    for part in chunks(ids):
        states = list(load_states(session, part).values())
        assign_citekeys(session, states, _family)
        for state in states:
            session.execute(update(Paper).where(Paper.id == state.id).values(citekey=state.citekey))
    return len(ids)


def _family(state: PaperState) -> str:
    return family_name(state, lambda key: name_parts(state.names.get(key, key)).family)


def bring_up_to_date(db: Database) -> None:
    """Fill in what an upgrade left empty; a library that needs nothing is not written to."""
    with db.reading() as session:
        if not _needs_upkeep(session):
            return
    changed_before = db.changed
    with db.transaction() as session:
        people = _fill_name_parts(session)
        papers = fill_citekeys(session)
        keyed = _fill_match_keys(session) + _fill_ligature_keys(session) + _mend_dois(session)
        keyed += _drop_placeholder_keys(session)
        openings = _fill_opening_keys(session)
        abstracts = mend_brace_abstracts(session, db.search)
        titles = mend_latex_titles(session, db.search)
    db.changed = changed_before  # upkeep is no change of the person's to back up
    log.info(
        "upgraded data: %d citation keys, %d names split into parts, %d papers' match keys,"
        " %d abstracts' openings, %d BibTeX abstracts without their grouping braces,"
        " %d titles' LaTeX read as text",
        papers,
        people,
        keyed,
        openings,
        abstracts,
        titles,
    )
