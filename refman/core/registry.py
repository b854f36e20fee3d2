"""The persons, subjects and tags papers are written with: found by key, code or name, created
when missing (ids never given before, or those a Redo gives back), and remembered as created
(an undo or revert deletes them again when nothing uses them)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from refman.core.citekeys import family_name
from refman.core.paper_state import PaperState
from refman.core.rules import tag_key
from refman.core.spellings import spelling_of
from refman.importers.names import name_parts
from refman.importers.records import PersonName
from refman.store.bulk import bulk_insert, chunks, first_column, id_set
from refman.store.id_marks import new_ids
from refman.store.models import Person, PersonAlias, Subject, Tag

#: The table of each kind of row a registry creates.
_TABLES: dict[str, Any] = {"persons": Person, "subjects": Subject, "tags": Tag}
#: Ids to give back, by kind ("persons", "subjects", "tags") and key, code or tag key.
GivenNames = Mapping[str, Mapping[str, int]]


def _person_row(
    person_id: int, key: str, display: str, parts: PersonName | None
) -> dict[str, object]:
    return {"id": person_id, "key": key, **spelling_of(display, parts)}


class Registry:
    """Ids of persons, subjects and tags, created on demand, remembering what it created."""

    def __init__(
        self,
        session: Session,
        parts: Mapping[str, PersonName] | None = None,
        given: GivenNames | None = None,
    ) -> None:
        """Args:
        session: The transaction's session.
        parts: Name parts a source gave for person keys (new persons take them).
        given: The ids a new row of a name takes back (a Redo: those the import undone
            gave), when no row holds them.
        """
        self.session = session
        self.parts = parts or {}
        self.given = given or {}
        self.persons: dict[str, int] = {}
        self.subjects: dict[str, int] = {}
        self.tags: dict[str, int] = {}  # casefolded name -> id
        self.created: dict[str, list[Any]] = {"persons": [], "subjects": [], "tags": []}

    def _new_ids(self, kind: str, names: Sequence[str]) -> list[int]:
        """The ids of new rows of these names: given back where free, else never given."""
        wanted = self.given.get(kind, {})
        back = {n: wanted[n] for n in names if n in wanted}
        if back:
            model = _TABLES[kind]
            taken = select(model.id).where(model.id.in_(id_set(list(back.values()))))
            held = set(first_column(self.session, taken))
            back = {n: i for n, i in back.items() if i not in held}
        fresh = iter(new_ids(self.session, kind, len(names) - len(back)))
        ids = [back[n] if n in back else next(fresh) for n in names]
        self.created[kind].extend(ids)
        return ids

    def ensure_persons(
        self, names: dict[str, str], parts: Mapping[str, PersonName] | None = None
    ) -> None:
        """Make sure a person exists for each key (key -> display name); a new person's name
        parts come from ``parts`` when the source gave them, else from the display name."""
        missing = [k for k in names if k not in self.persons]
        for part in chunks(missing):
            for pid, key in self.session.execute(
                select(Person.id, Person.key)
                .where(Person.key.in_(part))
                .union_all(  # another spelling of a person (merged into them, or renamed)
                    select(PersonAlias.person_id, PersonAlias.key).where(PersonAlias.key.in_(part))
                )
            ):
                self.persons.setdefault(key, pid)
        new = [k for k in missing if k not in self.persons]
        if new:
            ids = self._new_ids("persons", new)
            given = (parts or {}).get
            rows = [_person_row(i, k, names[k], given(k)) for i, k in zip(ids, new, strict=True)]
            bulk_insert(self.session, Person, rows)
            self.persons.update(zip(new, ids, strict=True))

    def family_of(self, state: PaperState) -> str:
        """The family name a paper's citation key starts with."""

        def family(key: str) -> str:
            given = self.parts.get(key)
            return (given or name_parts(state.names.get(key, key))).family

        return family_name(state, family)

    def ensure_subjects(self, codes: Iterable[str]) -> None:
        """Make sure each subject code exists."""
        missing = sorted({c for c in codes if c not in self.subjects})
        for part in chunks(missing):
            for sid, code in self.session.execute(
                select(Subject.id, Subject.code).where(Subject.code.in_(part))
            ):
                self.subjects[code] = sid
        new = [c for c in missing if c not in self.subjects]
        if new:
            ids = self._new_ids("subjects", new)
            rows = [{"id": i, "code": c} for i, c in zip(ids, new, strict=True)]
            bulk_insert(self.session, Subject, rows)
            self.subjects.update(zip(new, ids, strict=True))

    def ensure_tags(self, names: Iterable[str]) -> None:
        """Make sure each tag exists (names compare without regard to case)."""
        wanted: dict[str, str] = {}
        for name in names:
            wanted.setdefault(tag_key(name), name)
        missing = [n for n in wanted if n not in self.tags]
        if not missing:
            return
        for part in chunks(missing):
            for tid, key in self.session.execute(select(Tag.id, Tag.key).where(Tag.key.in_(part))):
                self.tags[key] = tid
        new = [folded for folded in missing if folded not in self.tags]
        if new:
            ids = self._new_ids("tags", new)
            self.session.add_all(
                Tag(id=i, name=wanted[f], key=f) for i, f in zip(ids, new, strict=True)
            )
            self.session.flush()
            self.tags.update(zip(new, ids, strict=True))


def registry_needs(registry: Registry, states: Sequence[PaperState]) -> None:
    """Make sure the persons, subjects and tags of these papers exist."""
    names: dict[str, str] = {}
    for s in states:
        for key in (*s.authors, *s.attributions):
            names.setdefault(key, s.names.get(key, key))
    registry.ensure_persons(names, registry.parts)
    registry.ensure_subjects(c for s in states for c in s.subjects)
    registry.ensure_tags(t for s in states for t in s.tags)
