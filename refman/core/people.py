"""People: everyone whose papers are in the library, a person's page, and the spellings of
one person's name that should be one person.

A person's papers are those they wrote (authorships) and those their author page listed
(attributions). Every read here is one short read: the People list counts every person's
papers in one statement, a person's page reads only that person's papers.

Two spellings are proposed as one person (:func:`variants_of`) when the family names are
the same and the given names agree as initials ("Z." and "Zhuo", or "Jiang Zhuo" written
the other way round), they never wrote a paper together, and their papers overlap (a paper
in common, or a co-author in common). Accents and case never make two people: the person
key (:func:`refman.common.text.person_key`) folds them, so "José" and "Jose" are one person
from the start; the name is shown as it was first written.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable, Sequence

from sqlalchemy import Subquery, func, or_, select, union
from sqlalchemy.orm import Session

from refman.common.text import person_key
from refman.core import queries
from refman.core.values import (
    CoAuthor,
    NameVariant,
    PageImport,
    PaperQuery,
    PersonPage,
    PersonView,
)
from refman.importers.names import name_parts
from refman.store.bulk import chunks
from refman.store.models import (
    Attribution,
    Authorship,
    BatchPaper,
    DistinctPeople,
    ImportBatch,
    Paper,
    Person,
)
from refman.store.search import SearchIndex

#: The People list shows at most this many people (the most papers first); typing narrows it.
PEOPLE_SHOWN = 1000
#: A person's page ranks this many co-authors.
COAUTHORS_SHOWN = 12


# -- the rule: which spellings may be one person -------------------------------------------


def _given_words(given: str) -> list[str]:
    return person_key(given.replace("-", " ")).split()


def _family_given(name: str, family: str, given: str) -> tuple[str, list[str]]:
    """The folded family name and given-name words of a person (parts split from the name
    when the source gave none)."""
    if not family:
        parts = name_parts(name)
        family, given = parts.family, parts.given
    return person_key(family), _given_words(given)


def _initials_agree(first: Sequence[str], second: Sequence[str]) -> bool:
    """Given names agree when each word matches the other's word at its place, in full or
    as an initial ("z" and "zhuo"); the shorter list may leave out the last words."""
    if not first or not second:
        return False
    for a, b in zip(first, second, strict=False):
        short, long = (a, b) if len(a) <= len(b) else (b, a)
        if a != b and not (len(short) == 1 and long.startswith(short)):
            return False
    return True


def alike(first: tuple[str, str, str], second: tuple[str, str, str]) -> bool:
    """True when two (name, family, given) may name one person: "Z. Jiang", "Jiang, Zhuo",
    "Zhuo Jiang" and "Jiang Zhuo" all may; "Zhuo Jiang" and "Zhou Jiang" may not."""
    fam1, given1 = _family_given(*first)
    fam2, given2 = _family_given(*second)
    if not fam1 or not fam2:
        return False
    if fam1 == fam2 and _initials_agree(given1, given2):
        return True
    # the family name written first, with no comma: "Jiang Zhuo" for "Zhuo Jiang"
    return given1 == [fam2] and given2 == [fam1]


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
        .join(Paper, Paper.id == BatchPaper.paper_id)
        .where(
            or_(Person.seen_import.is_(None), Person.seen_import < latest.c.import_id),
            BatchPaper.action == "added",
            Paper.trashed_at.is_(None),
        )
        .group_by(latest.c.owner_id)
    )
    return {int(pid): int(n) for pid, n in session.execute(stmt)}


def _page_counts(session: Session) -> dict[int, int]:
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
    person both wrote and owns (0.1 s for 450,000 authorships).
    """
    counts: Counter[int] = Counter()
    trash = select(Paper.id).where(Paper.trashed_at.is_not(None))
    for table in (Authorship, Attribution):
        whole = select(table.person_id, func.count()).group_by(table.person_id)
        binned = select(table.person_id).join(Paper, Paper.id == table.paper_id)
        binned = binned.where(Paper.trashed_at.is_not(None))
        if people is not None:
            whole = whole.where(table.person_id.in_(list(people)))
            binned = binned.where(table.person_id.in_(list(people)))
        counts.update({int(pid): int(n) for pid, n in session.execute(whole)})
        counts.subtract(int(pid) for (pid,) in session.execute(binned))
    both = (
        select(Attribution.person_id)
        .join(
            Authorship,
            (Authorship.paper_id == Attribution.paper_id)
            & (Authorship.person_id == Attribution.person_id),
        )
        .where(Attribution.paper_id.not_in(trash))
    )
    if people is not None:
        both = both.where(Attribution.person_id.in_(list(people)))
    counts.subtract(int(pid) for (pid,) in session.execute(both))
    return {pid: n for pid, n in counts.items() if n > 0}


def _named_like(session: Session, text: str) -> list[int] | None:
    """The people whose names contain ``text`` (accents and case ignored); None for any."""
    wanted = person_key(text)
    if not wanted:
        return None
    escaped = wanted.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    stmt = select(Person.id).where(Person.key.like(f"%{escaped}%", escape="\\"))
    return [int(i) for (i,) in session.execute(stmt)]


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
    top = heapq.nsmallest(limit, counts.items(), key=lambda item: (-item[1], item[0]))
    ids = [pid for pid, _ in top]
    names: dict[int, str] = {}
    for part in chunks(ids):
        rows = session.execute(select(Person.id, Person.name).where(Person.id.in_(part)))
        names.update((int(pid), str(name)) for pid, name in rows)
    pages = _page_counts(session)
    new = new_papers(session, [pid for pid in ids if pid in pages])
    found = [
        PersonView(pid, names[pid], n, new=new.get(pid, 0), pages=pages.get(pid, 0))
        for pid, n in top
    ]
    found.sort(key=lambda p: (-p.count, p.name.lower(), p.id))
    return found, len(counts)


def followed(session: Session) -> list[PersonView]:
    """The people pages were imported for (the sidebar's People), by name, each with their
    papers, new papers and pages."""
    pages = _page_counts(session)
    if not pages:
        return []
    counts = paper_counts(session, sorted(pages))
    stmt = (
        select(Person.id, Person.name)
        .where(Person.id.in_(sorted(counts)))
        .order_by(func.lower(Person.name), Person.id)
    )
    new = new_papers(session, pages)
    return [
        PersonView(pid, name, counts[pid], new=new.get(pid, 0), pages=pages[pid])
        for pid, name in session.execute(stmt)
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
        .join(Paper, Paper.id == Authorship.paper_id)
        .where(Paper.trashed_at.is_(None), Authorship.person_id != person_id)
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
    person = person_view(session, search, person_id)
    if person is None:
        return None
    return PersonPage(
        person=person,
        pages=tuple(_pages(session, person_id)),
        coauthors=tuple(_coauthors(session, person_id, COAUTHORS_SHOWN)),
        variants=tuple(variants_of(session, [person_id])),
    )


# -- name variants ----------------------------------------------------------------------------


def _told_apart(session: Session, ids: Iterable[int]) -> set[tuple[int, int]]:
    wanted = list(ids)
    rows = session.execute(
        select(DistinctPeople.first_id, DistinctPeople.second_id).where(
            or_(DistinctPeople.first_id.in_(wanted), DistinctPeople.second_id.in_(wanted))
        )
    )
    return {(int(a), int(b)) for a, b in rows}


def _links(session: Session, ids: Sequence[int]) -> dict[int, tuple[set[int], set[int]]]:
    """Per person: (papers they wrote, papers they wrote or own), outside the Trash."""
    found: dict[int, tuple[set[int], set[int]]] = {i: (set(), set()) for i in ids}
    for part in chunks(ids):
        for table, wrote in ((Authorship, True), (Attribution, False)):
            rows = session.execute(
                select(table.person_id, table.paper_id)
                .join(Paper, Paper.id == table.paper_id)
                .where(table.person_id.in_(part), Paper.trashed_at.is_(None))
            )
            for pid, paper in rows:
                if wrote:
                    found[pid][0].add(paper)
                found[pid][1].add(paper)
    return found


def _coauthor_sets(session: Session, papers: dict[int, set[int]]) -> dict[int, set[int]]:
    """Per person: the people who wrote any of their papers (themselves included)."""
    every = sorted(set().union(*papers.values())) if papers else []
    authors: dict[int, set[int]] = {}
    for part in chunks(every):
        rows = session.execute(
            select(Authorship.paper_id, Authorship.person_id).where(Authorship.paper_id.in_(part))
        )
        for paper, pid in rows:
            authors.setdefault(paper, set()).add(pid)
    return {
        pid: set().union(*(authors.get(p, set()) for p in theirs)) if theirs else set()
        for pid, theirs in papers.items()
    }


def _candidates(session: Session, person_ids: Sequence[int]) -> list[tuple[int, int]]:
    """Pairs (person, other) whose names are alike, for each of these people."""
    people = {
        int(i): (n, f, g)
        for i, n, f, g in session.execute(
            select(Person.id, Person.name, Person.family, Person.given).where(
                Person.id.in_(list(person_ids))
            )
        )
    }
    pairs: list[tuple[int, int]] = []
    for pid, parts in people.items():
        family = _family_given(*parts)[0]
        if not family:
            continue
        pattern = "%" + family.replace("%", "").replace("_", "") + "%"
        rows = session.execute(
            select(Person.id, Person.name, Person.family, Person.given).where(
                Person.key.like(pattern), Person.id != pid, Person.literal.is_(False)
            )
        )
        pairs.extend((pid, int(o)) for o, n, f, g in rows if alike(parts, (n, f, g)))
    return pairs


def variants_of(session: Session, person_ids: Sequence[int]) -> list[NameVariant]:
    """Other spellings of these people's names that may be the same person (see the module
    documentation for the rule), the most overlap first."""
    pairs = {tuple(sorted(p)) for p in _candidates(session, person_ids)}
    pairs -= _told_apart(session, {i for p in pairs for i in p})
    if not pairs:
        return []
    ids = sorted({i for p in pairs for i in p})
    links = _links(session, ids)
    coauthors = _coauthor_sets(session, {i: links[i][1] for i in ids})
    names = dict(session.execute(select(Person.id, Person.name).where(Person.id.in_(ids))).all())
    found: list[NameVariant] = []
    for a, b in sorted(pairs):
        (wrote_a, all_a), (wrote_b, all_b) = links[a], links[b]
        if wrote_a & wrote_b:
            continue  # two authors of one paper are two people
        overlap = len(all_a & all_b) + len((coauthors[a] & coauthors[b]) - {a, b})
        if not overlap:
            continue
        views = sorted(
            (PersonView(i, names[i], len(links[i][1])) for i in (a, b)),
            key=lambda v: (-v.count, v.id),
        )
        found.append(NameVariant(views[0], views[1], overlap))
    return sorted(found, key=lambda v: (-v.overlap, v.first.name.lower(), v.second.id))


def owner_ids(session: Session) -> list[int]:
    """The people pages were imported for."""
    stmt = select(ImportBatch.owner_id).where(ImportBatch.owner_id.is_not(None)).distinct()
    return sorted(int(i or 0) for (i,) in session.execute(stmt))


def all_variants(session: Session) -> list[NameVariant]:
    """Proposals for the people followed (the page owners): other spellings of their names."""
    return variants_of(session, owner_ids(session))
