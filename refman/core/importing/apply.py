"""Applying an import: the plan carried out with the user's choices, inside one transaction.

Every record ends as a :class:`~refman.core.importing.values.RecordOutcome` (what happened to
it and which paper it landed on); the reports, the command line and the wizard all read those
outcomes and never work them out again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlalchemy.orm import Session

from refman.common.errors import InvalidValueError
from refman.common.text import person_key
from refman.core.citekey_aliases import citing_holders, key_clashes, keys_free_for
from refman.core.citekeys import folded
from refman.core.importing.batches import write_batches
from refman.core.importing.checkpoint import Checkpoint, Progress
from refman.core.importing.import_ids import NOTHING_GIVEN, GivenBack, PaperIds
from refman.core.importing.names import ImportNames
from refman.core.importing.notes import add_import_notes, new_import_notes
from refman.core.importing.plan import KeyCache, PreparedPlan, current_plan
from refman.core.importing.readings import ImportReadings
from refman.core.importing.results import import_result
from refman.core.importing.values import (
    ImportChoices,
    ImportPlan,
    ImportResult,
    RecordAction,
    RecordOutcome,
    RecordPlan,
    RecordRef,
    RecordStatus,
    SourcedPage,
)
from refman.core.matching import MatchKeys
from refman.core.merge import add_tags, another_work, merge_into, new_state
from refman.core.paper_state import PaperState
from refman.core.people_ops import with_known_names
from refman.core.registry import Registry
from refman.core.rules import clean_tag_names
from refman.core.spellings import respell
from refman.core.state_io import load_states, state_keys, write_states
from refman.importers.records import PageFormat, ParsedRecord
from refman.store.backend import on_server
from refman.store.connection import lock_imports
from refman.store.search import SearchIndex

log = logging.getLogger("refman.import")


@dataclass
class _Work:
    """Working state of one import while it is applied."""

    session: Session
    now: datetime
    ids: PaperIds
    back: GivenBack
    states: dict[int, PaperState] = field(default_factory=dict)
    new_ids: list[int] = field(default_factory=list)
    new_set: set[int] = field(default_factory=set)
    before: dict[int, PaperState] = field(default_factory=dict)
    resolved: dict[RecordRef, int] = field(default_factory=dict)
    names: ImportNames = field(default_factory=ImportNames)
    notes: dict[int, list[str]] = field(default_factory=dict)
    raw: dict[tuple[int, int], str] = field(default_factory=dict)
    tags: set[str] = field(default_factory=set)  # every tag the import put on papers
    held: dict[str, int] = field(default_factory=dict)  # the papers of the records' keys
    clashes: dict[int, list[str]] = field(default_factory=dict)  # per page: keys held already
    renamed: list[tuple[str, str]] = field(default_factory=list)  # people spelled better
    marks: ImportReadings = field(default_factory=ImportReadings)  # reading status, stars

    def existing(self, paper_id: int) -> PaperState:
        if paper_id not in self.states:
            state = load_states(self.session, [paper_id])[paper_id]
            self.before[paper_id] = state.copy()
            self.states[paper_id] = state
        return self.states[paper_id]

    def preload(self, paper_ids: Sequence[int], read: Mapping[int, PaperState]) -> None:
        """Read the papers an import joins in one go (in a change, locked together in id
        order); a library file's papers ``read`` while planning are taken as read (its write
        lock or unchanged revision says they are as they were), a server's read again."""
        known = {} if on_server(self.session) else read
        missing = [pid for pid in paper_ids if pid not in known]
        found = load_states(self.session, missing)
        for paper_id in paper_ids:
            before = known.get(paper_id) or found.get(paper_id)
            if before is not None:  # (kept as read: the state before; merged into: a copy)
                self.before[paper_id], self.states[paper_id] = before, before.copy()

    def state_of(self, paper_id: int) -> PaperState:
        return self.states[paper_id] if paper_id in self.new_set else self.existing(paper_id)


def apply_import(
    session: Session,
    search: SearchIndex,
    pages: Sequence[SourcedPage],
    choices: ImportChoices,
    now: datetime,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    prepared: PreparedPlan | None = None,
    given: GivenBack = NOTHING_GIVEN,
) -> ImportResult:
    """Carry out an import inside the caller's transaction (it commits or rolls back); what
    was done, record by record and page by page.

    Args:
        now: The import time (also the added time of new papers).
        progress: Told how many records are done, now and then.
        cancelled: Asked now and then; True stops the import (``CancelledError``: the
            caller's transaction rolls back).
        prepared: The plan made before the write lock was taken; used when the library has
            not changed since (else the import is planned again, under the lock).
        given: The ids a Redo gives back (see :mod:`~refman.core.importing.import_ids`).
    """
    if choices.tags:
        choices = replace(choices, tags=clean_tag_names(choices.tags))
    at_lock = None if choices.dry_run else lock_imports(session)  # (imports run one at a time)
    pages = with_known_names(session, pages)
    planned = current_plan(session, search, pages, prepared, at_lock)
    plan, cache = planned.plan, planned.cache
    work = _Work(session, now, PaperIds.start(session, given.papers), given)
    work.held = citing_holders(session, _cite_keys(plan))
    checkpoint = Checkpoint(len(plan.records), progress, cancelled)
    checkpoint(0)
    targets = _library_targets(plan, choices, work)
    work.preload(targets, planned.states)
    work.marks.read(session, targets)
    outcomes: list[RecordOutcome] = []
    for done, p in enumerate(plan.records):
        if done % 200 == 0 and done:
            checkpoint(done)
        if p.ref in choices.skip:
            outcomes.append(RecordOutcome(p.ref, RecordAction.SKIPPED))
        else:
            outcomes.append(_apply_record(p, pages[p.ref[0]], choices, work))
    respelled = work.names.share(session, work.states.values())
    changed = _changed(session, work)
    marked = work.marks.changed()
    if choices.dry_run or not (work.new_ids or changed or respelled or work.notes or marked):
        if not choices.dry_run:
            log.info("import of %d page(s) changed nothing", len(pages))
        return _result(plan, pages, outcomes, work, (), dry_run=choices.dry_run)
    checkpoint(checkpoint.total)
    batch_ids = _write(session, search, pages, outcomes, work, changed, cache, respelled)
    checkpoint(checkpoint.total)
    log.info("imported %d page(s): %d new, %d merged", len(pages), len(work.new_ids), len(changed))
    return _result(plan, pages, outcomes, work, tuple(batch_ids))


def _changed(session: Session, work: _Work) -> list[PaperState]:
    """The library's papers the records changed; ``work.notes`` left with the notes new to
    their papers (a file imported again brings none)."""
    work.notes = new_import_notes(session, work.notes)
    return [
        s for i, s in work.states.items() if i not in work.new_set and not s.same_as(work.before[i])
    ]


def _cite_keys(plan: ImportPlan) -> list[str]:
    return [k for p in plan.records for k in p.record.cite_keys()]


def _library_targets(plan: ImportPlan, choices: ImportChoices, work: _Work) -> list[int]:
    """The papers of the library that records join."""
    return [
        p.target_id
        for p in plan.records
        if p.target_id is not None
        and p.ref not in choices.skip
        and _effective_target(p, choices, work) == p.target_id
    ]


def _write(
    session: Session,
    search: SearchIndex,
    pages: Sequence[SourcedPage],
    outcomes: list[RecordOutcome],
    work: _Work,
    changed: list[PaperState],
    cache: KeyCache,
    respelled: Mapping[str, str],
) -> list[int]:
    """Write the papers, the batches and the search rows of an import, and name again the
    people it spelled better (``respelled``: key -> spelling), as its undo will read."""

    def keys_of(state: PaperState) -> MatchKeys:
        found = cache.get(
            (state.title, state.title_provisional, state.abstract, state.doi, state.arxiv_id)
        )
        return found if found is not None else state_keys(state)

    registry = Registry(session, work.names.parts, work.back.named())
    new_states = [work.states[i] for i in work.new_ids]
    work.ids.free(session, search)
    kept = {s.id for s in changed} | set(work.marks.changed())  # (a paper it only marked too)
    work.before = {pid: state for pid, state in work.before.items() if pid in kept}
    write_states(session, registry, new_states, changed, work.now, search, keys_of)
    if marks := work.marks.write(session, work.new_set):
        registry.created["readings"] = marks
    registry.created["notes"] = add_import_notes(session, work.notes, work.now)
    if respelled:
        done = registry.created["respelled"] = respell(session, search, respelled, work.names.parts)
        names = [(r["before"]["name"], r["after"]["name"]) for r in done]
        work.renamed = [(was, now) for was, now in names if was != now]
    return write_batches(
        session,
        pages,
        outcomes,
        registry,
        work.now,
        work.before,
        work.raw,
        sorted(work.tags),
        work.back.batches,
    )


def _effective_target(p: RecordPlan, choices: ImportChoices, work: _Work) -> int | None:
    """The paper a record joins, or None when it becomes a new paper."""
    if p.status is RecordStatus.NEW:
        return None
    if p.status is RecordStatus.POSSIBLE_DUPLICATE and choices.kept_apart(p):
        return None
    return _planned_paper(p, work)


def _planned_paper(p: RecordPlan, work: _Work) -> int | None:
    """The paper a record's plan names: its match or look-alike (an earlier record's paper)."""
    if p.target_id is not None:
        return p.target_id
    return work.resolved.get(p.target_ref) if p.target_ref else None


def _people(p: RecordPlan, sp: SourcedPage, work: _Work) -> tuple[str | None, list[str]]:
    """The person keys of a record's page owner and authors (their names kept for later)."""
    parts = p.record.author_names
    author_keys = [
        work.names.offer(name, parts[i] if i < len(parts) else None)
        for i, name in enumerate(p.record.authors)
    ]
    owner_key = person_key(sp.page.owner) if sp.page.owner else None
    if owner_key:
        work.names.offer(sp.page.owner)
    for name in p.record.attributed_to:
        work.names.offer(name)
    return owner_key, author_keys


def _merge(
    p: RecordPlan,
    state: PaperState,
    sp: SourcedPage,
    keys: tuple[str | None, list[str]],
    typed: str | None,
) -> bool:
    """Merge a record into a paper; True when it added something."""
    owner_key, author_keys = keys
    adds = merge_into(state, p.record, owner_key, sp.page.owner or None, author_keys)
    if typed and state.title_provisional and "title" not in state.user_edited:
        state.title, state.title_provisional = typed.strip(), False
        state.user_edited.add("title")
        adds.append("a title")
    return bool(adds)


def _apply_record(
    p: RecordPlan, sp: SourcedPage, choices: ImportChoices, work: _Work
) -> RecordOutcome:
    """Create or merge the paper of one record."""
    keys, record = _people(p, sp, work), p.record
    # The paper the plan names, as the records before made it: when one of them gave it
    # another DOI or arXiv id, this record is a paper of its own, neither merged nor marked.
    named = _planned_paper(p, work)
    held = work.states.get(named) if named is not None else None
    if held is not None and another_work(held, record):
        p = replace(p, target_id=None, target_ref=None)
    target = _effective_target(p, choices, work)
    if target is None:
        state = _create(p, *keys, choices, work)
        updated = True
    else:
        state = work.state_of(target)
        p = replace(p, record=keys_free_for(p.record, state.id, work.held))
        updated = _merge(p, state, sp, keys, choices.titles.get(p.ref))
    _check_keys(record, state.id, p.ref[0], sp, work)
    work.resolved[p.ref] = state.id
    if p.record.notes:
        work.notes.setdefault(state.id, []).extend(p.record.notes)
    if p.record.raw:
        work.raw.setdefault((p.ref[0], state.id), p.record.raw)
    extra_tags = [*choices.tags, *p.record.tags]
    if choices.subject_tags:
        extra_tags.extend(p.record.subjects)
    if extra_tags:
        work.tags.update(extra_tags)
        before = len(state.tags)
        add_tags(state, extra_tags)
        updated = updated or len(state.tags) != before
    in_library = state.id not in work.new_set
    if in_library and updated:
        state.modified_at = work.now  # (not for a reading status or stars: the reader's)
    marked = work.marks.take(work.session, state.id, p.record, new=not in_library)
    return RecordOutcome(
        ref=p.ref,
        action=_action(p, created=target is None),
        paper_id=state.id,
        created=target is None,
        in_library=in_library,
        updated=(updated or marked) and in_library,
        in_trash=state.trashed_at is not None,
    )


def _check_keys(
    record: ParsedRecord, paper_id: int, page: int, sp: SourcedPage, work: _Work
) -> None:
    """Note the record's keys another paper holds (its paper does not take them), or refuse
    them for a paper added by hand: the person typed that key, so it is not silently given
    another, and nothing is added.

    Raises:
        InvalidValueError: A paper added by hand names another paper's key.
    """
    clashes = key_clashes(record, paper_id, work.held)
    if clashes and sp.page.format is PageFormat.TYPED:
        key = record.citekey or ""
        raise InvalidValueError(
            f"“{key}” is already a citation key of paper #{work.held[folded(key)]}.",
            "Choose another key, or leave it out: refman gives the paper one.",
        )
    if clashes:
        work.clashes.setdefault(page, []).extend(clashes)


def _action(p: RecordPlan, *, created: bool) -> RecordAction:
    if p.status is RecordStatus.POSSIBLE_DUPLICATE:
        return RecordAction.POSSIBLE_DUPLICATE
    if created:
        return RecordAction.NEW  # a new record, or a repeat of a skipped one
    return RecordAction.MERGED if p.status is RecordStatus.MERGE else RecordAction.REPEAT


def _create(
    p: RecordPlan,
    owner_key: str | None,
    author_keys: list[str],
    choices: ImportChoices,
    work: _Work,
) -> PaperState:
    pid = work.ids.new(p.ref)
    state = new_state(pid, p.record, owner_key, author_keys, title=choices.titles.get(p.ref))
    state.added_at = state.modified_at = work.now
    if p.status is RecordStatus.POSSIBLE_DUPLICATE:
        state.possible_duplicate_of = _planned_paper(p, work)
    work.states[pid] = state
    work.new_ids.append(pid)
    work.new_set.add(pid)
    return state


def _result(
    plan: ImportPlan,
    pages: Sequence[SourcedPage],
    outcomes: list[RecordOutcome],
    work: _Work,
    batch_ids: tuple[int, ...],
    *,
    dry_run: bool = False,
) -> ImportResult:
    return import_result(
        plan,
        pages,
        outcomes,
        batch_ids,
        found=[i for i in work.states if i not in work.new_set],
        new_ids=work.new_ids,
        clashes=work.clashes,
        renamed=work.renamed,
        dry_run=dry_run,
    )
