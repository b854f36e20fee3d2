"""The match keys of papers as stored: worked out again from their fields, their blocking
keys written (when a paper comes or changes) and deleted (when it changes or goes)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial

from sqlalchemy import Text, delete, func, select, type_coerce
from sqlalchemy.orm import Session

from refman.common.parallel import split_map
from refman.core.matching import KeysTuple, MatchKeys, as_tuple, match_keys, opening_key
from refman.store.bulk import UNSYNCHRONIZED, chunks, id_set, insert_values, raw_rows, run_many
from refman.store.models import MatchBlock, Paper
from refman.store.packed import unpack


def stored_match_keys(
    session: Session, paper_ids: Sequence[int] | None = None, *, keyed: bool = True
) -> list[tuple[int, str, MatchKeys]]:
    """Each paper's id, title and match keys, worked out from its stored fields (every paper
    when ``paper_ids`` is None); ``keyed=False``: its texts only (see :func:`match_keys`)."""
    # (the abstract as stored: unpacked by the work split below, not here)
    stored = type_coerce(Paper.abstract, Text)
    source = select(
        Paper.id, Paper.title, Paper.title_provisional, stored, Paper.doi, Paper.arxiv_id
    )
    queries = (
        [source]
        if paper_ids is None
        else [source.where(Paper.id.in_(part)) for part in chunks(paper_ids)]
    )
    rows: list[_Stored] = [
        (pid, title, provisional, abstract, doi, arxiv)
        for query in queries
        for pid, title, provisional, abstract, doi, arxiv in session.execute(query)
    ]
    # Pure Python (normalizing titles and abstracts): many papers' half on the other core,
    # sent back as plain tuples.
    worked = split_map(partial(_worked, keyed), rows)
    return [(row[0], row[1], MatchKeys(*fields)) for row, fields in zip(rows, worked, strict=True)]


#: A paper's id, title, provisional mark, abstract (packed), DOI and arXiv id, as stored.
_Stored = tuple[int, str, bool, str | bytes | None, str | None, str | None]


def _worked(keyed: bool, row: _Stored) -> KeysTuple:
    _, title, provisional, abstract, doi, arxiv = row
    return as_tuple(match_keys(title, provisional, unpack(abstract), doi, arxiv, keyed=keyed))


#: What a paper's match keys are worked out from (see :func:`match_keys`).
KeyFields = tuple[str, bool, str | None, str | None, str | None]


def keys_unchanged(session: Session, fields: dict[int, KeyFields]) -> set[int]:
    """The papers whose stored title, its provisional mark, abstract, DOI and arXiv id are
    these: their match keys, and so their blocking keys, stay as they are (an undo that
    puts back 2,400 papers an import merged into spent a quarter of a second deleting and
    writing again the blocking keys of papers whose texts it did not change)."""
    same: set[int] = set()
    source = select(
        Paper.id, Paper.title, Paper.title_provisional, Paper.abstract, Paper.doi, Paper.arxiv_id
    )
    for part in chunks(sorted(fields)):
        for pid, *stored in session.execute(source.where(Paper.id.in_(part))):
            if tuple(stored) == fields[pid]:
                same.add(pid)
    return same


#: Deleting the blocking keys of more than 1/BLOCK_SCAN of the library's papers reads the
#: whole key table once (0.1 s for 100,000 papers) instead of working out each paper's keys
#: again from its text (about 90 microseconds a paper).
BLOCK_SCAN = 64

#: Up to this many papers, their keys are always worked out again (both ways are quick).
FEW = 16


#: Where a blocking key sits in the one number that holds it with its paper's id (above any
#: id SQLite gives).
_KEY_SHIFT = 63
_ID_MASK = (1 << _KEY_SHIFT) - 1


def remember_blocks(session: Session, papers: Iterable[tuple[int, Iterable[int]]]) -> None:
    """Write blocking keys, given as (paper id, its keys), in the key table's order (each
    insert lands beside the last: at a million papers 120,000 keys went in in 0.13 s where
    their hash order took 0.21 s). Each pair is sorted as one number, the key above the id
    (350,000 pairs: 0.35 s where sorting them as tuples took 0.55 s)."""
    joined = sorted({(key << _KEY_SHIFT) | pid for pid, keys in papers for key in keys})
    rows = [(j >> _KEY_SHIFT, j & _ID_MASK) for j in joined]
    insert_values(session, MatchBlock, ("key", "paper_id"), rows)


def forget_blocks(session: Session, paper_ids: Sequence[int]) -> None:
    """Delete the blocking keys of these papers.

    The key table is ordered by key (that is how imports look keys up), so the keys of a few
    papers are worked out again from their stored fields and deleted one by one; the keys
    of many papers are found by reading the table once.
    """
    if not paper_ids:
        return
    few = len(paper_ids) <= FEW  # (an edit: not worth asking how large the library is)
    if not few and len(paper_ids) * BLOCK_SCAN > (session.scalar(select(func.max(Paper.id))) or 0):
        session.execute(
            delete(MatchBlock).where(MatchBlock.paper_id.in_(id_set(paper_ids))),
            execution_options=UNSYNCHRONIZED,
        )
        return
    for part in chunks(paper_ids):
        pairs = [(k, pid) for pid, _, keys in stored_match_keys(session, part) for k in keys.blocks]
        if pairs:
            run_many(session, "DELETE FROM match_blocks WHERE key = ? AND paper_id = ?", pairs)


#: Papers read at a time by :func:`remember_openings` (their abstracts and keys in memory).
OPENING_BATCH = 50_000


def remember_openings(session: Session) -> int:
    """Write the key of every paper's abstract opening (see
    :data:`refman.core.matching.OPENING_WORDS`), for a library written before there were
    such keys; a batch of papers at a time, half of each on the other core. How many papers
    have one."""
    stored = type_coerce(Paper.abstract, Text)  # (unpacked by the work split below)
    last, found = 0, 0
    while True:
        query = select(Paper.id, stored).where(Paper.id > last, Paper.abstract.is_not(None))
        rows = raw_rows(session, query.order_by(Paper.id).limit(OPENING_BATCH))
        if not rows:
            return found
        last = rows[-1][0]
        openings = split_map(_opening_of, [abstract for _, abstract in rows])
        papers = [
            (row[0], (key,)) for row, key in zip(rows, openings, strict=True) if key is not None
        ]
        remember_blocks(session, papers)
        found += len(papers)


def _opening_of(abstract: str | bytes) -> int | None:
    return opening_key(unpack(abstract))
