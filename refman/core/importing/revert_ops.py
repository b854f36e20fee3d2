"""Reverting an import (any of them, see :mod:`refman.core.importing.revert`) as an
operation, and putting it back (its undo)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, or_, select
from sqlalchemy.orm import Session

from refman.common.errors import ConflictError
from refman.core.attachments import FileRow, put_files, take_files
from refman.core.context import Context, Handler
from refman.core.importing.purge import delete_orphans
from refman.core.importing.readings import give_again
from refman.core.importing.revert import RevertPlan, RevertWork, plan_revert
from refman.core.operations import DryRunnable, Operation, Outcome
from refman.core.paper_state import PaperState
from refman.core.person_ties import tie_again
from refman.core.reading_status import put_readings
from refman.core.registry import Registry
from refman.core.rules import tag_key
from refman.core.spellings import Respelling, spell_again
from refman.core.state_io import delete_papers, load_states, write_states
from refman.core.values import Changes
from refman.store.bulk import chunks
from refman.store.models import (
    Attribution,
    BatchPaper,
    ImportBatch,
    Note,
    Paper,
    Person,
    PersonAlias,
    Subject,
    Tag,
)
from refman.store.models_files import PaperFile

#: The columns of the rows a revert deletes and its undo puts back; those holding times.
_BATCH = ("id", "imported_at", "import_id", "source", "owner_id", "format", "claimed",
          "parsed", "warnings", "created", "imported_by")  # fmt: skip
_BATCH_PAPER = ("batch_id", "paper_id", "action", "before", "raw")
_NOTE = ("id", "paper_id", "text", "created_at", "modified_at", "created_by", "modified_by")
_TIMES = {"imported_at", "created_at", "modified_at"}


@dataclass(frozen=True, slots=True)
class RevertImport(DryRunnable[RevertPlan]):
    """Revert an import (its id in the history); with ``dry_run``, only say what it would
    do."""

    import_id: int
    dry_run: bool = False

    @property
    def label(self) -> str:
        """ "Revert import #3"."""
        return f"Revert import #{self.import_id}"


@dataclass(frozen=True, slots=True)
class RestoreImport(Operation[None]):
    """Put back a reverted import: ``payload`` is what the revert took (JSON)."""

    import_id: int
    payload: str
    label_text: str = ""

    @property
    def label(self) -> str:
        """The revert's label (the Edit menu says "Undo …")."""
        return self.label_text or f"Revert import #{self.import_id}"


def _rows(
    session: Session, model: Any, columns: tuple[str, ...], *where: Any
) -> list[dict[str, Any]]:
    stmt = select(*(getattr(model, c) for c in columns)).where(*where)
    return [
        {
            c: v.isoformat() if c in _TIMES and v is not None else v
            for c, v in zip(columns, row, strict=True)
        }
        for row in session.execute(stmt)
    ]


def _timed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {c: datetime.fromisoformat(v) if c in _TIMES and v else v for c, v in row.items()}
        for row in rows
    ]


def _put_back_tags(snapshot: PaperState, now: PaperState, applied: list[str] | None) -> PaperState:
    """The snapshot from before the import, with the tags given since."""
    state = snapshot.copy()
    state.version = None
    had = {tag_key(t) for t in state.tags}
    given = {tag_key(t) for t in applied} if applied is not None else set()
    state.tags = [*state.tags, *(t for t in now.tags if tag_key(t) not in had | given)]
    return state


def _payload(
    session: Session, work: RevertWork, before: dict[int, PaperState], files: list[FileRow]
) -> dict[str, Any]:
    removed = [pid for pid, _ in work.plan.removed]
    notes = _rows(session, Note, _NOTE, Note.paper_id.in_(removed)) if removed else []
    if work.notes:
        notes += _rows(session, Note, _NOTE, Note.id.in_(work.notes), Note.paper_id.not_in(removed))
    return {
        "removed": [before[pid].to_json() for pid in removed],
        "changed": [before[pid].to_json() for pid in before if pid not in set(removed)],
        "notes": notes,
        "batches": _rows(session, ImportBatch, _BATCH, ImportBatch.id.in_(work.batch_ids)),
        "batch_papers": _rows(
            session, BatchPaper, _BATCH_PAPER, BatchPaper.batch_id.in_(work.batch_ids)
        ),
        "files": [{**asdict(f), "added": f.added.isoformat()} for f in files],
        # the reading status and stars the import gave them, given again
        "readings": [[pid, *given] for pid, (given, _) in work.marks.items()],
    }


#: What a revert deletes when nothing uses it any more, and the column naming each row.
_ORPHANS = (("persons", Person, "key"), ("subjects", Subject, "code"), ("tags", Tag, "key"))


def _orphans_back(session: Session, orphans: dict[str, list[dict[str, Any]]]) -> dict[int, int]:
    """Put back the people, subjects and tags a revert deleted, with their ids (one of the
    same name made since stands for its row), the people with their merged spellings and
    the people they were told apart from; returns the people's ids now by their ids."""
    persons: dict[int, int] = {}
    for kind, model, column in _ORPHANS:
        rows = orphans.get(kind, [])
        held = _held(session, model, column, [r[column] for r in rows])
        fresh = [r for r in rows if r[column] not in held]
        if fresh:
            session.execute(insert(model), fresh)
        if kind == "persons":
            persons = {r["id"]: held.get(r[column], r["id"]) for r in rows}
    tie_again(session, orphans, persons)
    return persons


def _held(session: Session, model: Any, column: str, names: list[str]) -> dict[str, int]:
    """The rows holding these names (keys, codes) now, by name (a person's also by another
    spelling merged into them)."""
    found: dict[str, int] = {}
    named = getattr(model, column)
    for part in chunks(names):
        own = select(named, model.id).where(named.in_(part))
        if model is Person:
            spellings = select(PersonAlias.key, PersonAlias.person_id)
            rows = session.execute(own.union_all(spellings.where(PersonAlias.key.in_(part))))
        else:
            rows = session.execute(own)
        found.update((str(n), int(i)) for n, i in rows)
    return found


def _respellings(batches: list[dict[str, Any]]) -> list[Respelling]:
    """The people the batches of a reverted import named again (a better spelling)."""
    return [r for b in batches for r in json.loads(b["created"] or "{}").get("respelled", [])]


def _owned(batches: list[dict[str, Any]], owners: dict[int, int]) -> list[dict[str, Any]]:
    """Batches' rows with their page owners' ids now."""
    return [{**b, "owner_id": owners.get(b["owner_id"], b["owner_id"])} for b in batches]


def revert_import(ctx: Context, op: RevertImport) -> Outcome[RevertPlan]:
    """Revert an import; the inverse puts back everything the revert took."""
    s = ctx.session
    work = plan_revert(s, op.import_id)
    if op.dry_run:
        return Outcome(replace(work.plan, dry_run=True))
    removed = [pid for pid, _ in work.plan.removed]
    restored = [pid for pid, _ in work.plan.restored]
    before = load_states(s, [*removed, *restored, *work.unattributed])
    # The files of the papers that go, and those the import attached to papers that stay
    # (a PDF that found its paper): rows deleted, copies set aside, as Undo does.
    brought = [int(i) for i in work.created.get("files", [])]
    files = s.execute(
        select(PaperFile).where(or_(PaperFile.paper_id.in_(removed), PaperFile.id.in_(brought)))
    )
    taken = take_files(ctx, list(files.scalars()))
    payload = _payload(s, work, before, taken)
    applied = work.created.get("applied_tags")
    states = [_put_back_tags(work.snapshots[pid], before[pid], applied) for pid in restored]
    write_states(s, Registry(s), [], states, ctx.now, ctx.search)
    had = {pid: work.marks[pid][1] for pid in restored if pid in work.marks}
    put_readings(s, had, versioned=False)
    with ctx.search.changing(s, list(work.unattributed)):  # (owners may be searched words)
        for pid, owners in work.unattributed.items():
            s.execute(
                delete(Attribution).where(
                    Attribution.paper_id == pid, Attribution.person_id.in_(owners)
                )
            )
    for part in chunks(work.notes):
        s.execute(delete(Note).where(Note.id.in_(part)))
    delete_papers(s, ctx.search, removed)
    respelled = spell_again(s, ctx.search, work.created.get("respelled", []), back=True)
    s.execute(delete(ImportBatch).where(ImportBatch.id.in_(work.batch_ids)))
    payload["orphans"] = delete_orphans(s, work.created, keep=True)
    label = f"Revert import of {work.plan.label}"
    touched = frozenset(
        [*removed, *restored, *work.unattributed, *(f.paper_id for f in taken), *respelled]
    )
    changes = Changes(papers=touched, structure=True, tags=True, people=True)
    restore = RestoreImport(op.import_id, json.dumps(payload, ensure_ascii=False), label)
    return Outcome(work.plan, changes, restore, label)


def restore_import(ctx: Context, op: RestoreImport) -> Outcome[None]:
    """Put back a reverted import.

    Raises:
        ConflictError: Papers or imports were added since with the ids the import had.
    """
    s = ctx.session
    data = json.loads(op.payload)
    new = [PaperState.from_json(x) for x in data["removed"]]
    changed = [PaperState.from_json(x) for x in data["changed"]]
    taken = s.execute(select(Paper.id).where(Paper.id.in_([p.id for p in new])).limit(1)).first()
    batch_ids = [b["id"] for b in data["batches"]]
    files = [
        FileRow(**{**f, "added": datetime.fromisoformat(f["added"])}) for f in data.get("files", [])
    ]
    file_ids = [f.id for f in files]
    if (
        taken is not None
        or s.execute(select(ImportBatch.id).where(ImportBatch.id.in_(batch_ids)).limit(1)).first()
        or s.execute(select(PaperFile.id).where(PaperFile.id.in_(file_ids)).limit(1)).first()
    ):
        raise ConflictError(
            f"The import #{op.import_id} cannot come back: papers or imports were added since.",
            "The revert stays; import the pages again to bring their papers back.",
        )
    batches = _owned(data["batches"], _orphans_back(s, data.get("orphans", {})))
    write_states(s, Registry(s), new, changed, ctx.now, ctx.search)
    give_again(s, data.get("readings", []))
    s.execute(insert(ImportBatch), _timed(batches))
    for part in chunks(data["batch_papers"]):
        s.execute(insert(BatchPaper), part)
    if data["notes"]:
        s.execute(insert(Note), _timed(data["notes"]))
    put_files(ctx, files)
    respelled = spell_again(s, ctx.search, _respellings(data["batches"]), back=False)
    touched = frozenset([*(p.id for p in new), *(p.id for p in changed), *respelled])
    changes = Changes(
        papers=touched, added=frozenset(p.id for p in new), structure=True, tags=True, people=True
    )
    return Outcome(None, changes, RevertImport(op.import_id), op.label)


HANDLERS: dict[type, Handler] = {RevertImport: revert_import, RestoreImport: restore_import}
