"""Bringing an upgraded library's data up to date, once, when it is opened.

A schema upgrade adds columns; what they hold for the papers already there is worked out by
the rules that hold for new papers (the same functions), here: citation keys for papers that
have none, and the name parts of people known only by their display name.
"""

from __future__ import annotations

import logging

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from refman.core.citekeys import assign_citekeys, family_name
from refman.core.paper_state import PaperState
from refman.core.state_io import load_states
from refman.importers.names import name_parts
from refman.store.bulk import chunks
from refman.store.database import Database
from refman.store.models import Paper, Person

log = logging.getLogger("refman.library")


def _needs_upkeep(session: Session) -> bool:
    no_key = select(Paper.id).where(Paper.citekey.is_(None)).limit(1)
    no_parts = select(Person.id).where(Person.family == "", Person.literal.is_(False)).limit(1)
    return session.scalar(no_key) is not None or session.scalar(no_parts) is not None


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
            )
        )
    return len(rows)


def _fill_citekeys(session: Session) -> int:
    ids = list(session.execute(select(Paper.id).where(Paper.citekey.is_(None))).scalars())
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
    with db.transaction() as session:
        people = _fill_name_parts(session)
        papers = _fill_citekeys(session)
    log.info("upgraded data: %d citation keys, %d names split into parts", papers, people)
