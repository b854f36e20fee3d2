"""Files attached to papers: attached (copied into the library's storage folder, or linked
where they are), renamed, removed and put back, each undoable.

The operations live here with their handlers. Copying a file in happens before the write
transaction (:mod:`refman.core.file_copies`; a large file does not hold up other writers):
the copies are made first, then the rows written in one transaction; when that fails, the
copies are deleted; a file the paper holds already is not attached twice. Removing a
stored file sets it aside, and putting it back (Undo) returns it; emptying the Trash deletes
what was set aside, and the files of the papers it deletes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from refman.common.errors import InvalidValueError, NotFoundError, RefmanError
from refman.common.text import plural
from refman.core.context import Context, Handler, require_papers
from refman.core.extraction import count_pages
from refman.core.file_copies import Staged, held_copy
from refman.core.operations import Operation, Outcome
from refman.core.values import Changes, FileView
from refman.store.file_store import FileStore, check_source
from refman.store.models import Paper
from refman.store.models_files import PaperFile


@dataclass(frozen=True, slots=True)
class AttachFiles(Operation[tuple[FileView, ...]]):
    """Attach files to a paper: copied into the storage folder, or linked where they are.
    Its value: one view per path, of the file attached, or of the paper's file with the same
    content that stands for it (a file is never attached twice; see
    :func:`~refman.core.file_copies.held_copy`)."""

    paper_id: int
    paths: tuple[str, ...]
    link: bool = False

    @property
    def label(self) -> str:
        """ "Attach “paper.pdf”", "Attach 3 files"."""
        if len(self.paths) == 1:
            return f"Attach “{Path(self.paths[0]).name}”"
        return f"Attach {plural(len(self.paths), 'file')}"


@dataclass(frozen=True, slots=True)
class FileRow:
    """A file's row as it was, and where a removed stored file waits (for Undo)."""

    id: int
    paper_id: int
    name: str
    path: str
    linked: bool
    size: int
    pages: int | None
    added: datetime
    aside: str | None = None


@dataclass(frozen=True, slots=True)
class RemoveFiles(Operation[int]):
    """Take files off their papers (a stored file is set aside until Empty Trash)."""

    file_ids: tuple[int, ...]

    @property
    def label(self) -> str:
        """ "Remove 2 files"."""
        return f"Remove {plural(len(self.file_ids), 'file')}"


@dataclass(frozen=True, slots=True)
class RestoreFiles(Operation[int]):
    """Put removed files back as they were (the undo of :class:`RemoveFiles`)."""

    rows: tuple[FileRow, ...]

    @property
    def label(self) -> str:
        """ "Attach 2 files"."""
        return f"Attach {plural(len(self.rows), 'file')}"


@dataclass(frozen=True, slots=True)
class RenameFile(Operation[None]):
    """Give an attached file another name (a stored file is renamed on disk too)."""

    file_id: int
    name: str

    def __post_init__(self) -> None:
        name = " ".join(self.name.split())
        if not name or "/" in name or "\\" in name or name in {".", ".."}:
            raise InvalidValueError(
                f"“{self.name}” cannot be a file name.", "Type a name without slashes."
            )
        object.__setattr__(self, "name", name)

    @property
    def label(self) -> str:
        """ "Rename a file to “x.pdf”"."""
        return f"Rename a file to “{self.name}”"


def view_of(store: FileStore, row: PaperFile) -> FileView:
    """A file's row as shown, with whether it is where it should be."""
    where = store.where(row.path, row.linked)
    return FileView(
        id=row.id,
        paper_id=row.paper_id,
        name=row.name,
        path=str(where) if where is not None else "",
        linked=row.linked,
        size=row.size,
        pages=row.pages,
        missing=store.missing(row.path, row.linked),
        added=row.added_at,
    )


def files_of(
    session: Session, store: FileStore, paper_ids: Sequence[int]
) -> dict[int, list[FileView]]:
    """The files of these papers, by paper, in the order they were attached."""
    out: dict[int, list[FileView]] = {}
    rows = session.execute(
        select(PaperFile).where(PaperFile.paper_id.in_(list(paper_ids))).order_by(PaperFile.id)
    ).scalars()
    for row in rows:
        out.setdefault(row.paper_id, []).append(view_of(store, row))
    return out


def _touch(ctx: Context, paper_ids: set[int]) -> Changes:
    """Attaching or removing files is a change of the paper (an undo of its import, a
    revert, an edit made elsewhere meanwhile all see it)."""
    ctx.session.execute(
        update(Paper)
        .where(Paper.id.in_(sorted(paper_ids)))
        .values(version=Paper.version + 1, modified_at=ctx.now)
    )
    return Changes(papers=frozenset(paper_ids))


def attach_files(ctx: Context, op: AttachFiles) -> Outcome[tuple[FileView, ...]]:
    """Write the rows of the files copied in (or linked) before the transaction."""
    staged: Staged = ctx.prepared
    require_papers(ctx.session, [op.paper_id])
    views, rows = [], []
    for name, path, size, pages in staged.files:
        where = ctx.files.where(path, op.link)
        held = held_copy(ctx.session, ctx.files, op.paper_id, where, size) if where else None
        if held is not None:  # the paper has it already: its copy stands for this one
            if not op.link:
                ctx.files.delete(path)
            views.append(view_of(ctx.files, held))
            continue
        row = PaperFile(
            paper_id=op.paper_id,
            name=name,
            path=path,
            linked=op.link,
            size=size,
            pages=pages,
            added_at=ctx.now,
        )
        ctx.session.add(row)
        ctx.session.flush()
        rows.append(row)
        views.append(view_of(ctx.files, row))
    if not rows:
        return Outcome(tuple(views))
    inverse = RemoveFiles(tuple(r.id for r in rows))
    return Outcome(tuple(views), _touch(ctx, {op.paper_id}), inverse, op.label)


def _rows(session: Session, file_ids: Sequence[int]) -> list[PaperFile]:
    rows = list(
        session.execute(select(PaperFile).where(PaperFile.id.in_(list(file_ids)))).scalars()
    )
    if len(rows) != len(set(file_ids)):
        missing = sorted(set(file_ids) - {r.id for r in rows})
        raise NotFoundError(
            f"There is no attached file #{missing[0]} in this library.",
            "It was removed meanwhile; see the paper's files.",
        )
    return rows


def take_files(ctx: Context, rows: Sequence[PaperFile]) -> list[FileRow]:
    """Delete these files' rows, setting stored files aside (put back if the change fails);
    what :func:`put_files` needs to bring them back."""
    removed: list[FileRow] = []
    for row in rows:
        aside = None if row.linked else ctx.files.set_aside(row.path)
        if aside is not None:
            ctx.on_failure.append(partial(ctx.files.move, aside, row.path))
        removed.append(
            FileRow(
                row.id,
                row.paper_id,
                row.name,
                row.path,
                row.linked,
                row.size,
                row.pages,
                row.added_at,
                aside,
            )
        )
        ctx.session.delete(row)
    ctx.session.flush()
    return removed


def put_files(ctx: Context, rows: Sequence[FileRow]) -> None:
    """Write files' rows back and return set-aside files to their places (the undo of
    :func:`take_files`)."""
    for row in rows:
        if row.aside is not None:
            ctx.files.move(row.aside, row.path)
            ctx.on_failure.append(partial(ctx.files.move, row.path, row.aside))
        ctx.session.add(
            PaperFile(
                id=row.id,
                paper_id=row.paper_id,
                name=row.name,
                path=row.path,
                linked=row.linked,
                size=row.size,
                pages=row.pages,
                added_at=row.added,
            )
        )
    ctx.session.flush()


def remove_files(ctx: Context, op: RemoveFiles) -> Outcome[int]:
    """Delete the files' rows, setting stored files aside (put back if this fails)."""
    removed = take_files(ctx, _rows(ctx.session, op.file_ids))
    changes = _touch(ctx, {r.paper_id for r in removed})
    return Outcome(len(removed), changes, RestoreFiles(tuple(removed)), op.label)


def restore_files(ctx: Context, op: RestoreFiles) -> Outcome[int]:
    """Write the rows back and return set-aside files to their places."""
    require_papers(ctx.session, [r.paper_id for r in op.rows])
    put_files(ctx, op.rows)
    changes = _touch(ctx, {r.paper_id for r in op.rows})
    return Outcome(len(op.rows), changes, RemoveFiles(tuple(r.id for r in op.rows)), op.label)


def _require_there(store: FileStore, row: PaperFile) -> None:
    """Make sure a stored file is in its place before it is renamed there.

    Raises:
        RefmanError: It is missing (deleted or moved outside refman).
    """
    where = store.where(row.path, row.linked)
    if where is None or not where.is_file():
        raise RefmanError(
            f"“{row.name}” cannot be renamed: it is missing (not at {where}).",
            "Locate it first (Locate… in its menu), then rename it.",
        )


def rename_file(ctx: Context, op: RenameFile) -> Outcome[None]:
    """Rename a file (a stored one on disk too, to a name unique in its folder)."""
    (row,) = _rows(ctx.session, [op.file_id])
    old_name, old_path = row.name, row.path
    if op.name == old_name:
        return Outcome(None)
    if not row.linked:
        _require_there(ctx.files, row)
        new_path = ctx.files.rename(old_path, op.name)
        ctx.on_failure.append(partial(ctx.files.move, new_path, old_path))
        row.path = new_path
        row.name = Path(row.path).name
    else:
        row.name = op.name
    changes = _touch(ctx, {row.paper_id})
    return Outcome(None, changes, RenameFile(op.file_id, old_name), op.label)


def stored_files_of(session: Session, paper_ids: Sequence[int]) -> list[str]:
    """The paths of the stored (not linked) files of these papers."""
    return list(
        session.execute(
            select(PaperFile.path).where(
                PaperFile.paper_id.in_(list(paper_ids)), PaperFile.linked.is_(False)
            )
        ).scalars()
    )


@dataclass(frozen=True, slots=True)
class RelinkFile(Operation[None]):
    """Point a file's row at where the file is now (*Locate…*): its path, size and pages."""

    file_id: int
    path: str
    size: int
    pages: int | None

    @property
    def label(self) -> str:
        """ "Locate a file"."""
        return "Locate a file"


def relink_files(ctx: Context, op: RelinkFile) -> Outcome[None]:
    """Set a file's path, size and pages (the inverse puts the old ones back)."""
    (row,) = _rows(ctx.session, [op.file_id])
    inverse = RelinkFile(row.id, row.path, row.size, row.pages)
    row.path, row.size, row.pages = op.path, op.size, op.pages
    changes = _touch(ctx, {row.paper_id})
    return Outcome(None, changes, inverse, op.label)


def locate_file(session: Session, store: FileStore, file_id: int, found: Path) -> RelinkFile:
    """The change that makes a missing file the one found at ``found``: a linked file is
    linked there; a stored one is copied back into its place in the storage folder.

    Raises:
        RefmanError: The file found cannot be read, or copied (a full disk).
    """
    (row,) = _rows(session, [file_id])
    size = check_source(found)
    if row.linked:
        return RelinkFile(file_id, store.link_path(found), size, count_pages(found))
    path = store.store(found, str(row.paper_id), Path(row.path).name)
    return RelinkFile(file_id, path, size, count_pages(found))


@dataclass(frozen=True, slots=True)
class FilesCheck:
    """Where the attached files stand.

    Attributes:
        files: How many files are attached in all.
        missing: Those not where they should be.
        stray: Files in the storage folder that no paper has (left by a crash, or put there
            by hand), relative to it.
    """

    files: int
    missing: tuple[FileView, ...]
    stray: tuple[str, ...]


def check_files(session: Session, store: FileStore) -> FilesCheck:
    """Look for every attached file, and for files in the storage folder no paper has."""
    rows = list(session.execute(select(PaperFile).order_by(PaperFile.id)).scalars())
    views = [view_of(store, row) for row in rows]
    stray: list[str] = []
    if store.root is not None and store.root.is_dir():
        known = {row.path for row in rows if not row.linked}
        for found in sorted(store.root.rglob("*")):
            relative = found.relative_to(store.root).as_posix()
            hidden = relative.startswith(".") or found.name.startswith(".")  # set aside, partial
            if found.is_file() and not hidden and relative not in known:
                stray.append(relative)
    return FilesCheck(len(rows), tuple(v for v in views if v.missing), tuple(stray))


HANDLERS: dict[type, Handler] = {
    RelinkFile: relink_files,
    AttachFiles: attach_files,
    RemoveFiles: remove_files,
    RestoreFiles: restore_files,
    RenameFile: rename_file,
}
