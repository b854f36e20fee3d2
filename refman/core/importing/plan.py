"""Planning an import: for every record, whether it is new, already in the library, a possible
duplicate, or repeated within the import. Planning reads the library and changes nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from refman.common.parallel import split_map
from refman.common.text import person_key
from refman.core.importing.index import MatchIndex, Target, load_index
from refman.core.importing.readings import reading_adds
from refman.core.importing.values import (
    ImportPlan,
    PagePlan,
    RecordPlan,
    RecordRef,
    RecordStatus,
    SinceLast,
    SourcedPage,
)
from refman.core.look_alikes import kept_apart
from refman.core.matching import (
    KeysTuple,
    Likeness,
    MatchKeys,
    NameWords,
    as_tuple,
    best_match,
    match_keys,
    name_words,
)
from refman.core.merge import TITLE_ADDED, merge_into
from refman.core.paper_state import PaperState
from refman.core.people_ops import with_known_names
from refman.core.reading_status import UNMARKED, readings
from refman.core.state_io import load_states
from refman.importers.records import ParsedRecord
from refman.store.connection import revision
from refman.store.models import ImportBatch, Person
from refman.store.search import SearchIndex

#: Match keys computed while planning, by (title, title provisional, abstract, DOI, arXiv id).
KeyCache = dict[tuple[str, bool, str, str | None, str | None], MatchKeys]


@dataclass(frozen=True)
class PreparedPlan:
    """A plan made before the write lock was taken, at a revision of the library (see
    :func:`refman.store.connection.revision`): valid while the revision is the same."""

    revision: int
    plan: ImportPlan
    cache: KeyCache
    #: The papers records merge into, as read while planning (untouched by the previews).
    states: dict[int, PaperState]


def prepare_import(
    session: Session, search: SearchIndex, pages: Sequence[SourcedPage]
) -> PreparedPlan:
    """Plan an import in a read transaction, so that other writers need not wait for it."""
    cache: KeyCache = {}
    states: dict[int, PaperState] = {}
    at = revision(session)
    return PreparedPlan(at, plan_import(session, search, pages, cache, states), cache, states)


def current_plan(
    session: Session,
    search: SearchIndex,
    pages: Sequence[SourcedPage],
    prepared: PreparedPlan | None,
    at_lock: int | None,
) -> PreparedPlan:
    """The plan made before the write lock (``prepared``) when the library is as it was
    then (revision ``at_lock``), else a new one."""
    if prepared is not None and prepared.revision == at_lock:
        return prepared
    cache: KeyCache = {}
    states: dict[int, PaperState] = {}
    plan = plan_import(session, search, pages, cache, states)
    return PreparedPlan(at_lock or 0, plan, cache, states)


def plan_import(
    session: Session,
    search: SearchIndex,
    pages: Sequence[SourcedPage],
    cache: KeyCache | None = None,
    states: dict[int, PaperState] | None = None,
) -> ImportPlan:
    """Decide what importing these pages would do, changing nothing.

    Args:
        session: A session to read the library with.
        search: The library's search index (it finds look-alike titles in crowded topics).
        pages: The parsed pages.
        cache: Filled with the match keys computed, so that applying the plan need not
            compute them again.
        states: Filled with the papers records merge into, as read (applying the plan in
            the same transaction, or at the same revision, need not read them again).

    Returns:
        The plan, record by record and page by page.
    """
    cache = {} if cache is None else cache
    pages = with_known_names(session, pages)
    refs = [(pi, ri) for pi, sp in enumerate(pages) for ri in range(len(sp.page.records))]
    idents = [
        (rec.title, rec.title_provisional, rec.abstract, rec.doi, rec.arxiv_id)
        for sp in pages
        for rec in sp.page.records
    ]
    # Every record's keys, half of a large import's on the other core (pure Python; sent
    # back as plain tuples, which pickle four times faster than the dataclass).
    keys = [MatchKeys(*fields) for fields in split_map(_key_fields, idents)]
    cache.update(zip(idents, keys, strict=True))
    index = load_index(session, search, keys)
    records = [pages[pi].page.records[ri] for pi, ri in refs]
    plans = _decide(refs, records, keys, index)
    plans = _with_merge_previews(session, pages, plans, {} if states is None else states)
    last = last_imports(session, [sp.page.owner for sp in pages])
    return ImportPlan(pages=tuple(_page_plans(pages, plans, last)), records=tuple(plans))


def _key_fields(ident: tuple[str, bool, str, str | None, str | None]) -> KeysTuple:
    return as_tuple(match_keys(*ident))


def last_imports(session: Session, owners: Sequence[str]) -> dict[str, datetime]:
    """When each of these page owners' pages was last imported (by person key; owners never
    imported are left out)."""
    keys = sorted({person_key(o) for o in owners if o})
    if not keys:
        return {}
    rows = session.execute(
        select(Person.key, func.max(ImportBatch.imported_at))
        .join(ImportBatch, ImportBatch.owner_id == Person.id)
        .where(Person.key.in_(keys))
        .group_by(Person.key)
    )
    return {str(k): at for k, at in rows if at is not None}


def since_last(date: datetime, plans: Sequence[RecordPlan]) -> SinceLast:
    """A page's records compared with the last import of its owner's page (possible
    duplicates count as new: the user decides)."""
    merges = [p for p in plans if p.status is RecordStatus.MERGE]
    titled = sum(TITLE_ADDED in p.adds for p in merges)
    return SinceLast(
        date=date,
        new=sum(p.status in (RecordStatus.NEW, RecordStatus.POSSIBLE_DUPLICATE) for p in plans),
        titled=titled,
        updated=sum(bool(p.adds) for p in merges) - titled,
        unchanged=sum(not p.adds for p in merges),
    )


def _decide(
    refs: Sequence[RecordRef],
    records: Sequence[ParsedRecord],
    keys: Sequence[MatchKeys],
    index: MatchIndex,
) -> list[RecordPlan]:
    """Every record's plan, in order: each record is matched against the library and the
    records before it, then joins the index for the records after it.

    Whether a record finds a paper by an exact key, and how it joins the index, never
    depends on the look-alike comparisons (a look-alike record joins as itself, like a new
    one). So the index is walked first, keeping each record's candidates as they stood at
    its turn, and the comparisons (rapidfuzz: most of the time) run after, half of a long
    list's on the other core.
    """
    exact: list[Target | None] = []
    compared: list[_Compared] = []
    compared_at: list[int] = []
    for i, (ref, record, mk) in enumerate(zip(refs, records, keys, strict=True)):
        # (an "et al." list may name other authors of the same paper: it vetoes nothing)
        people = name_words(map(person_key, record.authors)) if record.authors_complete else _NOBODY
        target = index.exact_match(mk, people)
        exact.append(target)
        if target is not None:
            index.add(target, mk, index.titles.get(target, record.title), people)
            continue
        if candidates := index.candidates(mk, people):
            compared.append((mk, candidates, index.openers(mk, people)))
            compared_at.append(i)
        index.add(ref, mk, record.title, people)
    found: list[tuple[Likeness[Target], bool] | None] = [None] * len(refs)
    for i, best in zip(compared_at, split_map(_best_of, compared), strict=True):
        found[i] = best
    return [
        _plan(ref, record, target, best, index)
        for ref, record, target, best in zip(refs, records, exact, found, strict=True)
    ]


_NOBODY: NameWords = frozenset()

#: A record's keys, its candidates and those of them whose abstract starts alike.
_Compared = tuple[MatchKeys, list[tuple[Target, MatchKeys]], list[tuple[Target, MatchKeys]]]


def _best_of(compared: _Compared) -> tuple[Likeness[Target], bool] | None:
    """A record's most similar look-alike, and whether it is better kept apart from it."""
    best = best_match(*compared)
    if best is None:
        return None
    keys, candidates, _ = compared
    other = next((k for target, k in candidates if target == best[1]), None)
    return best, not best[2] and other is not None and kept_apart(keys, other)


def _plan(
    ref: RecordRef,
    record: ParsedRecord,
    exact: Target | None,
    found: tuple[Likeness[Target], bool] | None,
    index: MatchIndex,
) -> RecordPlan:
    """A record's plan from its exact match, else its most similar look-alike."""
    if exact is not None:
        status = RecordStatus.MERGE if isinstance(exact, int) else RecordStatus.REPEAT
        return _targeted(ref, record, status, exact, index)
    if found is not None:
        (score, look_alike, cut_short), apart = found
        plan = _targeted(ref, record, RecordStatus.POSSIBLE_DUPLICATE, look_alike, index, score)
        return replace(plan, cut_short=cut_short, apart=apart)
    return RecordPlan(ref=ref, record=record, status=RecordStatus.NEW)


def _targeted(
    ref: RecordRef,
    record: ParsedRecord,
    status: RecordStatus,
    target: Target,
    index: MatchIndex,
    score: float | None = None,
) -> RecordPlan:
    return RecordPlan(
        ref=ref,
        record=record,
        status=status,
        target_id=target if isinstance(target, int) else None,
        target_ref=target if isinstance(target, tuple) else None,
        target_title=index.titles.get(target),
        similarity=score,
    )


def _with_merge_previews(
    session: Session,
    pages: Sequence[SourcedPage],
    plans: list[RecordPlan],
    states: dict[int, PaperState],
) -> list[RecordPlan]:
    """Add to each merge what it would add to its paper as the paper is now (the papers read
    are left in ``states``, unchanged)."""
    merge_ids = [p.target_id for p in plans if p.status is RecordStatus.MERGE and p.target_id]
    states.update(load_states(session, merge_ids))
    marks = readings(session, merge_ids) if any(_marks(p.record) for p in plans) else {}
    final: list[RecordPlan] = []
    for p in plans:
        state = states.get(p.target_id) if p.status is RecordStatus.MERGE and p.target_id else None
        if state is not None:
            owner = pages[p.ref[0]].page.owner or None
            adds = merge_into(
                state.copy(),
                p.record,
                person_key(owner) if owner else None,
                owner,
                [person_key(a) for a in p.record.authors],
            )
            adds += reading_adds(marks.get(state.id, UNMARKED), p.record)
            p = RecordPlan(
                ref=p.ref,
                record=p.record,
                status=p.status,
                target_id=p.target_id,
                target_title=p.target_title,
                adds=tuple(adds),
                target_in_trash=state.trashed_at is not None,
            )
        final.append(p)
    return final


def _marks(record: ParsedRecord) -> bool:
    """True when a record gives a reading status or stars."""
    return record.status is not None or record.rating is not None


def _page_plans(
    pages: Sequence[SourcedPage], plans: list[RecordPlan], last: dict[str, datetime]
) -> list[PagePlan]:
    out = []
    for pi, sp in enumerate(pages):
        mine = [p for p in plans if p.ref[0] == pi]
        date = last.get(person_key(sp.page.owner)) if sp.page.owner else None
        out.append(
            PagePlan(
                source=sp.source,
                owner=sp.page.owner,
                format=str(sp.page.format),
                claimed=sp.page.claimed,
                parsed=len(sp.page.records),
                new=sum(p.status is RecordStatus.NEW for p in mine),
                merge=sum(p.status in (RecordStatus.MERGE, RecordStatus.REPEAT) for p in mine),
                possible_duplicates=sum(p.status is RecordStatus.POSSIBLE_DUPLICATE for p in mine),
                warnings=tuple(sp.page.warnings),
                since_last=since_last(date, mine) if date is not None else None,
            )
        )
    return out
