"""Changing people: merge two spellings into one person (undone exactly), say two people
are not the same, mark a person as looked at; and the import's use of merged spellings.

Merging "Z. Jiang" into "Zhuo Jiang" moves every authorship, attribution and imported page
of "Z. Jiang" to "Zhuo Jiang" and keeps "z jiang" as an alias: a page that brings "Z. Jiang"
again means Zhuo Jiang (:func:`with_known_names`). The undo puts back the person with the
same id and everything that was theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import delete, func, insert, select, tuple_, update
from sqlalchemy.orm import Session

from refman.common.errors import ConflictError, InvalidValueError
from refman.common.text import person_key
from refman.core.context import Context, Handler
from refman.core.importing.values import SourcedPage
from refman.core.operations import Operation, Outcome
from refman.core.people import no_person
from refman.core.spellings import author_lines_of
from refman.core.values import Changes
from refman.importers.names import name_parts
from refman.store.bulk import chunks
from refman.store.models import (
    Attribution,
    Authorship,
    DistinctPeople,
    ImportBatch,
    Paper,
    Person,
    PersonAlias,
)
from refman.store.models_upkeep import MergedPerson

#: A person's row: id, name, key, family, given, particle, suffix, literal, seen_import.
_PERSON_COLUMNS = (
    Person.id,
    Person.name,
    Person.key,
    Person.family,
    Person.given,
    Person.particle,
    Person.suffix,
    Person.literal,
    Person.seen_import,
)


@dataclass(frozen=True, slots=True)
class MergePeople(Operation[None]):
    """Make ``other`` one person with ``keep`` (everything of ``other`` becomes ``keep``'s,
    and ``other``'s spelling an alias of ``keep``)."""

    keep: int
    other: int
    keep_name: str = ""
    other_name: str = ""

    @property
    def label(self) -> str:
        """ "Merge “Z. Jiang” into “Zhuo Jiang”"."""
        return f"Merge “{self.other_name}” into “{self.keep_name}”"


@dataclass(frozen=True, slots=True)
class SplitPeople(Operation[None]):
    """Undo a merge: bring ``person`` back with what was theirs."""

    keep: int
    person: tuple[object, ...]
    authorships: tuple[tuple[int, int], ...]
    attributions: tuple[int, ...]
    shared_attributions: tuple[int, ...]
    batches: tuple[int, ...]
    aliases: tuple[str, ...]
    apart: tuple[tuple[int, int], ...]
    label_text: str = ""

    @property
    def label(self) -> str:
        """The merge's label (the Edit menu says "Undo …")."""
        return self.label_text


@dataclass(frozen=True, slots=True)
class TellApart(Operation[None]):
    """Say two people are not the same (their names are never proposed as one again)."""

    first: int
    second: int
    undo: bool = False
    label_text: str = ""

    @property
    def label(self) -> str:
        """ "“Z. Jiang” and “Zhou Jiang”: not the same person" (once the names are known)."""
        return self.label_text or "Not the same person"


@dataclass(frozen=True, slots=True)
class SeePerson(Operation[None]):
    """Mark a person as looked at: their new papers are new no longer."""

    person_id: int


def _person_row(session: Session, person_id: int) -> tuple[object, ...]:
    row = session.execute(select(*_PERSON_COLUMNS).where(Person.id == person_id)).first()
    if row is None:
        raise no_person(person_id, session)
    return tuple(row)


def _ints(session: Session, column: Any, *conditions: Any) -> list[int]:
    return [int(v) for (v,) in session.execute(select(column).where(*conditions))]


def _holdings(session: Session, keep: int, other: int) -> SplitPeople:
    """Everything of ``other`` a merge into ``keep`` moves, as the undo that moves it back."""
    authorships = tuple(
        (int(p), int(i))
        for p, i in session.execute(
            select(Authorship.paper_id, Authorship.position).where(Authorship.person_id == other)
        )
    )
    owned = set(_ints(session, Attribution.paper_id, Attribution.person_id == other))
    both = owned & set(_ints(session, Attribution.paper_id, Attribution.person_id == keep))
    involved = (DistinctPeople.first_id == other) | (DistinctPeople.second_id == other)
    pairs = select(DistinctPeople.first_id, DistinctPeople.second_id)
    apart = session.execute(pairs.where(involved))
    aliases = session.execute(select(PersonAlias.key).where(PersonAlias.person_id == other))
    return SplitPeople(
        keep=keep,
        person=_person_row(session, other),
        authorships=authorships,
        attributions=tuple(sorted(owned)),
        shared_attributions=tuple(sorted(both)),
        batches=tuple(_ints(session, ImportBatch.id, ImportBatch.owner_id == other)),
        aliases=tuple(str(k) for (k,) in aliases),
        apart=tuple((int(a), int(b)) for a, b in apart),
    )


def _still_there(session: Session, column: Any, ids: Sequence[int]) -> list[int]:
    """Those of these ids (of papers, of people) the library still holds, ascending."""
    found: list[int] = []
    for part in chunks(sorted(set(ids))):
        found.extend(int(i) for (i,) in session.execute(select(column).where(column.in_(part))))
    return sorted(found)


def _papers_of(session: Session, person_id: int) -> set[int]:
    """The papers a person is an author of."""
    mine = select(Authorship.paper_id).where(Authorship.person_id == person_id)
    return {int(p) for (p,) in session.execute(mine)}


def merge_people(ctx: Context, op: MergePeople) -> Outcome[None]:
    """Merge two people; the inverse splits them again exactly."""
    if op.keep == op.other:
        raise InvalidValueError("A person cannot be merged with themselves.", "Pick two people.")
    s, keep, other = ctx.session, op.keep, op.other
    kept = _person_row(s, keep)
    held = _holdings(s, keep, other)
    both = {p for p, _ in held.authorships} & _papers_of(s, keep)
    if both:
        raise InvalidValueError(
            f"“{kept[1]}” and “{held.person[1]}” are both authors of #{min(both)}: two people.",
            "Merge only two spellings of one person's name.",
        )
    moved = sorted(set(held.attributions) - set(held.shared_attributions))
    touched = {p for p, _ in held.authorships} | set(held.attributions)
    with ctx.search.changing(s, touched):
        s.execute(update(Authorship).where(Authorship.person_id == other).values(person_id=keep))
        for part in chunks(moved):
            s.execute(insert(Attribution), [{"paper_id": p, "person_id": keep} for p in part])
        s.execute(delete(Attribution).where(Attribution.person_id == other))
        s.execute(update(ImportBatch).where(ImportBatch.owner_id == other).values(owner_id=keep))
        s.execute(delete(PersonAlias).where(PersonAlias.person_id == other))
        s.execute(
            delete(DistinctPeople).where(
                (DistinctPeople.first_id == other) | (DistinctPeople.second_id == other)
            )
        )
        s.execute(delete(Person).where(Person.id == other))
        s.execute(delete(MergedPerson).where(MergedPerson.merged_id == other))
        s.execute(insert(MergedPerson), [{"merged_id": other, "person_id": keep}])
        keys = (str(held.person[2]), *held.aliases)
        s.execute(insert(PersonAlias), [{"key": k, "person_id": keep} for k in keys])
        author_lines_of(s, [keep])
    label = MergePeople(keep, other, str(kept[1]), str(held.person[1])).label
    changes = Changes(papers=frozenset(touched), people=True, structure=True)
    return Outcome(None, changes, replace(held, label_text=label), label)


def split_people(ctx: Context, op: SplitPeople) -> Outcome[None]:
    """Bring back a person merged into another, with what was theirs.

    Raises:
        ConflictError: The spelling was given to someone else since (nothing is changed).
    """
    s = ctx.session
    _person_row(s, op.keep)
    columns = [c.key for c in _PERSON_COLUMNS]
    values = dict(zip(columns, op.person, strict=True))
    person_id, key = int(str(values["id"])), str(values["key"])
    if s.execute(select(Person.id).where(Person.key == key)).first() is not None:
        raise ConflictError(
            f"“{values['name']}” is a person of their own again.", "The merge was left as it is."
        )
    touched = {p for p, _ in op.authorships} | set(op.attributions)
    with ctx.search.changing(s, touched):
        s.execute(insert(Person), [values])
        s.execute(delete(MergedPerson).where(MergedPerson.merged_id == person_id))
        for pairs in chunks(list(op.authorships)):
            s.execute(
                update(Authorship)
                .where(
                    tuple_(Authorship.paper_id, Authorship.position).in_(pairs),
                    Authorship.person_id == op.keep,
                )
                .values(person_id=person_id)
            )
        _give_back(s, op, person_id, key)
        author_lines_of(s, [op.keep, person_id])
    redo = MergePeople(op.keep, person_id)
    changes = Changes(papers=frozenset(touched), people=True, structure=True)
    return Outcome(None, changes, redo, op.label)


def _give_back(s: Session, op: SplitPeople, person_id: int, key: str) -> None:
    """Give the person split off again their pages, imports, spellings and "not the same"
    pairs; a revert since, from another window, may have deleted papers and people of
    theirs."""
    for ids in chunks(_still_there(s, Paper.id, op.attributions)):
        s.execute(insert(Attribution), [{"paper_id": p, "person_id": person_id} for p in ids])
    alone = sorted(set(op.attributions) - set(op.shared_attributions))
    for ids in chunks(alone):
        s.execute(
            delete(Attribution).where(
                Attribution.person_id == op.keep, Attribution.paper_id.in_(ids)
            )
        )
    if op.batches:
        s.execute(
            update(ImportBatch).where(ImportBatch.id.in_(op.batches)).values(owner_id=person_id)
        )
    s.execute(delete(PersonAlias).where(PersonAlias.key.in_([key, *op.aliases])))
    if op.aliases:
        s.execute(insert(PersonAlias), [{"key": k, "person_id": person_id} for k in op.aliases])
    present = set(_still_there(s, Person.id, [i for pair in op.apart for i in pair]))
    if apart := [(a, b) for a, b in op.apart if a in present and b in present]:
        s.execute(insert(DistinctPeople), [{"first_id": a, "second_id": b} for a, b in apart])


def tell_apart(ctx: Context, op: TellApart) -> Outcome[None]:
    """Record (or, for an undo, forget) that two people are not the same."""
    if op.first == op.second and not op.undo:
        raise InvalidValueError(
            "A person cannot be told apart from themselves.", "Pick two people."
        )
    first, second = sorted((op.first, op.second))
    names = [_person_row(ctx.session, op.first)[1], _person_row(ctx.session, op.second)[1]]
    pair = (DistinctPeople.first_id == first) & (DistinctPeople.second_id == second)
    ctx.session.execute(delete(DistinctPeople).where(pair))
    if not op.undo:
        ctx.session.execute(insert(DistinctPeople), [{"first_id": first, "second_id": second}])
    label = op.label_text or f"“{names[0]}” and “{names[1]}”: not the same person"
    inverse = TellApart(first, second, undo=not op.undo, label_text=label)
    return Outcome(None, Changes(people=True), inverse, label)


def see_person(ctx: Context, op: SeePerson) -> Outcome[None]:
    """Mark a person as looked at now (not undone: it only clears a badge)."""
    last = select(func.max(ImportBatch.import_id)).scalar_subquery()
    done = ctx.session.execute(
        update(Person)
        .where(Person.id == op.person_id, Person.seen_import.is_distinct_from(last))
        .values(seen_import=last)
    )
    return Outcome(None, Changes(people=bool(getattr(done, "rowcount", 1))))


def with_known_names(session: Session, pages: Sequence[SourcedPage]) -> list[SourcedPage]:
    """The pages with every spelling of a merged person written as that person's name (so
    "Z. Jiang", merged into Zhuo Jiang, brings Zhuo Jiang's papers, not a new person)."""
    if session.execute(select(PersonAlias.key).limit(1)).first() is None:
        return list(pages)  # no person was ever merged: nothing to look up
    keys = {
        person_key(name)
        for sp in pages
        for name in (sp.page.owner, *(a for r in sp.page.records for a in r.authors))
        if name
    }
    known: dict[str, str] = {}
    for part in chunks(sorted(keys)):
        rows = session.execute(
            select(PersonAlias.key, Person.name)
            .join(Person, Person.id == PersonAlias.person_id)
            .where(PersonAlias.key.in_(part))
        )
        known.update({str(k): str(n) for k, n in rows})
    if not known:
        return list(pages)
    return [_renamed(sp, known) for sp in pages]


def _renamed(sp: SourcedPage, known: dict[str, str]) -> SourcedPage:
    def name(written: str) -> str:
        return known.get(person_key(written), written)

    records = []
    for r in sp.page.records:
        if not any(person_key(a) in known for a in r.authors):
            records.append(r)
            continue
        authors = tuple(name(a) for a in r.authors)
        parts = tuple(
            name_parts(name(a)) if person_key(a) in known else p
            for a, p in zip(r.authors, r.author_names, strict=False)
        )
        records.append(replace(r, authors=authors, author_names=parts))
    owner = name(sp.page.owner) if sp.page.owner else sp.page.owner
    return replace(sp, page=replace(sp.page, owner=owner, records=records))


HANDLERS: dict[type, Handler] = {
    MergePeople: merge_people,
    SplitPeople: split_people,
    TellApart: tell_apart,
    SeePerson: see_person,
}
