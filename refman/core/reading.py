"""Reading papers, tags and people into plain values."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from refman.core.state_io import chunks
from refman.core.values import NoteView, PaperDetail, PersonView, SourceView, TagView
from refman.store.models import (
    Attribution,
    Authorship,
    BatchPaper,
    ImportBatch,
    Note,
    Paper,
    PaperSubject,
    PaperTag,
    Person,
    Subject,
    Tag,
)


def load_details(session: Session, ids: Sequence[int]) -> list[PaperDetail]:
    """Every paper in ``ids`` as a :class:`PaperDetail`, in the order given."""
    out: dict[int, PaperDetail] = {}
    for part in chunks(list(dict.fromkeys(ids))):
        authors: dict[int, list[tuple[int, str]]] = defaultdict(list)
        for pid, person_id, name in session.execute(
            select(Authorship.paper_id, Person.id, Person.name)
            .join(Person, Person.id == Authorship.person_id)
            .where(Authorship.paper_id.in_(part))
            .order_by(Authorship.paper_id, Authorship.position)
        ):
            authors[pid].append((person_id, name))
        owners: dict[int, list[str]] = defaultdict(list)
        for pid, name in session.execute(
            select(Attribution.paper_id, Person.name)
            .join(Person, Person.id == Attribution.person_id)
            .where(Attribution.paper_id.in_(part))
            .order_by(Attribution.paper_id, Person.id)
        ):
            owners[pid].append(name)
        subjects: dict[int, list[str]] = defaultdict(list)
        for pid, code in session.execute(
            select(PaperSubject.paper_id, Subject.code)
            .join(Subject, Subject.id == PaperSubject.subject_id)
            .where(PaperSubject.paper_id.in_(part))
            .order_by(PaperSubject.paper_id, PaperSubject.position)
        ):
            subjects[pid].append(code)
        tags: dict[int, list[TagView]] = defaultdict(list)
        for pid, tid, name, colour in session.execute(
            select(PaperTag.paper_id, Tag.id, Tag.name, Tag.colour)
            .join(Tag, Tag.id == PaperTag.tag_id)
            .where(PaperTag.paper_id.in_(part))
            .order_by(PaperTag.paper_id, func.lower(Tag.name))
        ):
            tags[pid].append(TagView(id=tid, name=name, colour=colour))
        notes: dict[int, list[NoteView]] = defaultdict(list)
        for n in session.execute(
            select(Note).where(Note.paper_id.in_(part)).order_by(Note.paper_id, Note.id)
        ).scalars():
            notes[n.paper_id].append(
                NoteView(
                    id=n.id,
                    paper_id=n.paper_id,
                    text=n.text,
                    created=n.created_at,
                    modified=n.modified_at,
                )
            )
        sources: dict[int, list[SourceView]] = defaultdict(list)
        for pid, owner, source, when in session.execute(
            select(BatchPaper.paper_id, Person.name, ImportBatch.source, ImportBatch.imported_at)
            .join(ImportBatch, ImportBatch.id == BatchPaper.batch_id)
            .outerjoin(Person, Person.id == ImportBatch.owner_id)
            .where(BatchPaper.paper_id.in_(part))
            .order_by(BatchPaper.paper_id, ImportBatch.imported_at, ImportBatch.id)
        ):
            sources[pid].append(SourceView(owner=owner or "", file=source, imported=when))
        for p in session.execute(select(Paper).where(Paper.id.in_(part))).scalars():
            out[p.id] = PaperDetail(
                id=p.id,
                title=p.title,
                title_provisional=p.title_provisional,
                authors=tuple(name for _, name in authors[p.id]),
                author_ids=tuple(i for i, _ in authors[p.id]),
                authors_complete=p.authors_complete,
                year=p.year,
                venue=p.venue,
                subjects=tuple(subjects[p.id]),
                abstract=p.abstract,
                abstract_text=p.abstract_text or p.abstract,
                attributed_to=tuple(owners[p.id]),
                tags=tuple(tags[p.id]),
                notes=tuple(notes[p.id]),
                added=p.added_at,
                modified=p.modified_at,
                trashed=p.trashed_at,
                sources=tuple(sources[p.id]),
                user_edited=frozenset(f for f in p.user_edited.split(",") if f),
                possible_duplicate_of=p.possible_duplicate_of,
                doi=p.doi,
                arxiv_id=p.arxiv_id,
                url=p.url,
            )
    return [out[i] for i in ids if i in out]


def load_tags(session: Session) -> list[TagView]:
    """Every tag with the number of papers (outside the Trash) that carry it."""
    counts = (
        select(PaperTag.tag_id, func.count().label("n"))
        .join(Paper, Paper.id == PaperTag.paper_id)
        .where(Paper.trashed_at.is_(None))
        .group_by(PaperTag.tag_id)
        .subquery()
    )
    stmt = (
        select(Tag.id, Tag.name, Tag.colour, func.coalesce(counts.c.n, 0))
        .outerjoin(counts, counts.c.tag_id == Tag.id)
        .order_by(func.lower(Tag.name))
    )
    return [TagView(id=i, name=n, colour=c, count=k) for i, n, c, k in session.execute(stmt)]


def load_people(session: Session) -> list[PersonView]:
    """Page owners (persons with attributions) and their paper counts, by name."""
    stmt = (
        select(Person.id, Person.name, func.count(Attribution.paper_id))
        .join(Attribution, Attribution.person_id == Person.id)
        .join(Paper, Paper.id == Attribution.paper_id)
        .where(Paper.trashed_at.is_(None))
        .group_by(Person.id)
        .order_by(func.lower(Person.name))
    )
    return [PersonView(id=i, name=n, count=c) for i, n, c in session.execute(stmt)]


def load_person(session: Session, person_id: int) -> PersonView | None:
    """One person and the number of papers (outside the Trash) attributed to them."""
    person = session.get(Person, person_id)
    if person is None:
        return None
    count = session.execute(
        select(func.count())
        .select_from(Attribution)
        .join(Paper, Paper.id == Attribution.paper_id)
        .where(Attribution.person_id == person_id, Paper.trashed_at.is_(None))
    ).scalar_one()
    return PersonView(id=person.id, name=person.name, count=int(count))
