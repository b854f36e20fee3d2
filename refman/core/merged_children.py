"""The notes and files a merge moved, and where they go when the merged paper comes back.

A merge moves the other paper's notes and files to the paper kept
(:mod:`refman.core.paper_merge`) and remembers the paper each came from (``merged_children``).
Restored from the Trash, the merged paper is a paper of its own again (found by its own keys,
cited by its own key), and it takes back the notes and files its merge moved, wherever they
are now (the kept paper may have been merged in turn), but those deleted since: nothing it
brought is lost with it, nor held twice. Everything else the merge gave the kept paper — fields
it lacked, owners, subjects, tags — was a copy, which both keep. An undo of the restore gives
them back to the paper they were on; an undo of the merge puts everything back as it was.

A note or file keeps the paper of the first merge that moved it: merged into a paper that is
merged in turn, it comes back with the paper it was written for.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import ColumnElement, and_, delete, insert, or_, select, update
from sqlalchemy.orm import Session

from refman.store.bulk import id_set
from refman.store.models import Note, Paper
from refman.store.models_files import FileText, PaperFile
from refman.store.models_upkeep import MergedChild

NOTE = "note"
FILE = "file"
#: Each kind's id and paper columns.
_COLUMNS = {NOTE: (Note.id, Note.paper_id), FILE: (PaperFile.id, PaperFile.paper_id)}

#: A note or file (kind, its id).
Child = tuple[str, int]
#: A note or file a restore moved: (kind, its id, the paper it was on, the paper restored,
#: which took it back).
ChildMove = tuple[str, int, int, int]


def children_of(session: Session, paper_id: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A paper's notes and files (ids, in order)."""
    notes = session.scalars(select(Note.id).where(Note.paper_id == paper_id).order_by(Note.id))
    files = session.scalars(
        select(PaperFile.id).where(PaperFile.paper_id == paper_id).order_by(PaperFile.id)
    )
    return tuple(notes), tuple(files)


def move_children(
    session: Session, notes: Collection[int], files: Collection[int], to: int
) -> None:
    """Put these notes and files (with the files' texts) on paper ``to``."""
    if notes:
        session.execute(update(Note).where(Note.id.in_(id_set(notes))).values(paper_id=to))
    if files:
        moved = id_set(files)
        session.execute(update(PaperFile).where(PaperFile.id.in_(moved)).values(paper_id=to))
        session.execute(update(FileText).where(FileText.id.in_(moved)).values(paper_id=to))


def _children(notes: Collection[int], files: Collection[int]) -> list[Child]:
    return [(NOTE, n) for n in notes] + [(FILE, f) for f in files]


def _ids(children: Sequence[Child], kind: str) -> list[int]:
    return [child for k, child in children if k == kind]


def _rows_of(children: Sequence[Child]) -> ColumnElement[bool]:
    """Whether a row of ``merged_children`` is one of these notes' and files'."""
    return or_(
        *(
            and_(MergedChild.kind == kind, MergedChild.child_id.in_(id_set(ids)))
            for kind in (NOTE, FILE)
            if (ids := _ids(children, kind))
        )
    )


def remember_moved(session: Session, merged_id: int, children: Sequence[Child]) -> None:
    """A merge moved these notes and files from paper ``merged_id``: it takes them back when
    it is restored (those an earlier merge moved keep the paper they came from first)."""
    if not children:
        return
    rows = select(MergedChild.kind, MergedChild.child_id).where(_rows_of(children))
    held = {(str(k), int(c)) for k, c in session.execute(rows)}
    new = [
        {"kind": kind, "child_id": child, "merged_id": merged_id}
        for kind, child in children
        if (kind, child) not in held
    ]
    if new:
        session.execute(insert(MergedChild), new)


def moved_by_merge(
    session: Session, merged_id: int, notes: Collection[int], files: Collection[int], to: int
) -> None:
    """A merge of paper ``merged_id``: its notes and files (those moving) go to paper ``to``,
    remembered as its own."""
    move_children(session, notes, files, to)
    remember_moved(session, merged_id, _children(notes, files))


def back_from_merge(
    session: Session, merged_id: int, keep: int, notes: Collection[int], files: Collection[int]
) -> None:
    """A merge of paper ``merged_id`` into paper ``keep`` taken back: the notes and files it
    moved (those still on ``keep``) are the merged paper's again, and no more its merge's."""
    held_notes, held_files = (set(ids) for ids in children_of(session, keep))
    move_children(
        session,
        [n for n in notes if n in held_notes],
        [f for f in files if f in held_files],
        merged_id,
    )
    children = _children(notes, files)
    if children:
        session.execute(
            delete(MergedChild).where(MergedChild.merged_id == merged_id, _rows_of(children))
        )


def take_back(session: Session, paper_ids: Collection[int]) -> tuple[ChildMove, ...]:
    """Papers back from the Trash take back the notes and files their merges moved (see the
    module). Returns what moved (for an undo: :func:`give_back`)."""
    if not paper_ids or session.scalar(select(MergedChild.kind).limit(1)) is None:
        return ()  # (no merge moved anything: most libraries)
    mine = MergedChild.merged_id.in_(id_set(paper_ids))
    rows = session.execute(
        select(MergedChild.kind, MergedChild.child_id, MergedChild.merged_id).where(mine)
    ).all()
    if not rows:
        return ()
    where = _where(session, [(str(k), int(c)) for k, c, _ in rows])
    moves = [
        (str(kind), int(child), now, int(merged))
        for kind, child, merged in rows
        if (now := where.get((kind, child))) is not None and now != merged
    ]
    for merged in sorted({m[3] for m in moves}):
        taken = [(k, c) for k, c, _, m in moves if m == merged]
        move_children(session, _ids(taken, NOTE), _ids(taken, FILE), merged)
    session.execute(delete(MergedChild).where(mine))
    return tuple(moves)


def give_back(session: Session, moves: Sequence[ChildMove], trashed: Collection[int]) -> None:
    """Papers back to the Trash by an undo of their restore (``trashed``): the notes and files
    :func:`take_back` moved to them go back to the paper they were on (those still on the
    paper restored, to a paper still there), remembered as its merge's again."""
    back = _still_theirs(session, [m for m in moves if m[3] in trashed])
    for to in sorted({m[2] for m in back}):
        given = [(k, c) for k, c, t, _ in back if t == to]
        move_children(session, _ids(given, NOTE), _ids(given, FILE), to)
    for merged in sorted({m[3] for m in back}):
        remember_moved(session, merged, [(k, c) for k, c, _, m in back if m == merged])


def _still_theirs(session: Session, moves: Sequence[ChildMove]) -> list[ChildMove]:
    """The moves whose note or file is still on the paper restored, and whose paper it came
    from is still in the library."""
    if not moves:
        return []
    where = _where(session, [(k, c) for k, c, _, _ in moves])
    wanted = id_set({m[2] for m in moves})
    there = set(session.scalars(select(Paper.id).where(Paper.id.in_(wanted))))
    return [m for m in moves if where.get((m[0], m[1])) == m[3] and m[2] in there]


def _where(session: Session, children: Sequence[Child]) -> dict[Child, int]:
    """The paper each of these notes and files is on now (those that still exist)."""
    found: dict[Child, int] = {}
    for kind, (child, paper) in _COLUMNS.items():
        if ids := _ids(children, kind):
            rows = session.execute(select(child, paper).where(child.in_(id_set(ids))))
            found.update(((kind, int(i)), int(p)) for i, p in rows)
    return found
