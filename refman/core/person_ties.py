"""What a person carries besides their row: the spellings merged into them (aliases) and
the people they were said not to be (told apart).

Both go with the person's row (the database deletes them with it). A revert that deletes
the people its import created, when nothing uses them any more, keeps them for its undo
(:func:`ties_of`), which puts them back with the people (:func:`tie_again`): a merge or a
"Not the same" outlives a revert taken back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import insert, or_, select
from sqlalchemy.orm import Session

from refman.store.bulk import chunks
from refman.store.models import DistinctPeople, Person, PersonAlias

#: The kinds of ties, as a revert's payload names them.
ALIASES, APART = "person_aliases", "distinct_people"


def ties_of(session: Session, person_ids: Sequence[int]) -> dict[str, list[dict[str, Any]]]:
    """The aliases and told-apart pairs of these people (about to be deleted)."""
    aliases: list[dict[str, Any]] = []
    pairs: set[tuple[int, int]] = set()
    for part in chunks(sorted(set(person_ids))):
        rows = session.execute(
            select(PersonAlias.key, PersonAlias.person_id).where(PersonAlias.person_id.in_(part))
        )
        aliases.extend({"key": str(k), "person_id": int(p)} for k, p in rows)
        apart = session.execute(
            select(DistinctPeople.first_id, DistinctPeople.second_id).where(
                or_(DistinctPeople.first_id.in_(part), DistinctPeople.second_id.in_(part))
            )
        )
        pairs.update((int(a), int(b)) for a, b in apart)
    found: dict[str, list[dict[str, Any]]] = {}
    if aliases:
        found[ALIASES] = aliases
    if pairs:
        found[APART] = [{"first_id": a, "second_id": b} for a, b in sorted(pairs)]
    return found


def tie_again(
    session: Session, ties: Mapping[str, Sequence[Mapping[str, Any]]], ids: Mapping[int, int]
) -> None:
    """Put back the ties :func:`ties_of` kept, the people named by their ids now (``ids``:
    id then -> id now); an alias that names someone since, and a pair of which one is
    gone, stay out."""

    def now(person_id: int) -> int:
        return ids.get(person_id, person_id)

    aliases = [{"key": a["key"], "person_id": now(a["person_id"])} for a in ties.get(ALIASES, [])]
    taken = _taken_keys(session, [a["key"] for a in aliases])
    if fresh := [a for a in aliases if a["key"] not in taken]:
        session.execute(insert(PersonAlias), fresh)
    pairs = {
        (min(a, b), max(a, b))
        for a, b in ((now(p["first_id"]), now(p["second_id"])) for p in ties.get(APART, []))
        if a != b
    }
    if pairs:
        _apart_again(session, pairs)


def _apart_again(session: Session, pairs: set[tuple[int, int]]) -> None:
    """Tell these pairs apart again, those of which both are there and not told apart yet."""
    people = sorted({i for pair in pairs for i in pair})
    present = {int(i) for (i,) in session.execute(select(Person.id).where(Person.id.in_(people)))}
    held = {
        (int(a), int(b))
        for a, b in session.execute(
            select(DistinctPeople.first_id, DistinctPeople.second_id).where(
                DistinctPeople.first_id.in_(people)
            )
        )
    }
    wanted = [
        {"first_id": a, "second_id": b}
        for a, b in sorted(pairs - held)
        if a in present and b in present
    ]
    if wanted:
        session.execute(insert(DistinctPeople), wanted)


def _taken_keys(session: Session, keys: Sequence[str]) -> set[str]:
    """Of these keys, those an alias or a person's own key holds now."""
    taken: set[str] = set()
    for part in chunks(sorted(set(keys))):
        taken.update(
            str(k)
            for (k,) in session.execute(
                select(PersonAlias.key)
                .where(PersonAlias.key.in_(part))
                .union_all(select(Person.key).where(Person.key.in_(part)))
            )
        )
    return taken
