"""Reading papers, tags and people into plain values."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from refman.common.text import latex_to_text
from refman.common.typeset import printed_prose
from refman.core.attachments import files_of
from refman.core.citekey_aliases import aliases_of
from refman.core.importing.values import FOUND
from refman.core.merged_keys import where_merged
from refman.core.values import NoteView, PaperDetail, SourceView, TagView
from refman.importers.records import PersonName
from refman.store.bulk import chunks, id_set
from refman.store.file_store import FileStore
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
from refman.store.models_upkeep import in_trash, is_live


def _grouped(rows: Iterable[Sequence[Any]]) -> dict[int, list[Any]]:
    """Rows of (paper id, value...) grouped by paper id, in row order."""
    grouped: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        grouped[row[0]].append(row[1] if len(row) == 2 else tuple(row[1:]))
    return grouped


def author_rows(part: Sequence[int]) -> Select[int, int, str, str]:
    """(paper id, person id, key, name) of the authors of some papers, in author order."""
    return (
        select(Authorship.paper_id, Person.id, Person.key, Person.name)
        .join(Person, Person.id == Authorship.person_id)
        .where(Authorship.paper_id.in_(part))
        .order_by(Authorship.paper_id, Authorship.position)
    )


def owner_rows(part: Sequence[int]) -> Select[int, int, str, str]:
    """(paper id, person id, key, name) of the page owners some papers are attributed to."""
    return (
        select(Attribution.paper_id, Person.id, Person.key, Person.name)
        .join(Person, Person.id == Attribution.person_id)
        .where(Attribution.paper_id.in_(part))
        .order_by(Attribution.paper_id, Person.id)
    )


def subject_rows(part: Sequence[int]) -> Select[int, str]:
    """(paper id, code) of the subjects of some papers, in page order."""
    return (
        select(PaperSubject.paper_id, Subject.code)
        .join(Subject, Subject.id == PaperSubject.subject_id)
        .where(PaperSubject.paper_id.in_(part))
        .order_by(PaperSubject.paper_id, PaperSubject.position)
    )


def tag_rows(part: Sequence[int]) -> Select[int, int, str, str | None]:
    """(paper id, tag id, name, colour) of the tags of some papers, by name."""
    return (
        select(PaperTag.paper_id, Tag.id, Tag.name, Tag.colour)
        .join(Tag, Tag.id == PaperTag.tag_id)
        .where(PaperTag.paper_id.in_(part))
        .order_by(PaperTag.paper_id, func.lower(Tag.name))
    )


def view_of(note: Note) -> NoteView:
    """A stored note as a plain value."""
    return NoteView(
        note.id,
        note.paper_id,
        note.text,
        note.created_at,
        note.modified_at,
        note.created_by,
        note.modified_by,
    )


def _notes(session: Session, part: list[int]) -> dict[int, list[Any]]:
    notes = session.execute(
        select(Note).where(Note.paper_id.in_(part)).order_by(Note.paper_id, Note.id)
    ).scalars()
    return _grouped((n.paper_id, view_of(n)) for n in notes)


def _sources(session: Session, part: list[int]) -> dict[int, list[Any]]:
    columns = (ImportBatch.source, ImportBatch.imported_at, ImportBatch.imported_by)
    rows = session.execute(
        select(BatchPaper.paper_id, Person.name, *columns)
        .join(ImportBatch, ImportBatch.id == BatchPaper.batch_id)
        .outerjoin(Person, Person.id == ImportBatch.owner_id)
        .where(BatchPaper.paper_id.in_(part), BatchPaper.action != FOUND)
        .order_by(BatchPaper.paper_id, ImportBatch.imported_at, ImportBatch.id)
    )
    return _grouped(
        (pid, SourceView(owner or "", source, when, by)) for pid, owner, source, when, by in rows
    )


def _author_parts(session: Session, part: list[int]) -> dict[int, list[Any]]:
    rows = session.execute(
        select(
            Authorship.paper_id,
            Person.family,
            Person.given,
            Person.particle,
            Person.suffix,
            Person.literal,
            Person.name,
        )
        .join(Person, Person.id == Authorship.person_id)
        .where(Authorship.paper_id.in_(part))
        .order_by(Authorship.paper_id, Authorship.position)
    )
    return _grouped(
        (pid, PersonName(family or name, given, particle, suffix, literal))
        for pid, family, given, particle, suffix, literal, name in rows
    )


#: The columns of a paper's row that its detail shows, read as plain rows (building mapped
#: objects of 100,000 papers took 1.8 s, their rows take 1.2 s; the match keys are not shown).
_DETAIL_COLUMNS = tuple(
    getattr(Paper, name)
    for name in (
        "id title title_provisional authors_complete year venue abstract added_at modified_at"
        " trashed_at user_edited possible_duplicate_of doi arxiv_id url type citekey volume"
        " issue pages publisher extra version created_by modified_by status rating"
    ).split()
)


def _tags(session: Session, ids: list[int]) -> dict[int, list[TagView]]:
    """The tags of these papers, by paper."""
    return _grouped(
        (pid, TagView(id=tid, name=name, colour=colour))
        for pid, tid, name, colour in session.execute(tag_rows(ids))
    )


def load_details(
    session: Session, ids: Sequence[int], store: FileStore | None = None
) -> list[PaperDetail]:
    """Every paper in ``ids`` as a :class:`PaperDetail`, in the order given (with their
    attached files when ``store`` says where they are)."""
    out: dict[int, PaperDetail] = {}
    for part in chunks(list(dict.fromkeys(ids))):
        authors = _grouped((r[0], r[1], r[3]) for r in session.execute(author_rows(part)))
        parts = _author_parts(session, part)
        owners = _grouped((r[0], r[3]) for r in session.execute(owner_rows(part)))
        subjects = _grouped(session.execute(subject_rows(part)))
        tags = _tags(session, part)
        notes, sources = _notes(session, part), _sources(session, part)
        files = files_of(session, store, part) if store is not None else {}
        merged, aliases = where_merged(session, part), aliases_of(session, part)
        for p in session.connection().execute(
            select(*_DETAIL_COLUMNS).where(Paper.id.in_(part), is_live(Paper.id))
        ):
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
                abstract_text=latex_to_text(printed_prose(p.abstract)),
                attributed_to=tuple(owners[p.id]),
                tags=tuple(tags[p.id]),
                notes=tuple(notes[p.id]),
                added=p.added_at,
                modified=p.modified_at,
                trashed=p.trashed_at,
                sources=tuple(sources[p.id]),
                user_edited=p.user_edited,
                possible_duplicate_of=p.possible_duplicate_of,
                doi=p.doi,
                arxiv_id=p.arxiv_id,
                url=p.url,
                type=p.type,
                citekey=p.citekey,
                volume=p.volume,
                issue=p.issue,
                pages=p.pages,
                publisher=p.publisher,
                extra=json.loads(p.extra or "{}"),
                author_names=tuple(parts[p.id]),
                version=p.version,
                created_by=p.created_by,
                modified_by=p.modified_by,
                status=p.status,
                rating=p.rating,
                files=tuple(files.get(p.id, ())),
                merged_into=merged.get(p.id) if p.trashed_at is not None else None,
                aliases=tuple(aliases.get(p.id, ())),
            )
    return [out[i] for i in ids if i in out]


def load_tags(session: Session) -> list[TagView]:
    """Every tag with the number of papers (outside the Trash) that carry it.

    Counted as every link of the tag (its index alone, no paper read) less the links of the
    papers in the Trash (read from the Trash's side): at 100,000 tagged papers a join of every
    link with its paper took 90 ms, these two counts take a few.
    """
    links = select(PaperTag.tag_id, func.count().label("n")).group_by(PaperTag.tag_id).subquery()
    trashed = (
        select(PaperTag.tag_id, func.count().label("n"))
        .where(in_trash(PaperTag.paper_id))
        .group_by(PaperTag.tag_id)
        .subquery()
    )
    count = func.coalesce(links.c.n, 0) - func.coalesce(trashed.c.n, 0)
    stmt = (
        select(Tag.id, Tag.name, Tag.colour, count)
        .outerjoin(links, links.c.tag_id == Tag.id)
        .outerjoin(trashed, trashed.c.tag_id == Tag.id)
        .order_by(func.lower(Tag.name))
    )
    return [TagView(id=i, name=n, colour=c, count=k) for i, n, c, k in session.execute(stmt)]


def tags_among(session: Session, ids: Sequence[int]) -> list[TagView]:
    """The tags the papers ``ids`` carry, each with how many of them carry it, in the order
    of :func:`load_tags` (what several selected papers have, to take a tag off them all)."""
    stmt = (
        select(Tag.id, Tag.name, Tag.colour, func.count())
        .join(PaperTag, PaperTag.tag_id == Tag.id)
        .where(PaperTag.paper_id.in_(id_set(ids)))
        .group_by(Tag.id, Tag.name, Tag.colour)
        .order_by(func.lower(Tag.name))
    )
    return [TagView(id=i, name=n, colour=c, count=k) for i, n, c, k in session.execute(stmt)]


def load_tag_names(session: Session) -> list[str]:
    """Every tag's name, in the order :func:`load_tags` gives the tags."""
    return list(session.execute(select(Tag.name).order_by(func.lower(Tag.name))).scalars())
