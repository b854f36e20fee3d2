"""Reverting any import, not only the last: what it would remove, put back and keep.

The rules, paper by paper of the import:

* A paper the import **added** is removed, unless a later import also brought it, or it was
  edited by hand, given a file, marked read or rated, tagged (with a tag the import did not
  give it) or given a note since: then it stays, and only the import's attribution to its
  page owner goes (unless another import of the same owner's page lists it too). Later
  imports' merges, and their reverts, are no edits; a paper moved to the Trash goes.
* A paper the import **added something to** is put back as it was before (the snapshot the
  import kept), with the tags given since (and the reading status and stars it had, unless
  those the import gave it were changed since); unless a later import also brought it, or it was
  edited by hand or moved to the Trash since: then it stays as it is, less the import's
  attribution.
* The notes the import made (from bibliography files) go; notes written since stay with
  their papers. The import leaves the history; people, subjects and tags it created go when
  nothing else uses them.

:func:`plan_revert` works this out without changing anything; the operations in
:mod:`refman.core.importing.revert_ops` carry it out and undo it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from refman.common.errors import NotFoundError
from refman.core.importing.readings import Given, marks_given
from refman.core.merged_keys import merged_into
from refman.core.paper_state import PaperState
from refman.core.reading_status import UNMARKED
from refman.core.rules import tag_key
from refman.store.bulk import chunks
from refman.store.models import BatchPaper, ImportBatch, Note, Paper, PaperTag, Person, Tag
from refman.store.models_files import PaperFile
from refman.store.models_upkeep import is_live

LATER = "a later import also brought it"
EDITED = "it was edited since"
TRASHED = "it was moved to the Trash since"
MARKED = "it was marked or rated since"
TAGGED = "it was tagged since"
NOTED = "it has notes written since"
MERGED = "another paper was merged into it since"


@dataclass(frozen=True, slots=True)
class KeptPaper:
    """A paper the import touched that a revert leaves in the library, and why."""

    paper_id: int
    title: str
    reason: str


@dataclass(frozen=True, slots=True)
class RevertPlan:
    """What reverting an import does (or did).

    Attributes:
        import_id: The import.
        label: The import in words ("zhuo.txt and 2 more").
        imported_at: When it was imported.
        removed: (id, title) of the papers it added that go.
        restored: (id, title) of the papers put back as they were before it.
        kept: The papers that stay, with why.
        dry_run: Nothing was changed.
    """

    import_id: int
    label: str
    imported_at: datetime
    removed: tuple[tuple[int, str], ...] = ()
    restored: tuple[tuple[int, str], ...] = ()
    kept: tuple[KeptPaper, ...] = ()
    dry_run: bool = False


@dataclass
class RevertWork:
    """What carrying out a revert needs beyond its plan."""

    plan: RevertPlan
    batch_ids: list[int]
    snapshots: dict[int, PaperState] = field(default_factory=dict)
    unattributed: dict[int, list[int]] = field(default_factory=dict)  # paper -> owner ids
    notes: list[int] = field(default_factory=list)  # the notes the import made
    created: dict[str, list[Any]] = field(default_factory=dict)
    #: The reading status and stars the import gave the papers that go or are put back:
    #: (what it gave, what they had before); a paper marked since keeps its marks.
    marks: Given = field(default_factory=dict)


def _no_import(import_id: int) -> NotFoundError:
    return NotFoundError(
        f"There is no import #{import_id} in this library.",
        "Use “refman history” (or File ▸ Import History…) to see the imports.",
    )


#: Per paper: its title, whether it was marked or rated, its version, the fields edited by
#: hand, whether it is in the Trash.
_Facts = tuple[str, bool, int, frozenset[str], bool]


def _papers(session: Session, ids: list[int], marks: Given) -> dict[int, _Facts]:
    """Per paper, what says whether it was changed since (a paper being deleted after an
    undone import is gone already: the revert neither removes nor restores it); marked or
    rated: other than the import left it (``marks``: what it gave)."""
    found: dict[int, _Facts] = {}
    columns = (Paper.id, Paper.title, Paper.status, Paper.rating, Paper.version)
    for part in chunks(ids):
        rows = session.execute(
            select(*columns, Paper.user_edited, Paper.trashed_at).where(
                Paper.id.in_(part), is_live(Paper.id)
            )
        )
        for pid, title, status, rating, version, edited, trashed in rows:
            marked = (status, int(rating)) != (marks[pid][0] if pid in marks else UNMARKED)
            found[int(pid)] = (title, marked, int(version), frozenset(edited), trashed is not None)
    return found


def _files_since(session: Session, ids: list[int], imported_at: datetime) -> set[int]:
    """The papers given a file after the import (deleting them would delete it)."""
    found: set[int] = set()
    for part in chunks(ids):
        stmt = select(PaperFile.paper_id).where(
            PaperFile.paper_id.in_(part), PaperFile.added_at > imported_at
        )
        found.update(int(pid) for (pid,) in session.execute(stmt))
    return found


def _links(session: Session, ids: list[int]) -> tuple[dict[int, set[str]], dict[int, set[int]]]:
    """Per paper: its tag keys, and its note ids."""
    tags: dict[int, set[str]] = {}
    notes: dict[int, set[int]] = {}
    for part in chunks(ids):
        for pid, name in session.execute(
            select(PaperTag.paper_id, Tag.name)
            .join(Tag, Tag.id == PaperTag.tag_id)
            .where(PaperTag.paper_id.in_(part))
        ):
            tags.setdefault(int(pid), set()).add(tag_key(name))
        for nid, pid in session.execute(
            select(Note.id, Note.paper_id).where(Note.paper_id.in_(part))
        ):
            notes.setdefault(int(pid), set()).add(int(nid))
    return tags, notes


def _later(session: Session, import_id: int, ids: list[int]) -> set[int]:
    found: set[int] = set()
    for part in chunks(ids):
        found.update(
            int(p)
            for (p,) in session.execute(
                select(BatchPaper.paper_id)
                .join(ImportBatch, ImportBatch.id == BatchPaper.batch_id)
                .where(ImportBatch.import_id > import_id, BatchPaper.paper_id.in_(part))
            )
        )
    return found


def _owners_elsewhere(
    session: Session, import_id: int, owners: set[int], ids: list[int]
) -> set[tuple[int, int]]:
    """(paper, owner) pairs that another import of the same owner's page lists too."""
    found: set[tuple[int, int]] = set()
    if not owners:
        return found
    for part in chunks(ids):
        rows = session.execute(
            select(BatchPaper.paper_id, ImportBatch.owner_id)
            .join(ImportBatch, ImportBatch.id == BatchPaper.batch_id)
            .where(
                ImportBatch.import_id != import_id,
                ImportBatch.owner_id.in_(sorted(owners)),
                BatchPaper.paper_id.in_(part),
            )
        )
        found.update((int(p), int(o)) for p, o in rows if o is not None)
    return found


@dataclass
class _Import:
    """An import's batches and what they recorded."""

    batch_ids: list[int]
    imported_at: datetime
    label: str
    owner_of: dict[int, set[int]]  # paper -> the owners of the import's pages listing it
    added: list[int]
    merged: dict[int, PaperState]  # paper -> its snapshot from before the import
    created: dict[str, list[Any]]


def _read_import(session: Session, import_id: int) -> _Import:
    batches = session.execute(
        select(
            ImportBatch.id,
            ImportBatch.imported_at,
            ImportBatch.source,
            ImportBatch.owner_id,
            ImportBatch.created,
        )
        .where(ImportBatch.import_id == import_id)
        .order_by(ImportBatch.id)
    ).all()
    if not batches:
        raise _no_import(import_id)
    created: dict[str, list[Any]] = {}
    for row in batches:
        for kind, values in json.loads(row.created or "{}").items():
            created.setdefault(kind, []).extend(values)
    owner: dict[int, int | None] = {int(row.id): row.owner_id for row in batches}
    owner_of: dict[int, set[int]] = {}
    added: dict[int, None] = {}
    merged: dict[int, PaperState] = {}
    rows = session.execute(
        select(BatchPaper.batch_id, BatchPaper.paper_id, BatchPaper.action, BatchPaper.before)
        .where(BatchPaper.batch_id.in_(list(owner)))
        .order_by(BatchPaper.batch_id)
    )
    for batch_id, pid, action, before in rows:
        page_owner = owner[batch_id]
        if page_owner is not None:
            owner_of.setdefault(pid, set()).add(page_owner)
        if action == "added":
            added[pid] = None
        elif before and pid not in merged:
            merged[pid] = PaperState.from_json(json.loads(before))
    more = f" and {len(batches) - 1} more" if len(batches) > 1 else ""
    return _Import(
        batch_ids=[int(row.id) for row in batches],
        imported_at=batches[0].imported_at,
        label=f"{batches[0].source}{more}",
        owner_of=owner_of,
        added=list(added),
        merged={pid: state for pid, state in merged.items() if pid not in added},
        created=created,
    )


def _marks_since(imp: _Import, tags: set[str], notes: set[int], marked: bool) -> list[str]:
    """What was done since to a paper the import made: marked or rated, tagged with a tag
    the import did not give (any tag, for an import from before refman recorded them),
    notes other than the import's."""
    applied = imp.created.get("applied_tags")
    given = {tag_key(t) for t in applied} if applied is not None else set()
    found = [MARKED] if marked else []
    if tags - given:
        found.append(TAGGED)
    if notes - set(imp.created.get("notes", [])):
        found.append(NOTED)
    return found


def _reasons(
    pid: int,
    imp: _Import,
    facts: tuple[
        dict[int, _Facts], set[int], dict[int, set[str]], dict[int, set[int]], set[int], set[int]
    ],
) -> list[str]:
    """Why a paper the import touched stays (no reason: it goes, or is put back with the
    tags it was given since). Edited means edited by hand (a field joined ``user_edited``)
    or, for a paper the import made, given a file; later imports' merges, their reverts and
    the Trash are no edits."""
    papers, later, tags, notes, files, merged_into = facts
    _, marked, version, edited, trashed = papers[pid]
    before = imp.merged.get(pid)
    reasons = [LATER] if pid in later else []
    if pid in merged_into:
        reasons.append(MERGED)
    if before is None:
        # (a title typed in the import's review is edited from the start: version 1)
        if (version > 1 and edited) or pid in files:
            reasons.append(EDITED)
        return reasons + _marks_since(imp, tags.get(pid, set()), notes.get(pid, set()), marked)
    if edited - set(before.user_edited):
        reasons.append(EDITED)
    if trashed and before.trashed_at is None:
        reasons.append(TRASHED)  # put back as it was, it would leave the Trash
    return reasons


def _unattributed(
    pid: int, imp: _Import, elsewhere: set[tuple[int, int]], owner_keys: dict[int, str]
) -> list[int]:
    """The owners whose attribution of a kept paper goes with the import: it came from this
    import alone (no other import of their page lists it, the paper had none before)."""
    had = set(imp.merged[pid].attributions) if pid in imp.merged else set()
    return sorted(
        o
        for o in imp.owner_of.get(pid, set())
        if (pid, o) not in elsewhere and owner_keys.get(o) not in had
    )


def _marks_going(marks: Given, papers: dict[int, _Facts], going: list[tuple[int, str]]) -> Given:
    """The marks the import gave the papers that go or are put back (id, title), but those
    marked or rated since (the reader's now)."""
    return {pid: marks[pid] for pid, _ in going if pid in marks and not papers[pid][1]}


def plan_revert(session: Session, import_id: int) -> RevertWork:
    """What reverting an import would do (see the module documentation); changes nothing.

    Raises:
        NotFoundError: The library holds no such import.
    """
    imp = _read_import(session, import_id)
    ids = [*imp.added, *imp.merged]
    marks = marks_given(imp.created)
    papers = _papers(session, ids, marks)
    ids = [pid for pid in ids if pid in papers]
    tags, notes = _links(session, ids)
    files = _files_since(session, [pid for pid in ids if pid not in imp.merged], imp.imported_at)
    facts = (papers, _later(session, import_id, ids), tags, notes, files, merged_into(session, ids))
    owners = {o for pid in ids for o in imp.owner_of.get(pid, set())}
    elsewhere = _owners_elsewhere(session, import_id, owners, ids)
    keys = session.execute(select(Person.id, Person.key).where(Person.id.in_(sorted(owners))))
    owner_keys = {int(i): str(k) for i, k in keys}
    work = RevertWork(RevertPlan(import_id, imp.label, imp.imported_at), imp.batch_ids)
    work.created = imp.created
    removed: list[tuple[int, str]] = []
    restored: list[tuple[int, str]] = []
    kept: list[KeptPaper] = []
    for pid in ids:
        title = papers[pid][0]
        reasons = _reasons(pid, imp, facts)
        if reasons:
            kept.append(KeptPaper(pid, title, "; ".join(reasons)))
            if gone := _unattributed(pid, imp, elsewhere, owner_keys):
                work.unattributed[pid] = gone
        elif pid in imp.merged:
            restored.append((pid, title))
            work.snapshots[pid] = imp.merged[pid]
        else:
            removed.append((pid, title))
    work.marks = _marks_going(marks, papers, [*removed, *restored])
    existing = set().union(*notes.values()) if notes else set()
    work.notes = [int(n) for n in imp.created.get("notes", []) if n in existing]
    work.plan = RevertPlan(
        import_id, imp.label, imp.imported_at, tuple(removed), tuple(restored), tuple(kept)
    )
    return work
