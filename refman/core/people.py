"""People: everyone whose papers are in the library, and a person's page.

A person's papers are those they wrote (authorships) and those their author page listed
(attributions). Counting everyone's papers reads the person index, not every authorship
joined to its paper (:func:`paper_counts`); a person's page reads only that person's papers.
Spellings of one name that may be one person are in :mod:`refman.core.name_variants`.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable, Sequence

from sqlalchemy import ColumnElement, Subquery, exists, func, or_, select, union
from sqlalchemy.orm import Session, aliased

from refman.common.errors import MergedAwayError, NotFoundError
from refman.common.text import plain_letters
from refman.core import queries
from refman.core.name_search import key_like, people_like
from refman.core.values import (
    CoAuthor,
    PageImport,
    PaperQuery,
    PersonPage,
    PersonView,
)
from refman.store.bulk import chunks
from refman.store.models import (
    Attribution,
    Authorship,
    BatchPaper,
    ImportBatch,
    Person,
)
from refman.store.models_upkeep import MergedPerson, in_trash
from refman.store.search import SearchIndex

#: The People list shows at most this many people (the most papers first); typing narrows it.
PEOPLE_SHOWN = 1000
#: A person's page ranks this many co-authors.
COAUTHORS_SHOWN = 12


def no_person(person_id: int, session: Session | None = None) -> NotFoundError:
    """The error for a person id the library does not hold: never did, deleted, or merged
    into another person (said so, with ``session``: "#2 was merged into #1 John Smith")."""
    went = merged_into(session, person_id) if session is not None else None
    if went is not None:
        return MergedAwayError(
            f"Person #{person_id} was merged into #{went[0]} {went[1]}.",
            f"See them with “refman person {went[0]}”.",
            "Nothing was changed.",
        )
    return NotFoundError(
        f"There is no person #{person_id} in this library.", "Use “refman people” to see the ids."
    )


def merged_into(session: Session, person_id: int) -> tuple[int, str] | None:
    """The person a merged person went into (merged on since: where that one went), if they
    are still in the library."""
    seen = {person_id}
    while (into := session.get(MergedPerson, person_id)) is not None and into.person_id not in seen:
        person_id = into.person_id
        seen.add(person_id)
        if (name := session.scalar(select(Person.name).where(Person.id == person_id))) is not None:
            return person_id, name
    return None


# -- reading --------------------------------------------------------------------------------


def new_papers(session: Session, owners: Iterable[int] | None = None) -> dict[int, int]:
    """Per page owner: the papers the last import of their page added that are still in the
    library and attributed to them, when nobody looked at the person since."""
    last = select(
        ImportBatch.owner_id.label("owner_id"),
        func.max(ImportBatch.import_id).label("import_id"),
    ).where(ImportBatch.owner_id.is_not(None))
    if owners is not None:
        last = last.where(ImportBatch.owner_id.in_(list(owners)))
    latest = last.group_by(ImportBatch.owner_id).subquery()
    stmt = (
        select(latest.c.owner_id, func.count(func.distinct(BatchPaper.paper_id)))
        .join(Person, Person.id == latest.c.owner_id)
        .join(ImportBatch, ImportBatch.import_id == latest.c.import_id)
        .join(BatchPaper, BatchPaper.batch_id == ImportBatch.id)
        .join(
            Attribution,
            (Attribution.paper_id == BatchPaper.paper_id)
            & (Attribution.person_id == latest.c.owner_id),
        )
        .where(
            or_(Person.seen_import.is_(None), Person.seen_import < latest.c.import_id),
            BatchPaper.action == "added",
            in_trash(BatchPaper.paper_id, False),
        )
        .group_by(latest.c.owner_id)
    )
    return {int(pid): int(n) for pid, n in session.execute(stmt)}


def page_counts(session: Session) -> dict[int, int]:
    """Per page owner: how many pages were imported for them."""
    stmt = (
        select(ImportBatch.owner_id, func.count())
        .where(ImportBatch.owner_id.is_not(None))
        .group_by(ImportBatch.owner_id)
    )
    return {int(pid or 0): int(n) for pid, n in session.execute(stmt)}


def paper_counts(session: Session, people: Sequence[int] | None = None) -> dict[int, int]:
    """Per person (of ``people``, or everyone): the papers outside the Trash they wrote or
    own a page listing (people with none are left out).

    Counted from the indexes, never by joining every authorship to its paper: the
    authorships per person (the person index alone), less those of papers in the Trash
    (read from the Trash's papers), plus the attributions likewise, less the papers a
    person both wrote and owns, and, of ``people`` named, the papers naming them twice
    (:func:`_named_again`; everyone's: see :func:`_ranked`).
    """
    counts: Counter[int] = Counter()
    for table in (Authorship, Attribution):
        whole = select(table.person_id, func.count()).group_by(table.person_id)
        binned = select(table.person_id).where(in_trash(table.paper_id))
        if people is not None:
            whole = whole.where(table.person_id.in_(list(people)))
            binned = binned.where(table.person_id.in_(list(people)))
        counts.update({int(pid): int(n) for pid, n in session.execute(whole)})
        counts.subtract(int(pid) for (pid,) in session.execute(binned))
    both = select(Attribution.person_id).where(_wrote_too(), in_trash(Attribution.paper_id, False))
    if people is not None:
        both = both.where(Attribution.person_id.in_(list(people)))
    counts.subtract(int(pid) for (pid,) in session.execute(both))
    if people is not None:
        counts.subtract(_named_again(session, people))
    return {pid: n for pid, n in counts.items() if n > 0}


def _wrote_too() -> ColumnElement[bool]:
    """An attribution whose person is an author of its paper too (counted once)."""
    return exists().where(
        Authorship.paper_id == Attribution.paper_id,
        Authorship.person_id == Attribution.person_id,
    )


def _named_again(session: Session, people: Sequence[int]) -> Counter[int]:
    """Per person of ``people``: the papers outside the Trash that name them again after
    an earlier place ("Smith, John and Doe, Jane and Smith, John"), once each time (each of
    their authorships but a first author's probed by its paper's key)."""
    earlier = aliased(Authorship)
    again = select(Authorship.person_id).where(
        Authorship.person_id.in_(list(people)),
        Authorship.position > 0,
        exists().where(
            earlier.paper_id == Authorship.paper_id,
            earlier.position < Authorship.position,
            earlier.person_id == Authorship.person_id,
        ),
        in_trash(Authorship.paper_id, False),
    )
    return Counter(int(pid) for (pid,) in session.execute(again))


def _ranked(session: Session, counts: dict[int, int], limit: int) -> list[tuple[int, int]]:
    """The ``limit`` people with the most papers, counted exactly: everyone's ``counts``
    count a paper twice for an author named on it twice (looking for those among every
    authorship doubled the People window's time), so the people shown are counted again."""
    ranked = heapq.nsmallest(limit, counts.items(), key=lambda item: (-item[1], item[0]))
    again = _named_again(session, [pid for pid, _ in ranked])
    return sorted(
        ((pid, n - again[pid]) for pid, n in ranked), key=lambda item: (-item[1], item[0])
    )


def _named_like(session: Session, text: str) -> list[int] | None:
    """The people whose names contain ``text`` (accents and case ignored, typed as
    :mod:`refman.core.name_search` reads it); None for any."""
    wanted = key_like(text)
    if not wanted:
        return None
    return [int(i) for (i,) in session.execute(people_like([f"%{wanted}%"]))]


def list_people(
    session: Session, text: str = "", limit: int = PEOPLE_SHOWN
) -> tuple[list[PersonView], int]:
    """The people with papers in the library (outside the Trash) whose name contains
    ``text`` (accents and case ignored), the most papers first, at most ``limit``; and how
    many people there are in all (with such a name)."""
    named = _named_like(session, text)
    counts = paper_counts(session, None if named is None or len(named) > 5000 else named)
    if named is not None:
        wanted = set(named)
        counts = {pid: n for pid, n in counts.items() if pid in wanted}
    if named is None or len(named) > 5000:
        top = _ranked(session, counts, limit)
    else:
        top = heapq.nsmallest(limit, counts.items(), key=lambda item: (-item[1], item[0]))
    ids = [pid for pid, _ in top]
    names: dict[int, str] = {}
    for part in chunks(ids):
        rows = session.execute(select(Person.id, Person.name).where(Person.id.in_(part)))
        names.update((int(pid), str(name)) for pid, name in rows)
    pages = page_counts(session)
    new = new_papers(session, [pid for pid in ids if pid in pages])
    found = [
        PersonView(pid, names[pid], n, new=new.get(pid, 0), pages=pages.get(pid, 0))
        for pid, n in top
    ]
    found.sort(key=lambda p: (-p.count, plain_letters(p.name), p.id))
    return found, len(counts)


def followed(session: Session) -> list[PersonView]:
    """The people pages were imported for (the sidebar's People), by name, each with their
    papers, new papers and pages."""
    pages = page_counts(session)
    if not pages:
        return []
    counts = paper_counts(session, sorted(pages))
    stmt = select(Person.id, Person.name).where(Person.id.in_(sorted(counts)))
    new = new_papers(session, pages)
    # (by name in plain letters, as the list's author order: Østergaard among the O's)
    named = sorted(session.execute(stmt), key=lambda row: (plain_letters(row[1]), row[0]))
    return [
        PersonView(pid, name, counts[pid], new=new.get(pid, 0), pages=pages[pid])
        for pid, name in named
    ]


def count_people(session: Session) -> int:
    """How many people have papers in the library (outside the Trash)."""
    return len(paper_counts(session))


def _their_papers(person_id: int) -> Subquery:
    return union(
        select(Authorship.paper_id).where(Authorship.person_id == person_id),
        select(Attribution.paper_id).where(Attribution.person_id == person_id),
    ).subquery()


def _coauthors(session: Session, person_id: int, limit: int) -> list[CoAuthor]:
    theirs = _their_papers(person_id)
    shared = func.count(func.distinct(Authorship.paper_id))
    stmt = (
        select(Person.id, Person.name, shared)
        .select_from(theirs)
        .join(Authorship, Authorship.paper_id == theirs.c.paper_id)
        .join(Person, Person.id == Authorship.person_id)
        .where(in_trash(Authorship.paper_id, False), Authorship.person_id != person_id)
        .group_by(Person.id, Person.name)
        .order_by(shared.desc(), func.lower(Person.name), Person.id)
        .limit(limit)
    )
    return [CoAuthor(int(i), n, int(k)) for i, n, k in session.execute(stmt)]


def _pages(session: Session, person_id: int) -> list[PageImport]:
    stmt = (
        select(
            ImportBatch.id,
            ImportBatch.import_id,
            ImportBatch.source,
            ImportBatch.imported_at,
            ImportBatch.parsed,
        )
        .where(ImportBatch.owner_id == person_id)
        .order_by(ImportBatch.imported_at.desc(), ImportBatch.id.desc())
    )
    return [PageImport(int(b), int(i), s, at, int(n)) for b, i, s, at, n in session.execute(stmt)]


def person_view(session: Session, search: SearchIndex, person_id: int) -> PersonView | None:
    """One person with their paper count, new papers and pages; None when there is none."""
    row = session.execute(select(Person.name).where(Person.id == person_id)).first()
    if row is None:
        return None
    count = queries.count(session, PaperQuery(person_id=person_id), search)
    pages = session.execute(
        select(func.count()).where(ImportBatch.owner_id == person_id)
    ).scalar_one()
    new = new_papers(session, [person_id]).get(person_id, 0)
    return PersonView(id=person_id, name=row[0], count=count, new=new, pages=int(pages))


def person_page(session: Session, search: SearchIndex, person_id: int) -> PersonPage | None:
    """A person's page; None when the library has no such person."""
    from refman.core.name_variants import variants_of  # not at the top: it imports this module

    person = person_view(session, search, person_id)
    if person is None:
        return None
    return PersonPage(
        person=person,
        pages=tuple(_pages(session, person_id)),
        coauthors=tuple(_coauthors(session, person_id, COAUTHORS_SHOWN)),
        variants=tuple(variants_of(session, [person_id])),
    )
