"""Reading paper states from the store and writing them back, in bulk.

Authors and attributions are person keys in a :class:`PaperState`; here they become rows of
``persons``, ``authorships`` and ``attributions``. Subjects and tags likewise.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, select
from sqlalchemy.orm import Session

from refman.common.errors import StaleWriteError
from refman.common.text import sort_form
from refman.core.citekey_aliases import read_aliases, write_aliases
from refman.core.citekeys import assign_citekeys
from refman.core.contributors import editor_names
from refman.core.matching import MatchKeys, match_keys
from refman.core.merge import author_line, sort_author
from refman.core.paper_state import BIB_FIELDS, PaperState
from refman.core.reading import author_rows, owner_rows, subject_rows, tag_rows
from refman.core.registry import Registry, registry_needs
from refman.core.rules import tag_key
from refman.core.stored_keys import forget_blocks, keys_unchanged, remember_blocks
from refman.store.bulk import UNSYNCHRONIZED, bulk_insert, chunks, id_set
from refman.store.connection import changing, writer
from refman.store.id_marks import reach
from refman.store.models import (
    Attribution,
    Authorship,
    Base,
    Paper,
    PaperSubject,
    PaperTag,
    Person,
)
from refman.store.models_upkeep import is_live
from refman.store.packed import packs_remembered
from refman.store.search import SearchIndex

#: Gives the match keys of a paper state (imports pass a cache of the keys they computed).
KeysOf = Callable[[PaperState], MatchKeys]


def state_keys(state: PaperState) -> MatchKeys:
    """The match keys of a paper state, computed afresh."""
    return match_keys(
        state.title, state.title_provisional, state.abstract, state.doi, state.arxiv_id
    )


def load_states(session: Session, ids: Iterable[int]) -> dict[int, PaperState]:
    """The current state of each of these papers."""
    wanted = sorted(set(ids))
    states: dict[int, PaperState] = {}
    for part in chunks(wanted):
        query = select(Paper).where(Paper.id.in_(part), is_live(Paper.id))
        if changing(session):
            # Rows read to be changed stay as read until the commit, links included: FOR
            # UPDATE also holds back a new tag or note of the paper (its foreign key check),
            # which a rewrite of the paper's links would otherwise drop (the load test lost
            # 32 of 5,679 changes with FOR NO KEY UPDATE).
            query = query.with_for_update()
        for p in session.execute(query).scalars():
            states[p.id] = PaperState(
                id=p.id,
                title=p.title,
                title_provisional=p.title_provisional,
                abstract=p.abstract,
                year=p.year,
                venue=p.venue,
                authors=[],
                authors_complete=p.authors_complete,
                attributions=[],
                subjects=[],
                tags=[],
                user_edited=set(p.user_edited),
                possible_duplicate_of=p.possible_duplicate_of,
                added_at=p.added_at,
                modified_at=p.modified_at,
                trashed_at=p.trashed_at,
                type=p.type,
                citekey=p.citekey,
                extra=json.loads(p.extra or "{}"),
                version=p.version,
                **{name: getattr(p, name) for name in BIB_FIELDS},
            )
        part = [pid for pid in part if pid in states]
        for paper_id, _, key, name in session.execute(author_rows(part)):
            states[paper_id].authors.append(key)
            states[paper_id].names[key] = name
        for paper_id, _, key, name in session.execute(owner_rows(part)):
            states[paper_id].attributions.append(key)
            states[paper_id].names[key] = name
        for paper_id, code in session.execute(subject_rows(part)):
            states[paper_id].subjects.append(code)
        for paper_id, _, tag_name, _ in session.execute(tag_rows(part)):
            states[paper_id].tags.append(tag_name)
    read_aliases(session, states)
    return states


def paper_columns(state: PaperState, now: datetime, keys: MatchKeys) -> dict[str, Any]:
    """The row of a paper in the ``papers`` table, derived columns included.

    This is the one place that derives the stored columns a paper's fields imply: the sort
    keys of its title, venue and first author, the list's author line, and its exact match
    keys.
    """
    names = [state.names.get(k, k) for k in state.authors]
    editors = editor_names(state.extra)
    return {
        "id": state.id,
        "title": state.title,
        "title_provisional": state.title_provisional,
        "abstract": state.abstract,
        "year": state.year,
        "venue": state.venue,
        "authors_complete": state.authors_complete,
        "sort_author": sort_author(names, editors),
        "title_order": sort_form(state.title),
        "venue_order": sort_form(state.venue),
        "author_line": author_line(names, state.authors_complete, editors),
        "added_at": state.added_at or now,
        "modified_at": state.modified_at or now,
        "trashed_at": state.trashed_at,
        "user_edited": frozenset(state.user_edited),
        "possible_duplicate_of": state.possible_duplicate_of,
        "type": state.type,
        "citekey": state.citekey,
        "extra": json.dumps(state.extra, ensure_ascii=False, sort_keys=True)
        if state.extra
        else "{}",
        **{name: getattr(state, name) for name in BIB_FIELDS},
        **keys.columns(),
    }


def _link_rows(
    registry: Registry, states: Sequence[PaperState]
) -> tuple[list[dict[str, object]], ...]:
    authorships: list[dict[str, object]] = []
    attributions: list[dict[str, object]] = []
    subjects: list[dict[str, object]] = []
    tags: list[dict[str, object]] = []
    for s in states:
        authorships.extend(
            {"paper_id": s.id, "position": i, "person_id": registry.persons[k]}
            for i, k in enumerate(s.authors)
        )
        attributions.extend(
            {"paper_id": s.id, "person_id": registry.persons[k]}
            for k in dict.fromkeys(s.attributions)
        )
        subjects.extend(
            {"paper_id": s.id, "subject_id": registry.subjects[c], "position": i}
            for i, c in enumerate(s.subjects)
        )
        tags.extend(
            {"paper_id": s.id, "tag_id": tid}
            for tid in dict.fromkeys(registry.tags[tag_key(t)] for t in s.tags)
        )
    return authorships, attributions, subjects, tags


def _rewrite(
    session: Session, changed: Sequence[PaperState], rows: Sequence[dict[str, Any]]
) -> None:
    """Rewrite papers' rows in one statement for those read from the library (guarded by the
    version read: a change made in between by someone else is never overwritten,
    :class:`StaleWriteError`) and one for those put back from a snapshot (an undo)."""
    table = cast(Table, Paper.__table__)
    read: list[dict[str, Any]] = []
    restored: list[dict[str, Any]] = []
    for state, row in zip(changed, rows, strict=True):
        values = {**{k: v for k, v in row.items() if k != "id"}, "b_id": state.id}
        if state.version is None:
            restored.append(values)
        else:
            read.append({**values, "b_version": state.version})
    for params, guarded in ((read, True), (restored, False)):
        if not params:
            continue
        stmt = table.update().where(table.c.id == bindparam("b_id"))
        if guarded:
            stmt = stmt.where(table.c.version == bindparam("b_version"))
        stmt = stmt.values(version=table.c.version + 1, modified_by=writer(session))
        if session.connection().execute(stmt, params).rowcount != len(params):
            raise StaleWriteError(f"Paper #{changed[0].id}" if len(changed) == 1 else "A paper")


def write_states(
    session: Session,
    registry: Registry,
    new: Sequence[PaperState],
    changed: Sequence[PaperState],
    now: datetime,
    search: SearchIndex,
    keys_of: KeysOf = state_keys,
    *,
    links: bool = True,
) -> None:
    """Insert new papers and rewrite changed ones, with all their links, match keys and
    search words (the one write path of papers). ``links=False``: the changed papers' people,
    subjects and tags are as stored (an edit of fields), so their links are left as they are.
    """
    if links or new:
        registry_needs(registry, [*new, *changed])
    needing_keys = [*new, *(s for s in changed if not s.citekey)]
    if needing_keys:
        assign_citekeys(session, needing_keys, registry.family_of)
    keys = {s.id: keys_of(s) for s in (*new, *changed)}
    changed_ids = [s.id for s in changed]
    kept = keys_unchanged(
        session,
        {s.id: (s.title, s.title_provisional, s.abstract, s.doi, s.arxiv_id) for s in changed},
    )
    with packs_remembered(), search.changing(session, changed_ids):
        forget_blocks(session, [pid for pid in changed_ids if pid not in kept])
        if new:
            _insert(session, new, [paper_columns(s, now, keys[s.id]) for s in new])
        _rewrite(session, changed, [paper_columns(s, now, keys[s.id]) for s in changed])
        _write_links(session, registry, new, changed, keys, links, kept)
        search.remember(session, [s.id for s in new])
    write_aliases(session, [*new, *changed], changed_ids)


def write_mended(session: Session, states: list[PaperState], search: SearchIndex) -> None:
    """Write papers an upgrade mended (their fields read anew): each keeps its times, as an
    upgrade is no change of the person's."""
    now = datetime.now().replace(microsecond=0)
    write_states(session, Registry(session), [], states, now, search, links=False)


def _insert(session: Session, new: Sequence[PaperState], rows: list[dict[str, Any]]) -> None:
    """Insert new papers' rows; the mark of the ids given moves past theirs (ids an undo or
    a redo gives back are below it already)."""
    reach(session, "papers", max(s.id for s in new))
    who = {"created_by": writer(session), "modified_by": writer(session)}
    bulk_insert(session, Paper, [{**row, **who} for row in rows])


def _write_links(
    session: Session,
    registry: Registry,
    new: Sequence[PaperState],
    changed: Sequence[PaperState],
    keys: Mapping[int, MatchKeys],
    links: bool,
    kept: set[int],
) -> None:
    """The papers' links and blocking keys (the changed papers' old ones are gone first, but
    for the blocking keys ``kept``)."""
    writing = (s.id for s in (*new, *changed) if s.id not in kept)
    remember_blocks(session, ((pid, keys[pid].blocks) for pid in writing))
    if not links:
        if not new:
            return
        changed = []
    for part in chunks([s.id for s in changed]):
        for table in (Authorship, Attribution, PaperSubject, PaperTag):
            session.execute(delete(table).where(table.paper_id.in_(part)))
    link_tables: tuple[type[Base], ...] = (Authorship, Attribution, PaperSubject, PaperTag)
    for model, rows in zip(link_tables, _link_rows(registry, [*new, *changed]), strict=True):
        if rows:
            bulk_insert(session, model, rows)


def delete_papers(session: Session, search: SearchIndex, paper_ids: Sequence[int]) -> None:
    """Delete papers for good: their search words, blocking keys and rows (and, through
    the foreign keys, their links and notes)."""
    ids = sorted(set(paper_ids))
    search.forget(session, ids)
    forget_blocks(session, ids)
    session.execute(
        delete(Paper).where(Paper.id.in_(id_set(ids))), execution_options=UNSYNCHRONIZED
    )


def person_names(session: Session, keys: Iterable[str]) -> dict[str, str]:
    """Display names of persons by key (for keys already in the library)."""
    out: dict[str, str] = {}
    for part in chunks(sorted(set(keys))):
        for key, name in session.execute(
            select(Person.key, Person.name).where(Person.key.in_(part))
        ):
            out[key] = name
    return out
