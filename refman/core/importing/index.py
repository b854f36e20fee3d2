"""The match index of one import: the library papers it may find again, and its own records.

:func:`load_index` reads, for the keys of the records being imported, the library papers that
share an exact key (the same paper) or a blocking key (candidates for the near-duplicate
check); records of the import join the index as they are planned, so a record can find an
earlier record of the same import too.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from refman.core.importing.values import RecordRef
from refman.core.matching import MAX_BLOCK, MatchKeys, match_keys
from refman.store.bulk import chunks
from refman.store.models import MatchKey, Paper

#: An existing paper (its id) or an earlier record of the same import.
Target = int | RecordRef

EXACT_KINDS = frozenset({"doi", "arxiv", "title", "abstract"})


@dataclass
class MatchIndex:
    """Match keys of the library papers that concern this import, plus the import's own."""

    exact: dict[tuple[str, str], list[Target]] = field(default_factory=dict)
    blocks: dict[tuple[str, str], list[Target]] = field(default_factory=dict)
    keys_of: dict[Target, MatchKeys] = field(default_factory=dict)
    titles: dict[Target, str] = field(default_factory=dict)

    def add(self, target: Target, keys: MatchKeys, title: str) -> None:
        """Let later records find ``target`` by its keys (a record merged into ``target``
        adds its keys, and its DOI or arXiv id, to the paper's)."""
        for k in keys.exact:
            found = self.exact.setdefault(k, [])
            if target not in found:
                found.append(target)
        for k in keys.blocks:
            bucket = self.blocks.setdefault(k, [])
            if len(bucket) <= MAX_BLOCK:
                bucket.append(target)
        known = self.keys_of.get(target)
        if known is None:
            self.keys_of[target] = keys
        elif (keys.doi and not known.doi) or (keys.arxiv and not known.arxiv):
            self.keys_of[target] = replace(
                known, doi=known.doi or keys.doi, arxiv=known.arxiv or keys.arxiv
            )
        self.titles.setdefault(target, title)

    def exact_match(self, keys: MatchKeys) -> Target | None:
        """The paper or record that shares an exact key with ``keys`` (strongest key first)
        and carries no other DOI or arXiv id, if any."""
        for k in keys.exact:
            for target in self.exact.get(k, ()):
                if not keys.conflicts(self.keys_of[target]):
                    return target
        return None

    def candidates(self, keys: MatchKeys) -> list[tuple[Target, MatchKeys]]:
        """The papers and records sharing a useful blocking key with ``keys``."""
        seen: set[Target] = set()
        found: list[tuple[Target, MatchKeys]] = []
        for k in keys.blocks:
            bucket = self.blocks.get(k, ())
            if len(bucket) > MAX_BLOCK:
                continue  # a key shared by so many papers narrows nothing
            for candidate in bucket:
                if candidate not in seen:
                    seen.add(candidate)
                    found.append((candidate, self.keys_of[candidate]))
        return found


def _stored_hits(
    session: Session, wanted: set[tuple[str, str]], stored: int
) -> dict[tuple[str, str], set[int]]:
    """The library papers holding each wanted key."""
    hits: dict[tuple[str, str], set[int]] = {}
    if stored <= len(wanted):
        # A small library: reading all its keys once beats looking each one up.
        for paper_id, kind, key in session.execute(
            select(MatchKey.paper_id, MatchKey.kind, MatchKey.key)
        ):
            if (kind, key) in wanted:
                hits.setdefault((kind, key), set()).add(paper_id)
        return hits
    by_kind: dict[str, list[str]] = {}
    for kind, key in sorted(wanted):
        by_kind.setdefault(kind, []).append(key)
    for kind, keys in by_kind.items():
        # (kind, key) leads the table's primary key, so each lookup is an index seek.
        for part in chunks(keys):
            for paper_id, key in session.execute(
                select(MatchKey.paper_id, MatchKey.key).where(
                    MatchKey.kind == kind, MatchKey.key.in_(part)
                )
            ):
                hits.setdefault((kind, key), set()).add(paper_id)
    return hits


def load_index(session: Session, all_keys: list[MatchKeys]) -> MatchIndex:
    """The index of the library papers that share a key with any of ``all_keys``."""
    index = MatchIndex()
    stored = session.execute(select(func.count()).select_from(MatchKey)).scalar_one()
    if not stored:
        return index  # a new library: nothing to find again
    wanted = {k for mk in all_keys for k in mk.all_keys()}
    hits = {
        k: pids
        for k, pids in _stored_hits(session, wanted, stored).items()
        if k[0] in EXACT_KINDS or len(pids) <= MAX_BLOCK
    }
    ids = sorted({i for s in hits.values() for i in s})
    papers: dict[int, tuple[str, bool, str, str | None, str | None]] = {}
    for part in chunks(ids):
        for pid, title, provisional, abstract, doi, arxiv in session.execute(
            select(
                Paper.id,
                Paper.title,
                Paper.title_provisional,
                Paper.abstract,
                Paper.doi,
                Paper.arxiv_id,
            ).where(Paper.id.in_(part))
        ):
            papers[pid] = (title, provisional, abstract, doi, arxiv)
    for (kind, key), pids in hits.items():
        for pid in sorted(pids):
            if kind in EXACT_KINDS:
                index.exact.setdefault((kind, key), []).append(pid)
            else:
                index.blocks.setdefault((kind, key), []).append(pid)
            if pid not in index.keys_of:
                index.keys_of[pid] = match_keys(*papers[pid])
                index.titles[pid] = papers[pid][0]
    return index
