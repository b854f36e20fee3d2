"""The match index of one import: the library papers it may find again, and its own records.

:func:`load_index` reads, for the keys of the records being imported, the library papers that
share an exact key (the same paper) or a blocking key (candidates for the near-duplicate
check); records of the import join the index as they are planned, so a record can find an
earlier record of the same import too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from itertools import chain

from sqlalchemy import BigInteger, cast, select
from sqlalchemy.orm import Session, aliased

from refman.core.importing.values import RecordRef
from refman.core.matching import (
    MAX_BLOCK,
    MatchKeys,
    NameWords,
    distinctive_title_words,
    identifiers,
    may_be_one_paper,
    name_words,
    title_blocks,
)
from refman.core.merged_keys import merged_authors, merged_ids, still_merged
from refman.core.stored_keys import stored_match_keys
from refman.store.bulk import chunks, id_set, id_values
from refman.store.models import KEY_KINDS, Authorship, MatchBlock, Paper, Person
from refman.store.models_upkeep import MergedKey, PurgingPaper
from refman.store.search import SearchIndex

#: How many records of one import may look for look-alike titles in the search index.
MAX_NEIGHBOUR_LOOKUPS = 200
#: How many look-alike titles one lookup brings.
NEIGHBOURS = 20

#: An existing paper (its id) or an earlier record of the same import.
Target = int | RecordRef


@dataclass
class MatchIndex:
    """Match keys of the library papers that concern this import, plus the import's own."""

    #: (kind, hashed key) -> the papers or records with that key, and the key's text.
    exact: dict[tuple[str, int], list[tuple[Target, str]]] = field(default_factory=dict)
    blocks: dict[int, list[Target]] = field(default_factory=dict)
    keys_of: dict[Target, MatchKeys] = field(default_factory=dict)
    titles: dict[Target, str] = field(default_factory=dict)
    #: The words of the authors' names (see :func:`~refman.core.matching.may_be_one_paper`).
    people: dict[Target, NameWords] = field(default_factory=dict)

    def add(
        self, target: Target, keys: MatchKeys, title: str, people: NameWords = frozenset()
    ) -> None:
        """Let later records find ``target`` by its keys (a record merged into ``target``
        adds its keys, its DOI or arXiv id and its authors' names to the paper's)."""
        if people:
            self.people[target] = self.people.get(target, frozenset()) | people
        for kind, key in keys.exact:
            found = self.exact.setdefault((kind, key), [])
            entry = (target, keys.value(kind) or "")
            if entry not in found:
                found.append(entry)
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

    def exact_match(self, keys: MatchKeys, people: NameWords = frozenset()) -> Target | None:
        """The paper or record that shares an exact key with ``keys`` (strongest key first;
        the key's text itself must be the same) and carries no other DOI or arXiv id; by
        title or abstract alone, only one whose authors may be the same (``people``)."""
        for kind, key in keys.exact:
            wanted = keys.value(kind)
            named = kind in _BY_TEXT
            for target, text in self.exact.get((kind, key), ()):
                if text != wanted or keys.conflicts(self.keys_of[target]):
                    continue
                if not named or may_be_one_paper(people, self.people.get(target, _NOBODY)):
                    return target
        return None

    def candidates(
        self, keys: MatchKeys, people: NameWords = frozenset()
    ) -> list[tuple[Target, MatchKeys]]:
        """The papers and records sharing a useful blocking key with ``keys``, but for those
        whose authors cannot be the same (``people``)."""
        buckets = [b for k in keys.blocks if (b := self.blocks.get(k))]
        # a key shared by more than MAX_BLOCK papers narrows nothing
        useful = [b for b in buckets if len(b) <= MAX_BLOCK]
        return self._comparable(dict.fromkeys(chain.from_iterable(useful)), people)

    def openers(
        self, keys: MatchKeys, people: NameWords = frozenset()
    ) -> list[tuple[Target, MatchKeys]]:
        """The papers and records whose abstract starts with the same words as ``keys``'s
        (its opening key: a useful one, see :meth:`candidates`)."""
        bucket = self.blocks.get(keys.opening) if keys.opening is not None else None
        if not bucket or len(bucket) > MAX_BLOCK:
            return []
        return self._comparable(dict.fromkeys(bucket), people)

    def _comparable(
        self, found: Iterable[Target], people: NameWords
    ) -> list[tuple[Target, MatchKeys]]:
        keys_of = self.keys_of
        if not people:
            return [(c, keys_of[c]) for c in found]
        theirs = self.people
        return [(c, keys_of[c]) for c in found if may_be_one_paper(people, theirs.get(c, _NOBODY))]


#: The exact keys of a text (not an identifier): a title or an abstract two papers by
#: different people may share ("Introduction", "No abstract available").
_BY_TEXT = frozenset({"title", "abstract"})
_NOBODY: NameWords = frozenset()


_KEY_COLUMNS = {kind: getattr(Paper, f"{kind}_key") for kind in KEY_KINDS}


#: The texts of the keys a paper holds for papers merged into it: (kind, key, paper) -> text.
Aliases = dict[tuple[str, int, int], str]


def _exact_hits(
    session: Session, all_keys: list[MatchKeys]
) -> tuple[dict[tuple[str, int], set[int]], Aliases]:
    """The library papers holding each exact key wanted (an index seek per chunk), the keys
    of papers merged into them included (with their texts)."""
    wanted: dict[str, set[int]] = {}
    for mk in all_keys:
        for kind, key in mk.exact:
            wanted.setdefault(kind, set()).add(key)
    hits: dict[tuple[str, int], set[int]] = {}
    aliases: Aliases = {}
    merges = session.scalar(select(MergedKey.key).limit(1)) is not None
    for kind, keys in wanted.items():
        column = _KEY_COLUMNS[kind]
        for part in chunks(sorted(keys)):
            for paper_id, key in session.execute(select(Paper.id, column).where(column.in_(part))):
                hits.setdefault((kind, key), set()).add(paper_id)
            if not merges:
                continue
            merged = select(MergedKey.paper_id, MergedKey.key, MergedKey.value).where(
                MergedKey.kind == kind, MergedKey.key.in_(part), still_merged()
            )
            for paper_id, key, value in session.execute(merged):
                hits.setdefault((kind, key), set()).add(paper_id)
                aliases[(kind, key, paper_id)] = value
    return hits, aliases


def _block_hits(
    session: Session, all_keys: list[MatchKeys]
) -> tuple[dict[int, set[int]], set[int]]:
    """The library papers holding each blocking key wanted, and the keys held by too many
    papers to narrow anything (left out of the hits)."""
    wanted = sorted({k for mk in all_keys for k in mk.blocks})
    hits: dict[int, set[int]] = {}
    if wanted:
        # One statement: for each key, at most MAX_BLOCK + 1 papers leave the database (a
        # key of a crowded topic may be shared by tens of thousands of papers), each key a
        # short range of the key table's primary key (a window over the rows of every key
        # took 1.6 s for 20,000 records at a million papers, this 0.07 s).
        wanted_keys = id_values(wanted).alias("wanted")
        key = cast(wanted_keys.c.value, BigInteger)
        other = aliased(MatchBlock)
        first = select(other.paper_id).where(other.key == key).limit(MAX_BLOCK + 1)
        stmt = (
            select(MatchBlock.key, MatchBlock.paper_id)
            .select_from(wanted_keys)
            .join(MatchBlock, MatchBlock.key == key)
            .where(MatchBlock.paper_id.in_(first))
        )
        for found, paper_id in session.execute(stmt):
            hits.setdefault(found, set()).add(paper_id)
    crowded = {k for k, pids in hits.items() if len(pids) > MAX_BLOCK}
    return {k: pids for k, pids in hits.items() if k not in crowded}, crowded


def _neighbours(
    session: Session,
    search: SearchIndex,
    all_keys: list[MatchKeys],
    exact: dict[tuple[str, int], set[int]],
    blocks: dict[int, set[int]],
    crowded: set[int],
) -> None:
    """Candidates for the records whose blocking keys all sit in crowded blocks (a library
    of one topic, where dozens of titles share their distinctive words): the papers whose
    titles hold all the record's distinctive title words but one, from the search index,
    filed under a key of the record's title. The first :data:`MAX_NEIGHBOUR_LOOKUPS` such
    records of an import are looked up (milliseconds each), so a huge import stays fast."""
    looked_up = 0
    for keys in all_keys:
        if looked_up >= MAX_NEIGHBOUR_LOOKUPS:
            return
        if keys.title is None or any(kind_key in exact for kind_key in keys.exact):
            continue  # (a record found by an exact key is that paper)
        by_title = title_blocks(keys.title)
        if any(k in blocks for k in by_title):
            continue  # its title's own keys find look-alikes (its abstract's say nothing)
        first = next((k for k in by_title if k in crowded), None)
        if first is None:
            continue  # no key of its title is crowded: the paper is simply new
        words = distinctive_title_words(keys.title)
        if len(words) < 3:
            continue  # too few words to tolerate a typo in one of them
        looked_up += 1
        found = search.similar_titles(session, words, NEIGHBOURS)
        # Filed under a key of its title no paper has, when there is one: a crowded key
        # shared by other records that look up their own neighbours would soon hold more
        # than MAX_BLOCK of them, and be passed over.
        home = next((k for k in by_title if k not in crowded), first)
        blocks.setdefault(home, set()).update(found)


def _paper_keys(session: Session, ids: list[int]) -> dict[int, tuple[MatchKeys, str]]:
    """The match texts and title of these papers, from their stored fields (their keys were
    found in the library: they need not be worked out again)."""
    rows = stored_match_keys(session, ids, keyed=False)
    return {pid: (keys, title) for pid, title, keys in rows}


def _comparable(
    session: Session,
    all_keys: list[MatchKeys],
    exact: dict[tuple[str, int], set[int]],
    blocks: dict[int, set[int]],
) -> list[int]:
    """The papers found that some record finding them may be the same paper as: a paper whose
    DOI or arXiv id differs from those of every record that found it is never merged with nor
    compared, so its texts are not read (a library of a million papers where titles repeat —
    "Introduction", "Editorial" — read 263,000 papers' texts for 20,000 records: 16 s)."""
    comparable: set[int] = set()
    finders: dict[int, list[MatchKeys]] = {}
    for mk in all_keys:
        found = [
            *(p for kind_key in mk.exact for p in exact.get(kind_key, ())),
            *(p for k in mk.blocks for p in blocks.get(k, ())),
        ]
        if not (mk.doi or mk.arxiv):
            comparable.update(found)  # a record without identifiers conflicts with none
        else:
            for pid in found:
                finders.setdefault(pid, []).append(mk)
    doubtful = sorted(set(finders) - comparable)
    if doubtful:
        rows = session.execute(
            select(Paper.id, Paper.doi, Paper.arxiv_id).where(Paper.id.in_(id_set(doubtful)))
        )
        for pid, doi, arxiv in rows:
            paper = identifiers(doi, arxiv)
            if not all(mk.conflicts(paper) for mk in finders[pid]):
                comparable.add(pid)
    return sorted(comparable)


def _findable(session: Session, found: list[int]) -> list[int]:
    """These papers but those an import never finds: a paper being deleted after an undone
    import, a paper merged into another (the other one is found by its keys)."""
    if not found:
        return found
    gone = set(session.execute(select(PurgingPaper.paper_id)).scalars())
    gone.update(session.execute(merged_ids()).scalars())
    return [pid for pid in found if pid not in gone]


def load_index(session: Session, search: SearchIndex, all_keys: list[MatchKeys]) -> MatchIndex:
    """The index of the library papers that share a key with any of ``all_keys``."""
    index = MatchIndex()
    if session.scalar(select(Paper.id).limit(1)) is None:
        return index  # a new library: nothing to find again
    exact, aliases = _exact_hits(session, all_keys)
    blocks, crowded = _block_hits(session, all_keys)
    if crowded:
        _neighbours(session, search, all_keys, exact, blocks, crowded)
    found = _comparable(session, all_keys, exact, blocks)
    papers = _paper_keys(session, _findable(session, found))
    for (kind, key), pids in exact.items():
        for pid in sorted(pids):
            if pid in papers:
                text = aliases.get((kind, key, pid)) or papers[pid][0].value(kind) or ""
                index.exact.setdefault((kind, key), []).append((pid, text))
    for key, pids in blocks.items():
        index.blocks[key] = sorted(p for p in pids if p in papers)
    for pid, (keys, title) in papers.items():
        index.keys_of[pid] = keys
        index.titles[pid] = title
    for pid, words in _paper_people(session, list(papers)).items():
        index.people[pid] = words
    return index


def _paper_people(session: Session, ids: list[int]) -> dict[int, NameWords]:
    """The words of these papers' authors' names, for those whose author list is complete
    (an "et al." list may lack the names another record gives). A paper others were merged
    into has their authors' words too (the person said they are one paper, whatever script
    or spelling each names its authors in), also once those were deleted for good."""
    words = _people_of(session, ids)
    for pid, lists in merged_authors(session, ids).items():
        if pid in words:
            words[pid] = words[pid].union(*map(name_words, lists))
    return words


def _people_of(session: Session, ids: list[int]) -> dict[int, NameWords]:
    """The words of these papers' authors' names, for those whose author list is complete."""
    keys: dict[int, list[str]] = {}
    if ids:
        rows = session.execute(
            select(Authorship.paper_id, Person.key)
            .join(Person, Person.id == Authorship.person_id)
            .join(Paper, Paper.id == Authorship.paper_id)
            .where(Authorship.paper_id.in_(id_set(ids)), Paper.authors_complete.is_(True))
        )
        for pid, key in rows:
            keys.setdefault(pid, []).append(key)
    return {pid: name_words(found) for pid, found in keys.items()}
