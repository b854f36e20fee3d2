"""Where the subjects of a list's filter went that the library no longer holds: a tag merged
into another (renamed onto its name: ``merged_tags``) or deleted, a person merged into
another (``merged_people``) or gone — for a window whose list is filtered by them (another
member's, another window's change) to follow them there, or to say they are gone."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from refman.core.people import merged_into
from refman.core.rules import tag_key
from refman.store.bulk import first_column, id_set
from refman.store.models import Person, Tag
from refman.store.models_upkeep import MergedTag


@dataclass(frozen=True, slots=True)
class GoneSubjects:
    """The subjects of a filter the library no longer holds.

    Attributes:
        tags: Each tag gone (its id) with the name of the tag it was merged into (merged on
            since: where that one went), None when it was deleted.
        person_gone: The person is no longer in the library.
        person_went: The person they were merged into (id, name), when they were.
    """

    tags: tuple[tuple[int, str | None], ...] = ()
    person_gone: bool = False
    person_went: tuple[int, str] | None = None


def remember_merged_tag(session: Session, merged_id: int, into: int, key: str) -> None:
    """Keep where a tag merged into another went (and its key: its name asked for again)."""
    forget_merged_tag(session, merged_id)
    row = {"merged_id": merged_id, "tag_id": into, "key": key}
    session.execute(insert(MergedTag), [row])


def forget_merged_tag(session: Session, tag_id: int) -> None:
    """A tag given its id back (an undo of its merge): merged no more."""
    session.execute(delete(MergedTag).where(MergedTag.merged_id == tag_id))


def tag_went(session: Session, tag_id: int) -> str | None:
    """The name of the tag a merged tag went into (merged on since: where that one went),
    if it is still in the library."""
    seen = {tag_id}
    while (into := session.get(MergedTag, tag_id)) is not None and into.tag_id not in seen:
        tag_id = into.tag_id
        seen.add(tag_id)
        if (name := session.scalar(select(Tag.name).where(Tag.id == tag_id))) is not None:
            return name
    return None


def name_went(session: Session, name: str) -> str | None:
    """The name of the tag a tag of this name was merged into (the last merged of that
    name), if it is still in the library."""
    merged = session.scalar(
        select(MergedTag.merged_id)
        .where(MergedTag.key == tag_key(name))
        .order_by(MergedTag.merged_id.desc())
        .limit(1)
    )
    return tag_went(session, merged) if merged is not None else None


def gone_subjects(
    session: Session, tag_ids: Collection[int], person_id: int | None
) -> GoneSubjects:
    """Which of these tags and this person the library no longer holds, and where they went."""
    here = set(first_column(session, select(Tag.id).where(Tag.id.in_(id_set(tag_ids)))))
    tags = tuple((t, tag_went(session, t)) for t in sorted(tag_ids) if t not in here)
    if person_id is None or session.scalar(select(Person.id).where(Person.id == person_id)):
        return GoneSubjects(tags)
    return GoneSubjects(tags, True, merged_into(session, person_id))
