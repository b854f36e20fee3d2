"""Importing parsed author pages into the library: plan, apply, undo.

:func:`plan_import` decides, record by record, whether the paper is new, already in the
library (merge), near-identical to one (possible duplicate), or repeated within the import.
:func:`apply_import` carries the plan out with the user's choices inside the caller's
transaction, and :func:`undo_import` puts every touched paper back as it was.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlalchemy import delete, func, select, text
from sqlalchemy.orm import Session

from refman.common.errors import RefmanError
from refman.common.text import person_key
from refman.core.editing import clean_tag_name
from refman.core.import_values import (
    ImportChoices,
    ImportPlan,
    ImportResult,
    PagePlan,
    PageReport,
    RecordPlan,
    RecordRef,
    RecordStatus,
    SourcedPage,
)
from refman.core.matching import MAX_BLOCK, MatchKeys, best_match, match_keys
from refman.core.merge import PaperState, add_tags, merge_into, new_state
from refman.core.state_io import (
    Registry,
    chunks,
    load_states,
    person_names,
    state_keys,
    write_states,
)
from refman.importers.records import ParsedRecord
from refman.store import fts
from refman.store.bulk import bulk_insert
from refman.store.models import BatchPaper, ImportBatch, MatchKey, Paper

log = logging.getLogger("refman.import")

#: Called with (records done, records in all) while an import is applied.
Progress = Callable[[int, int], None]


class ImportCancelledError(RefmanError):
    """The user cancelled an import; its transaction is rolled back."""

    def __init__(self) -> None:
        super().__init__("The import was cancelled; the library is unchanged.")


#: An existing paper (its id) or an earlier record of the same import.
Target = int | tuple[int, int]


@dataclass
class _Index:
    """Match keys of the library papers that concern this import, plus the import's own."""

    exact: dict[tuple[str, str], Target] = field(default_factory=dict)
    blocks: dict[tuple[str, str], list[Target]] = field(default_factory=dict)
    keys_of: dict[Target, MatchKeys] = field(default_factory=dict)
    titles: dict[Target, str] = field(default_factory=dict)

    def add(self, target: Target, keys: MatchKeys, title: str) -> None:
        for k in keys.exact:
            self.exact.setdefault(k, target)
        for k in keys.blocks:
            bucket = self.blocks.setdefault(k, [])
            if len(bucket) <= MAX_BLOCK:
                bucket.append(target)
        self.keys_of.setdefault(target, keys)
        self.titles.setdefault(target, title)


def _load_index(session: Session, all_keys: list[MatchKeys]) -> _Index:
    index = _Index()
    stored = session.execute(select(func.count()).select_from(MatchKey)).scalar_one()
    if not stored:
        return index  # a new library: nothing to find again
    wanted = {k for mk in all_keys for k in mk.all_keys()}
    by_kind: dict[str, list[str]] = {}
    for kind, key in sorted(wanted):
        by_kind.setdefault(kind, []).append(key)
    hits: dict[tuple[str, str], set[int]] = {}
    if stored <= len(wanted):
        # A small (or new) library: reading all its keys once beats looking each one up.
        for paper_id, kind, key in session.execute(
            select(MatchKey.paper_id, MatchKey.kind, MatchKey.key)
        ):
            if (kind, key) in wanted:
                hits.setdefault((kind, key), set()).add(paper_id)
    else:
        for kind, keys in by_kind.items():
            # (kind, key) leads the table's primary key, so each lookup is an index seek.
            for part in chunks(keys):
                for paper_id, key in session.execute(
                    select(MatchKey.paper_id, MatchKey.key).where(
                        MatchKey.kind == kind, MatchKey.key.in_(part)
                    )
                ):
                    hits.setdefault((kind, key), set()).add(paper_id)
    # A blocking key shared by many papers narrows nothing: leave it out.
    hits = {
        k: pids
        for k, pids in hits.items()
        if k[0] in ("title", "abstract") or len(pids) <= MAX_BLOCK
    }
    ids = sorted({i for s in hits.values() for i in s})
    papers: dict[int, tuple[str, bool, str]] = {}
    for part in chunks(ids):
        for pid, title, prov, abstract in session.execute(
            select(Paper.id, Paper.title, Paper.title_provisional, Paper.abstract).where(
                Paper.id.in_(part)
            )
        ):
            papers[pid] = (title, prov, abstract)
    for (kind, key), pids in hits.items():
        for pid in sorted(pids):
            if kind in ("title", "abstract"):
                index.exact.setdefault((kind, key), pid)
            else:
                index.blocks.setdefault((kind, key), []).append(pid)
            if pid not in index.keys_of:
                title, prov, abstract = papers[pid]
                index.keys_of[pid] = match_keys(title, prov, abstract)
                index.titles[pid] = title
    return index


def _adds_preview(state: PaperState, plan_record: RecordPlan, owner: str | None) -> list[str]:
    probe = state.copy()
    record = plan_record.record
    return merge_into(
        probe,
        record,
        person_key(owner) if owner else None,
        owner,
        [person_key(a) for a in record.authors],
    )


#: Match keys computed while planning, by (title, title provisional, abstract).
KeyCache = dict[tuple[str, bool, str], MatchKeys]


def plan_import(session: Session, pages: Sequence[SourcedPage]) -> ImportPlan:
    """Decide what importing these pages would do, changing nothing."""
    return _plan_import(session, pages, {})


def _plan_import(session: Session, pages: Sequence[SourcedPage], cache: KeyCache) -> ImportPlan:
    refs: list[RecordRef] = []
    keys: list[MatchKeys] = []
    for pi, sp in enumerate(pages):
        for ri, rec in enumerate(sp.page.records):
            refs.append((pi, ri))
            mk = match_keys(rec.title, rec.title_provisional, rec.abstract)
            cache[(rec.title, rec.title_provisional, rec.abstract)] = mk
            keys.append(mk)
    index = _load_index(session, keys)
    plans: list[RecordPlan] = []
    for ref, mk in zip(refs, keys, strict=True):
        record = pages[ref[0]].page.records[ref[1]]
        target = next((index.exact[k] for k in mk.exact if k in index.exact), None)
        if target is not None:
            status = RecordStatus.MERGE if isinstance(target, int) else RecordStatus.REPEAT
            plans.append(_plan(ref, record, status, target, index))
            index.add(target, mk, index.titles.get(target, record.title))
            continue
        seen: set[Target] = set()
        candidates: list[tuple[Target, MatchKeys]] = []
        for k in mk.blocks:
            bucket = index.blocks.get(k, ())
            if len(bucket) > MAX_BLOCK:
                continue
            for cand in bucket:
                if cand not in seen:
                    seen.add(cand)
                    candidates.append((cand, index.keys_of[cand]))
        best = best_match(mk, candidates) if candidates else None
        if best is not None:
            plans.append(
                _plan(ref, record, RecordStatus.POSSIBLE_DUPLICATE, best[1], index, best[0])
            )
        else:
            plans.append(RecordPlan(ref=ref, record=record, status=RecordStatus.NEW))
        index.add(ref, mk, record.title)
    # What each merge would add, against the papers as they are now.
    merge_ids = [p.target_id for p in plans if p.status is RecordStatus.MERGE and p.target_id]
    states = load_states(session, merge_ids)
    final: list[RecordPlan] = []
    for p in plans:
        if p.status is RecordStatus.MERGE and p.target_id in states:
            owner = pages[p.ref[0]].page.owner
            adds = tuple(_adds_preview(states[p.target_id], p, owner))
            p = RecordPlan(
                ref=p.ref,
                record=p.record,
                status=p.status,
                target_id=p.target_id,
                target_title=p.target_title,
                adds=adds,
                target_in_trash=states[p.target_id].trashed_at is not None,
            )
        final.append(p)
    return ImportPlan(pages=tuple(_page_plans(pages, final)), records=tuple(final))


def _plan(
    ref: RecordRef,
    record: ParsedRecord,
    status: RecordStatus,
    target: Target,
    index: _Index,
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


def _page_plans(pages: Sequence[SourcedPage], plans: list[RecordPlan]) -> list[PagePlan]:
    out = []
    for pi, sp in enumerate(pages):
        mine = [p for p in plans if p.ref[0] == pi]
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
            )
        )
    return out


@dataclass
class _Apply:
    """Working state of one import while it is applied."""

    session: Session
    now: datetime
    next_id: int
    states: dict[int, PaperState] = field(default_factory=dict)
    new_ids: list[int] = field(default_factory=list)
    new_set: set[int] = field(default_factory=set)
    before: dict[int, PaperState] = field(default_factory=dict)
    resolved: dict[RecordRef, int] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    def existing(self, paper_id: int) -> PaperState:
        if paper_id not in self.states:
            state = load_states(self.session, [paper_id])[paper_id]
            self.before[paper_id] = state.copy()
            self.states[paper_id] = state
        return self.states[paper_id]


def apply_import(
    session: Session,
    pages: Sequence[SourcedPage],
    choices: ImportChoices,
    now: datetime,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ImportResult:
    """Carry out an import inside the caller's transaction.

    Args:
        session: A session inside a transaction; the caller commits or rolls back.
        pages: The parsed pages with their sources.
        choices: The user's decisions.
        now: The import time (also the added time of new papers).
        progress: Told how many records are done, now and then.
        cancelled: Asked now and then; when it returns True the import stops with
            :class:`ImportCancelledError` and the caller's transaction rolls back.

    Returns:
        What was done, per page and in total.
    """
    if choices.tags:
        choices = replace(
            choices, tags=tuple(dict.fromkeys(clean_tag_name(t) for t in choices.tags))
        )
    cache: KeyCache = {}
    plan = _plan_import(session, pages, cache)

    def keys_of(state: PaperState) -> MatchKeys:
        found = cache.get((state.title, state.title_provisional, state.abstract))
        return found if found is not None else state_keys(state)

    next_id = (session.scalar(select(func.max(Paper.id))) or 0) + 1
    work = _Apply(session=session, now=now, next_id=next_id)
    page_papers: list[dict[int, str]] = [{} for _ in pages]  # paper id -> action
    skipped = 0
    total = len(plan.records)

    def checkpoint(done: int) -> None:
        if cancelled is not None and cancelled():
            raise ImportCancelledError()
        if progress is not None:
            progress(done, total)

    checkpoint(0)
    for done, p in enumerate(plan.records):
        if done % 200 == 0 and done:
            checkpoint(done)
        if p.ref in choices.skip:
            skipped += 1
            continue
        pid, action = _apply_record(p, pages[p.ref[0]], choices, work)
        if action != "added" and pid in work.new_set:
            action = "repeat"  # a paper this import added from another page (or earlier)
        actions = page_papers[p.ref[0]]
        if actions.get(pid) not in ("added", "merged", "repeat"):
            actions[pid] = action
    for state in work.states.values():
        for key in (*state.authors, *state.attributions):
            if key not in state.names and key in work.names:
                state.names[key] = work.names[key]
    if choices.dry_run:
        return _result(plan, pages, page_papers, work, skipped, batch_ids=())
    known = person_names(session, [k for s in work.states.values() for k in s.names])
    for state in work.states.values():
        state.names.update({k: v for k, v in known.items() if k in state.names})
    registry = Registry(session)
    new_states = [work.states[i] for i in work.new_ids]
    changed = [
        s
        for i, s in work.states.items()
        if i not in work.new_set and s.to_json() != work.before[i].to_json()
    ]
    if not new_states and not changed:
        log.info("import of %d page(s) changed nothing", len(pages))
        return _result(plan, pages, page_papers, work, skipped, batch_ids=())
    work.before = {s.id: work.before[s.id] for s in changed}
    checkpoint(total)
    write_states(session, registry, new_states, changed, now, keys_of)
    batch_ids = _write_batches(session, pages, page_papers, work, registry, now)
    # New papers are indexed from memory in one batch; changed ones are re-read.
    fts.insert(session, [_fts_row(s) for s in new_states])
    fts.reindex(session, [s.id for s in changed])
    checkpoint(total)
    log.info(
        "imported %d page(s): %d new, %d merged, %d skipped",
        len(pages),
        len(work.new_ids),
        len(work.before),
        skipped,
    )
    return _result(plan, pages, page_papers, work, skipped, batch_ids=tuple(batch_ids))


def _fts_row(state: PaperState) -> tuple[int, str, str, str, str, str, str, str]:
    """The search-index row of a new paper (it has no notes yet)."""
    return (
        state.id,
        state.title,
        state.abstract_text,
        " ".join(state.names.get(k, k) for k in state.authors),
        state.venue or "",
        " ".join(state.subjects),
        " ".join(state.tags),
        "",
    )


def _apply_record(
    p: RecordPlan, sp: SourcedPage, choices: ImportChoices, work: _Apply
) -> tuple[int, str]:
    """Create or merge the paper of one record.

    Returns:
        The paper's id, and what happened to it: "added", "merged" (the record added
        something) or "unchanged".
    """
    owner = sp.page.owner or None
    owner_key = person_key(owner) if owner else None
    author_keys = [person_key(a) for a in p.record.authors]
    for key, name in zip(author_keys, p.record.authors, strict=True):
        work.names.setdefault(key, name)
    if owner_key and owner:
        work.names.setdefault(owner_key, owner)
    target = _effective_target(p, choices, work)
    changed = True
    if target is None:
        pid = work.next_id
        work.next_id += 1
        state = new_state(pid, p.record, owner_key, author_keys, title=choices.titles.get(p.ref))
        state.added_at = state.modified_at = work.now
        if p.status is RecordStatus.POSSIBLE_DUPLICATE:
            state.possible_duplicate_of = (
                p.target_id if p.target_id is not None else work.resolved.get(p.target_ref)  # type: ignore[arg-type]
            )
        work.states[pid] = state
        work.new_ids.append(pid)
        work.new_set.add(pid)
    else:
        pid = target
        state = work.states[pid] if pid in work.new_set else work.existing(pid)
        adds = merge_into(state, p.record, owner_key, owner, author_keys)
        typed = choices.titles.get(p.ref)
        if typed and state.title_provisional and "title" not in state.user_edited:
            state.title, state.title_provisional = typed.strip(), False
            state.user_edited.add("title")
            adds.append("a title")
        changed = bool(adds)
    work.resolved[p.ref] = pid
    extra_tags = list(choices.tags)
    if choices.subject_tags:
        extra_tags.extend(p.record.subjects)
    if extra_tags:
        before = len(state.tags)
        add_tags(state, extra_tags)
        changed = changed or len(state.tags) != before
    if target is None:
        return pid, "added"
    if changed and pid not in work.new_set:
        state.modified_at = work.now
    return pid, "merged" if changed else "unchanged"


def _effective_target(p: RecordPlan, choices: ImportChoices, work: _Apply) -> int | None:
    """The paper a record merges into, or None when it becomes a new paper."""
    if p.status is RecordStatus.NEW:
        return None
    if p.status is RecordStatus.MERGE:
        return p.target_id
    if p.status is RecordStatus.REPEAT:
        return work.resolved.get(p.target_ref) if p.target_ref else None
    # A possible duplicate: merge unless the user keeps it apart.
    if choices.keep_all_separate or p.ref in choices.keep_separate:
        return None
    if p.target_id is not None:
        return p.target_id
    return work.resolved.get(p.target_ref) if p.target_ref else None


def _write_batches(
    session: Session,
    pages: Sequence[SourcedPage],
    page_papers: list[dict[int, str]],
    work: _Apply,
    registry: Registry,
    now: datetime,
) -> list[int]:
    batch_ids: list[int] = []
    snapshotted: set[int] = set()
    for pi, sp in enumerate(pages):
        owner_id = registry.persons.get(person_key(sp.page.owner)) if sp.page.owner else None
        batch = ImportBatch(
            imported_at=now,
            source=sp.source,
            owner_id=owner_id,
            format=str(sp.page.format),
            claimed=sp.page.claimed,
            parsed=len(sp.page.records),
            warnings=json.dumps(list(sp.page.warnings)),
            created=json.dumps(registry.created if pi == 0 else {}),
        )
        batch.import_id = batch_ids[0] if batch_ids else 0
        session.add(batch)
        session.flush()
        if not batch_ids:
            batch.import_id = batch.id
        batch_ids.append(batch.id)
        rows = []
        for pid, action in page_papers[pi].items():
            if action == "unchanged":
                continue
            if action == "repeat":
                action = "merged"  # provenance: this page brought the paper too
            before = None
            if action == "merged" and pid in work.before and pid not in snapshotted:
                before = json.dumps(work.before[pid].to_json())
                snapshotted.add(pid)
            rows.append({"batch_id": batch.id, "paper_id": pid, "action": action, "before": before})
        if rows:
            bulk_insert(session, BatchPaper, rows)
    return batch_ids


def _result(
    plan: ImportPlan,
    pages: Sequence[SourcedPage],
    page_papers: list[dict[int, str]],
    work: _Apply,
    skipped: int,
    batch_ids: tuple[int, ...],
) -> ImportResult:
    reports = []
    for pi, sp in enumerate(pages):
        mine = [p for p in plan.records if p.ref[0] == pi]
        actions = page_papers[pi]
        reports.append(
            PageReport(
                source=sp.source,
                owner=sp.page.owner,
                format=str(sp.page.format),
                claimed=sp.page.claimed,
                parsed=len(sp.page.records),
                new=sum(1 for a in actions.values() if a == "added"),
                merged=sum(1 for a in actions.values() if a == "merged"),
                unchanged=sum(1 for a in actions.values() if a == "unchanged"),
                repeats=sum(1 for a in actions.values() if a == "repeat"),
                possible_duplicates=sum(p.status is RecordStatus.POSSIBLE_DUPLICATE for p in mine),
                skipped=sum(1 for p in mine if p.ref not in work.resolved),
                warnings=tuple(sp.page.warnings),
                batch_id=batch_ids[pi] if batch_ids else None,
            )
        )
    touched = {pid for actions in page_papers for pid, a in actions.items() if a == "merged"}
    merged = tuple(i for i in work.states if i not in work.new_set and i in touched)
    unchanged = tuple(i for i in work.states if i not in work.new_set and i not in touched)
    return ImportResult(
        pages=tuple(reports),
        new_ids=tuple(work.new_ids),
        merged_ids=merged,
        unchanged_ids=unchanged,
        skipped=skipped,
        batch_ids=batch_ids,
        possible_duplicates=tuple(
            p for p in plan.records if p.status is RecordStatus.POSSIBLE_DUPLICATE
        ),
    )


def undo_import(session: Session, batch_ids: Sequence[int]) -> set[int]:
    """Return the library to its state before these import batches.

    Papers the batches added are deleted; papers they merged into are restored from the
    snapshots taken before the merge; persons, subjects and tags they created go too.

    Returns:
        The ids of every paper touched.
    """
    touched: set[int] = set()
    created: dict[str, list[int]] = {"persons": [], "subjects": [], "tags": []}
    registry = Registry(session)
    for batch_id in sorted(batch_ids, reverse=True):
        batch = session.get(ImportBatch, batch_id)
        if batch is None:
            continue
        for kind, ids in json.loads(batch.created or "{}").items():
            created.setdefault(kind, []).extend(ids)
        rows = session.execute(
            select(BatchPaper.paper_id, BatchPaper.action, BatchPaper.before).where(
                BatchPaper.batch_id == batch_id
            )
        ).all()
        restore = [PaperState.from_json(json.loads(before)) for _, action, before in rows if before]
        added = [pid for pid, action, _ in rows if action == "added"]
        touched.update(pid for pid, _, _ in rows)
        if restore:
            write_states(
                session, registry, [], restore, restore[0].modified_at or batch.imported_at
            )
        for part in chunks(added):
            session.execute(delete(Paper).where(Paper.id.in_(part)))
        session.execute(delete(ImportBatch).where(ImportBatch.id == batch_id))
    _delete_orphans(session, created)
    fts.reindex(session, touched)
    return touched


_ORPHAN_SQL = {
    "tags": "DELETE FROM tags WHERE id IN ({ids}) AND id NOT IN (SELECT tag_id FROM paper_tags)",
    "subjects": "DELETE FROM subjects WHERE id IN ({ids}) "
    "AND id NOT IN (SELECT subject_id FROM paper_subjects)",
    "persons": "DELETE FROM persons WHERE id IN ({ids}) "
    "AND id NOT IN (SELECT person_id FROM authorships) "
    "AND id NOT IN (SELECT person_id FROM attributions) "
    "AND id NOT IN (SELECT owner_id FROM import_batches WHERE owner_id IS NOT NULL)",
}


def _delete_orphans(session: Session, created: dict[str, list[int]]) -> None:
    """Delete the tags, subjects and persons an undone import created, if now unused."""
    for kind in ("tags", "subjects", "persons"):
        for part in chunks(sorted(set(created.get(kind, [])))):
            ids = ",".join(str(int(i)) for i in part)
            session.execute(text(_ORPHAN_SQL[kind].format(ids=ids)))
