"""The copies of attached files: made before the attachment's transaction (a large file
does not hold up other writers), and one rule for a file a paper holds already — attaching
it again, or importing it again (the same PDF under another name, say), adds no second copy."""

from __future__ import annotations

import filecmp
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from refman.core.context import on_disk
from refman.core.extraction import count_pages
from refman.store.file_store import FileStore, check_source
from refman.store.models_files import PaperFile

if TYPE_CHECKING:
    from refman.core.attachments import AttachFiles


@dataclass(frozen=True, slots=True)
class Staged:
    """The files of an :class:`AttachFiles`, copied in (or read) before its transaction."""

    files: tuple[tuple[str, str, int, int | None], ...]  # (name, path, size, pages)
    discard: Callable[[], None]


def stage_files(store: FileStore, op: AttachFiles) -> Staged:
    """Check, measure and (unless linked) copy in the files of an attachment.

    Raises:
        RefmanError: A file is missing, is a folder, cannot be read, or the disk is full
            (the files already copied are deleted again).
    """
    done: list[tuple[str, str, int, int | None]] = []

    def discard() -> None:
        if not op.link:
            on_disk([partial(store.delete, path) for _, path, _, _ in done], "to take back")

    try:
        for raw in op.paths:
            source = Path(raw).expanduser()
            size = check_source(source)
            pages = count_pages(source)
            if op.link:
                done.append((source.name, store.link_path(source), size, pages))
            else:
                path = store.store(source, str(op.paper_id), source.name)
                done.append((Path(path).name, path, size, pages))
    except BaseException:
        discard()
        raise
    return Staged(tuple(done), discard)


def held_copy(
    session: Session, store: FileStore, paper_id: int, source: Path, size: int
) -> PaperFile | None:
    """The paper's file with the content of ``source`` (the same size and the same bytes;
    for a file of the paper's that is missing, so its bytes cannot be compared, the same
    name and size), or None when the paper holds no such file."""
    rows = session.execute(
        select(PaperFile)
        .where(PaperFile.paper_id == paper_id, PaperFile.size == size)
        .order_by(PaperFile.id)
    ).scalars()
    for row in rows:
        where = store.where(row.path, row.linked)
        if where is None or not where.is_file():
            if row.name == source.name:
                return row
            continue
        try:
            if where.resolve() == source.resolve() or filecmp.cmp(where, source, shallow=False):
                return row
        except OSError:
            continue  # unreadable: not known to be the same file
    return None
