"""Which spelling of a person's name refman shows, and people named again when an import
brings a better one.

Spellings that share a person key (:func:`~refman.common.text.person_key`: accents, case,
dots and letters such as ł not counting) are one person. :func:`better_spelling` decides
which of them names the person: the one that writes the name's letters as they are ("José
García" over "Jose Garcia"), whichever came first. An import that brings a better spelling
of someone in the library names them so (:func:`respell`) — their row and its name parts,
the list's author line of the papers they are first author of, the search words of all
their papers — and records what it did, so that undoing or reverting the import gives the
old spelling back (:func:`spell_again`). People cannot be renamed by hand; a merge of two
people keeps the spelling of the one kept, and a page bringing the other spelling again
means that one (``people_ops.with_known_names``): only spellings of the kept one's own key
ever name them better.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import select, union, update
from sqlalchemy.orm import Session

from refman.common.text import latex_to_text, person_key, plain_letters
from refman.core.merge import author_line, sort_author
from refman.core.reading import author_rows
from refman.importers.names import name_parts
from refman.importers.records import PersonName
from refman.store.bulk import chunks
from refman.store.models import Attribution, Authorship, Paper, Person
from refman.store.search import SearchIndex

#: The columns of a person's row that a spelling sets: the name and its parts.
SPELLING = ("name", "family", "given", "particle", "suffix", "literal")
#: What an import records of a person it named again: their id, and their spelling
#: ``before`` and ``after`` it (the values of :data:`SPELLING`), as JSON.
Respelling = dict[str, Any]


def _letters_written(name: str) -> int:
    """How many of a name's letters a plain spelling writes otherwise: letters with accents,
    and letters such as ł, ø, ß (full-width letters and ligatures are the plain letters they
    stand for; Chinese and Japanese letters, kana's voicing marks too, are as they are)."""
    text = unicodedata.normalize("NFKC", latex_to_text(name))
    return sum(1 for c in text if not c.isascii() and plain_letters(c) != c.lower())


def better_spelling(kept: str, offered: str) -> str:
    """The spelling that names a person, of the one they have (``kept``) and another one a
    source gives (``offered``).

    ``offered`` when it is a spelling of the same person (the same person key) that writes
    more of the name's letters as they are — "José García" over "Jose Garcia", "Łukasz" over
    "Lukasz", "Straße" over "Strasse" — and is not in capitals or small letters only where
    ``kept`` is not ("JOSÉ GARCÍA" leaves "Jose Garcia" as it is); else ``kept``: between
    spellings as well written, the first one stays ("J. Garcia" and "J Garcia"). "Mueller"
    is never "Müller": another key, another person.

    Args:
        kept: The spelling the person has (the library's, or the first an import met).
        offered: Another spelling a source gives.

    Returns:
        ``kept`` or ``offered``.
    """
    if offered == kept or person_key(offered) != person_key(kept):
        return kept
    if _letters_written(offered) <= _letters_written(kept):
        return kept
    if (offered.isupper() and not kept.isupper()) or (offered.islower() and not kept.islower()):
        return kept
    return offered


def spelling_of(name: str, parts: PersonName | None = None) -> dict[str, object]:
    """A person's :data:`SPELLING` for a name: the parts its source gave, else those read
    from the name (:func:`~refman.importers.names.name_parts`)."""
    found = parts or name_parts(name)
    return {
        "name": name,
        "family": found.family,
        "given": found.given,
        "particle": found.particle,
        "suffix": found.suffix,
        "literal": found.literal,
    }


def respell(
    session: Session,
    search: SearchIndex,
    names: Mapping[str, str],
    parts: Mapping[str, PersonName],
) -> list[Respelling]:
    """Name the library's people of these keys as an import spelled them better.

    Args:
        names: Person key -> the better spelling (:func:`better_spelling`).
        parts: The name parts the import's sources gave for those spellings.

    Returns:
        What was done, for the import's undo (:func:`spell_again`).
    """
    done: list[Respelling] = []
    columns = [getattr(Person, c) for c in SPELLING]
    for part in chunks(sorted(names)):
        rows = session.execute(select(Person.id, Person.key, *columns).where(Person.key.in_(part)))
        done.extend(
            {
                "id": int(pid),
                "before": dict(zip(SPELLING, spelling, strict=True)),
                "after": spelling_of(names[key], parts.get(key)),
            }
            for pid, key, *spelling in rows
        )
    _rename(session, search, [(r["id"], r["after"]) for r in done])
    return done


def spell_again(
    session: Session, search: SearchIndex, done: Sequence[Respelling], *, back: bool
) -> set[int]:
    """Give people named again by an import the spelling they had before it (``back``: the
    import undone or reverted) or after it (a revert undone) — each only while they have the
    other one. Returns the papers whose people were named again."""
    was, now = ("after", "before") if back else ("before", "after")
    current: dict[int, str] = {}
    for part in chunks(sorted({int(r["id"]) for r in done})):
        rows = session.execute(select(Person.id, Person.name).where(Person.id.in_(part)))
        current.update((int(pid), str(name)) for pid, name in rows)
    due = [(int(r["id"]), r[now]) for r in done if current.get(int(r["id"])) == r[was]["name"]]
    return _rename(session, search, due)


def _rename(
    session: Session, search: SearchIndex, spellings: Sequence[tuple[int, Mapping[str, Any]]]
) -> set[int]:
    """Give people these spellings, with the author lines and search words of their papers
    (the papers touched)."""
    if not spellings:
        return set()
    ids = [pid for pid, _ in spellings]
    touched = _papers_of(session, ids)
    with search.changing(session, touched):
        session.execute(update(Person), [{**spelling, "id": pid} for pid, spelling in spellings])
        author_lines_of(session, ids)
    return touched


def _papers_of(session: Session, person_ids: Iterable[int]) -> set[int]:
    """The papers these people wrote or own a page of."""
    found: set[int] = set()
    for part in chunks(sorted(set(person_ids))):
        wrote = select(Authorship.paper_id).where(Authorship.person_id.in_(part))
        owns = select(Attribution.paper_id).where(Attribution.person_id.in_(part))
        found.update(int(p) for (p,) in session.execute(union(wrote, owns)))
    return found


def author_lines_of(session: Session, person_ids: Sequence[int]) -> None:
    """The list's author line and author sort key of the papers these people are first
    author of, from their names now (as :func:`refman.core.state_io.paper_columns` derives
    them): after a person is named again, or people are merged or split."""
    firsts: list[int] = []
    for part in chunks(sorted(set(person_ids))):
        firsts.extend(
            int(p)
            for (p,) in session.execute(
                select(Authorship.paper_id).where(
                    Authorship.person_id.in_(part), Authorship.position == 0
                )
            )
        )
    for part in chunks(sorted(set(firsts))):
        names: dict[int, list[str]] = {pid: [] for pid in part}
        for paper_id, _, _, name in session.execute(author_rows(part)):
            names[paper_id].append(name)
        complete = session.execute(
            select(Paper.id, Paper.authors_complete).where(Paper.id.in_(part))
        )
        rows = [
            {
                "id": pid,
                "author_line": author_line(names[pid], bool(whole)),
                "sort_author": sort_author(names[pid]),
            }
            for pid, whole in complete
        ]
        if rows:
            session.execute(update(Paper), rows)
