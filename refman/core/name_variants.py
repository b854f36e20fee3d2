"""Spellings of one person's name that should be one person: the rule, and the proposals.

Two spellings are proposed as one person (:func:`variants_of`) when the family names are
the same (an apostrophe or a hyphen written either way: "O’Brien" and "O'Brien") and the
given names agree as initials ("Z." and "Zhuo", or "Jiang Zhuo" written the other way
round), they never wrote a paper together, and their papers overlap (a paper
in common, or a co-author in common). Accents and case never make two people: the person
key (:func:`refman.common.text.person_key`) folds them, so "José" and "Jose" are one person
from the start. Proposals are looked for around given people: the page owners for the
People window, one person for their page.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from refman.common.text import PLAIN_MARKS, person_key
from refman.core.people import new_papers, page_counts
from refman.core.values import NameVariant, PersonView
from refman.importers.names import name_parts
from refman.store.bulk import chunks
from refman.store.models import Attribution, Authorship, DistinctPeople, ImportBatch, Person
from refman.store.models_upkeep import in_trash
from refman.store.plain_text import escape_like

# -- the rule: which spellings may be one person -------------------------------------------


def _plain_key(name: str) -> str:
    """A name's person key with its apostrophes and hyphens written plain: "O’Brien" (as a
    web page writes it) is "O'Brien" (as a bibliography does), "Jean‐Pierre" "Jean-Pierre"."""
    return person_key(name.translate(PLAIN_MARKS))


def _given_words(given: str) -> list[str]:
    return _plain_key(given).replace("-", " ").split()


def _family_given(name: str, family: str, given: str) -> tuple[str, list[str]]:
    """The folded family name and given-name words of a person (parts split from the name
    when the source gave none)."""
    if not family:
        parts = name_parts(name)
        family, given = parts.family, parts.given
    return _plain_key(family), _given_words(given)


def _family_like(family: str) -> str:
    """A ``LIKE`` pattern (escaped by a backslash) of the keys holding a folded family name,
    an apostrophe or a hyphen in it written either way (:func:`_plain_key`)."""
    return "%" + escape_like(family).replace("'", "_").replace("-", "_") + "%"


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
    "Zhuo Jiang" and "Jiang Zhuo" all may, as "Xiao-Ming Li" and "Xiaoming Li" (a given name
    of two syllables written with a hyphen, a space or neither); "Zhuo Jiang" and "Zhou
    Jiang" may not."""
    fam1, given1 = _family_given(*first)
    fam2, given2 = _family_given(*second)
    if not fam1 or not fam2:
        return False
    if fam1 == fam2 and (_initials_agree(given1, given2) or "".join(given1) == "".join(given2)):
        return True
    # the family name written first, with no comma: "Jiang Zhuo" for "Zhuo Jiang"
    return given1 == [fam2] and given2 == [fam1]


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
                select(table.person_id, table.paper_id).where(
                    table.person_id.in_(part), in_trash(table.paper_id, False)
                )
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
        rows = session.execute(
            select(Person.id, Person.name, Person.family, Person.given).where(
                Person.key.like(_family_like(family), escape="\\"),
                Person.id != pid,
                Person.literal.is_(False),
            )
        )
        pairs.extend((pid, int(o)) for o, n, f, g in rows if alike(parts, (n, f, g)))
    return pairs


def _views(session: Session, counts: dict[int, int]) -> dict[int, PersonView]:
    """These people (with their paper counts) as the People list shows them: with the
    pages imported for them and their new papers."""
    ids = sorted(counts)
    names = dict(session.execute(select(Person.id, Person.name).where(Person.id.in_(ids))).all())
    pages = {i: n for i, n in page_counts(session).items() if i in counts}
    new = new_papers(session, sorted(pages)) if pages else {}
    return {
        i: PersonView(i, names[i], counts[i], new=new.get(i, 0), pages=pages.get(i, 0)) for i in ids
    }


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
    views = _views(session, {i: len(links[i][1]) for i in ids})
    found: list[NameVariant] = []
    for a, b in sorted(pairs):
        (wrote_a, all_a), (wrote_b, all_b) = links[a], links[b]
        if wrote_a & wrote_b:
            continue  # two authors of one paper are two people
        overlap = len(all_a & all_b) + len((coauthors[a] & coauthors[b]) - {a, b})
        if not overlap:
            continue
        two = sorted((views[a], views[b]), key=lambda v: (-v.count, v.id))
        found.append(NameVariant(two[0], two[1], overlap))
    return sorted(found, key=lambda v: (-v.overlap, v.first.name.lower(), v.second.id))


def owner_ids(session: Session) -> list[int]:
    """The people pages were imported for."""
    stmt = select(ImportBatch.owner_id).where(ImportBatch.owner_id.is_not(None)).distinct()
    return sorted(int(i or 0) for (i,) in session.execute(stmt))


def all_variants(session: Session) -> list[NameVariant]:
    """Proposals for the people followed (the page owners): other spellings of their names."""
    return variants_of(session, owner_ids(session))
