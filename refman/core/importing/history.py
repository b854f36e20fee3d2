"""The import history: every import still in the library, newest first, with its pages and
what it did (papers it added, papers it added something to)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from refman.store.models import BatchPaper, ImportBatch, Person


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page (or bibliography file) of an import."""

    batch_id: int
    source: str
    owner: str
    format: str
    parsed: int


@dataclass(frozen=True, slots=True)
class ImportView:
    """One import of the history.

    Attributes:
        import_id: The import's id (``refman revert IMPORT_ID``).
        imported_at: When.
        pages: Its pages, in the order imported.
        new: Papers it added.
        merged: Papers already in the library (or brought by another of its pages) that it
            added something to.
        imported_by: Who made it (the database user; on a library file, the login name);
            None when not known (an import made before refman recorded it).
    """

    import_id: int
    imported_at: datetime
    pages: tuple[HistoryPage, ...]
    new: int
    merged: int
    imported_by: str | None = None

    @property
    def records(self) -> int:
        """Records its pages held."""
        return sum(p.parsed for p in self.pages)

    @property
    def found_again(self) -> int:
        """Records that found a paper as it was, or repeated one of the import."""
        return max(self.records - self.new - self.merged, 0)

    @property
    def label(self) -> str:
        """ "zhuo.txt", or "zhuo.txt and 2 more"."""
        first = self.pages[0].source if self.pages else "an import"
        more = len(self.pages) - 1
        return f"{first} and {more} more" if more else first


def import_history(session: Session, import_id: int | None = None) -> list[ImportView]:
    """Every import in the library, newest first (or only ``import_id``)."""
    stmt = (
        select(
            ImportBatch.id,
            ImportBatch.import_id,
            ImportBatch.imported_at,
            ImportBatch.source,
            func.coalesce(Person.name, ""),
            ImportBatch.format,
            ImportBatch.parsed,
            ImportBatch.imported_by,
        )
        .join(Person, Person.id == ImportBatch.owner_id, isouter=True)
        .order_by(ImportBatch.import_id.desc(), ImportBatch.id)
    )
    if import_id is not None:
        stmt = stmt.where(ImportBatch.import_id == import_id)
    pages: dict[int, list[HistoryPage]] = {}
    when: dict[int, datetime] = {}
    who: dict[int, str | None] = {}
    for batch, imp, at, source, owner, fmt, parsed, by in session.execute(stmt):
        pages.setdefault(imp, []).append(HistoryPage(batch, source, owner, fmt, parsed))
        when.setdefault(imp, at)
        who.setdefault(imp, by)
    counts = select(ImportBatch.import_id, BatchPaper.action, func.count())
    counts = counts.join(BatchPaper, BatchPaper.batch_id == ImportBatch.id)
    if import_id is not None:
        counts = counts.where(ImportBatch.import_id == import_id)
    done: dict[tuple[int, str], int] = {
        (int(imp), str(action)): int(n)
        for imp, action, n in session.execute(
            counts.group_by(ImportBatch.import_id, BatchPaper.action)
        )
    }
    return [
        ImportView(
            import_id=imp,
            imported_at=when[imp],
            pages=tuple(found),
            new=done.get((imp, "added"), 0),
            merged=done.get((imp, "merged"), 0),
            imported_by=who[imp],
        )
        for imp, found in pages.items()
    ]
