"""The files an import brings with its records (a PDF imported: its paper's file), attached
in the import's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path

from refman.common.errors import RefmanError
from refman.core.context import Context
from refman.core.extraction import count_pages
from refman.core.file_copies import held_copy
from refman.core.importing.values import ImportResult, SourcedPage
from refman.store.file_store import check_source
from refman.store.models_files import PaperFile


def attach_record_files(
    ctx: Context, pages: Sequence[SourcedPage], result: ImportResult
) -> list[int]:
    """Attach the files records came with (a PDF imported) to the papers they became or
    joined, copied in (linked on a library with no storage folder); a file the paper holds
    already (:func:`~refman.core.file_copies.held_copy`) is not attached twice. Returns the
    new files' ids."""
    added: list[PaperFile] = []
    for outcome in result.records:
        if outcome.paper_id is None:
            continue
        record = pages[outcome.ref[0]].page.records[outcome.ref[1]]
        for raw in record.files:
            source = Path(raw)
            try:
                size = check_source(source)
            except RefmanError:  # gone since it was read (a redo, say): the paper comes alone
                continue
            if held_copy(ctx.session, ctx.files, outcome.paper_id, source, size) is not None:
                continue
            linked = ctx.files.root is None
            path = ctx.files.link_path(source) if linked else None
            if path is None:
                path = ctx.files.store(source, str(outcome.paper_id), source.name)
                ctx.on_failure.append(partial(ctx.files.delete, path))
            added.append(
                PaperFile(
                    paper_id=outcome.paper_id,
                    name=Path(path).name,
                    path=path,
                    linked=linked,
                    size=size,
                    pages=count_pages(source),
                    added_at=ctx.now,
                )
            )
    ctx.session.add_all(added)
    ctx.session.flush()
    return [row.id for row in added]
