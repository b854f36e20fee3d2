"""The library service: the one way the UI and the command line read and change a library.

Each public method runs in its own short session; each change is one transaction that either
happens whole or not at all, and returns a :class:`~refman.core.values.Changes` value (or a
result that carries one) so that views can refresh what it touched.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path

from sqlalchemy import delete, func, select, update

from refman.common.errors import NotFoundError
from refman.core import queries
from refman.core.editing import Editor
from refman.core.id_lists import OrderedIds
from refman.core.import_values import ImportChoices, ImportPlan, ImportResult, SourcedPage
from refman.core.importing import Progress, apply_import, plan_import, undo_import
from refman.core.reading import load_details, load_people, load_person, load_tags
from refman.core.values import (
    Changes,
    NoteView,
    PaperDetail,
    PaperQuery,
    PaperRow,
    PersonView,
    Section,
    SectionCounts,
)
from refman.store import fts
from refman.store.database import Database, open_database
from refman.store.models import Paper

log = logging.getLogger("refman.library")

#: The query of the whole library (outside the Trash), newest first.
EVERYTHING = PaperQuery()
DEFAULT_CHOICES = ImportChoices()


def _now() -> datetime:
    return datetime.now().replace(microsecond=0)


class LibraryService(Editor):
    """Reads and changes one library."""

    def __init__(self, database: Database) -> None:
        super().__init__(database)
        self._ordered = OrderedIds()

    @classmethod
    def open(cls, location: str | Path) -> LibraryService:
        """Open (creating or upgrading) the library at a path or SQLAlchemy URL."""
        return cls(open_database(location))

    @property
    def location(self) -> str:
        """The library's file path (or URL when it is not a file)."""
        return str(self.db.path) if self.db.path else self.db.url

    def close(self) -> None:
        """Close the library."""
        self.db.close()

    # -- reading ----------------------------------------------------------------------------

    def count(self, query: PaperQuery = EVERYTHING) -> int:
        """How many papers a query shows (from the cached id list when there is one)."""
        return len(self.paper_ids(query))

    def paper_ids(self, query: PaperQuery = EVERYTHING) -> list[int]:
        """The ids a query shows, in order (ints only: cheap even for 100,000 papers)."""
        generation = self.db.generation
        with self.db.reading() as s:
            return self._ordered.ids(s, query, generation)

    def papers(
        self, query: PaperQuery = EVERYTHING, offset: int = 0, limit: int = 50
    ) -> list[PaperRow]:
        """A window of the list: ``limit`` rows from ``offset``."""
        with self.db.reading() as s:
            return queries.window(s, query, offset, limit)

    def rows(self, ids: Sequence[int]) -> list[PaperRow]:
        """List rows of these papers, in the order given."""
        with self.db.reading() as s:
            return queries.rows(s, ids)

    def paper(self, paper_id: int) -> PaperDetail:
        """Everything about one paper.

        Raises:
            NotFoundError: There is no paper with that id.
        """
        details = self.details([paper_id])
        if not details:
            raise NotFoundError(
                f"There is no paper #{paper_id} in this library.",
                "Use “refman list” to see the ids.",
            )
        return details[0]

    def details(self, ids: Sequence[int]) -> list[PaperDetail]:
        """Everything about several papers, in the order given."""
        with self.db.reading() as s:
            return load_details(s, ids)

    def tags(self) -> list:  # type: ignore[type-arg]
        """Every tag with its colour and paper count, by name."""
        with self.db.reading() as s:
            return load_tags(s)

    def people(self) -> list[PersonView]:
        """The owners of imported author pages, with how many papers each brought."""
        with self.db.reading() as s:
            return load_people(s)

    def person(self, person_id: int) -> PersonView | None:
        """A person (author or page owner) with the number of papers attributed to them."""
        with self.db.reading() as s:
            return load_person(s, person_id)

    def section_counts(self) -> SectionCounts:
        """How many papers each library section holds."""
        with self.db.reading() as s:
            counts = {sec: queries.count(s, PaperQuery(section=sec)) for sec in Section}
        return SectionCounts(
            all=counts[Section.ALL],
            attention=counts[Section.ATTENTION],
            untagged=counts[Section.UNTAGGED],
            recent=counts[Section.RECENT],
            trash=counts[Section.TRASH],
        )

    # -- importing --------------------------------------------------------------------------

    def plan_import(self, pages: Sequence[SourcedPage]) -> ImportPlan:
        """What importing these pages would do, record by record; changes nothing."""
        with self.db.reading() as s:
            return plan_import(s, pages)

    def import_pages(
        self,
        pages: Sequence[SourcedPage],
        choices: ImportChoices = DEFAULT_CHOICES,
        *,
        at: datetime | None = None,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> ImportResult:
        """Import pages as one transaction: all of it or nothing.

        Args:
            pages: Parsed pages and where they came from.
            choices: Records to skip, duplicates to keep apart, titles, tags, dry run.
            at: The import time (redo passes the original one).
            progress: Told (records done, records in all) now and then.
            cancelled: Asked now and then; True stops the import with
                :class:`~refman.core.importing.ImportCancelledError`, changing nothing.
        """
        when = at or _now()
        if choices.dry_run:
            with self.db.reading() as s:
                return apply_import(s, pages, choices, when, progress, cancelled)
        with self.db.transaction() as s:
            return apply_import(s, pages, choices, when, progress, cancelled)

    def undo_import(self, batch_ids: Sequence[int]) -> Changes:
        """Return the library to its state before an import."""
        with self.db.transaction() as s:
            touched = undo_import(s, batch_ids)
        return Changes(papers=frozenset(touched), tags=True, structure=True)

    # -- trash ------------------------------------------------------------------------------

    def trash(self, ids: Iterable[int]) -> Changes:
        """Move papers to the Trash (they can be restored)."""
        return self._set_trashed(ids, _now())

    def restore(self, ids: Iterable[int]) -> Changes:
        """Bring papers back from the Trash."""
        return self._set_trashed(ids, None)

    def trashed_at(self, ids: Iterable[int]) -> dict[int, datetime | None]:
        """When each paper was trashed (None when it is not in the Trash)."""
        wanted = list(ids)
        with self.db.reading() as s:
            rows = s.execute(select(Paper.id, Paper.trashed_at).where(Paper.id.in_(wanted)))
            return {pid: when for pid, when in rows}

    def set_trashed(self, when: dict[int, datetime | None]) -> Changes:
        """Put back trash times exactly (for undo)."""
        with self.db.transaction() as s:
            for pid, at in when.items():
                s.execute(update(Paper).where(Paper.id == pid).values(trashed_at=at))
        return Changes(papers=frozenset(when), structure=True, tags=True)

    def _set_trashed(self, ids: Iterable[int], when: datetime | None) -> Changes:
        wanted = sorted(set(ids))
        with self.db.transaction() as s:
            found = set(s.execute(select(Paper.id).where(Paper.id.in_(wanted))).scalars())
            missing = [i for i in wanted if i not in found]
            if missing:
                raise NotFoundError(
                    f"There is no paper #{missing[0]} in this library.",
                    "Use “refman list” to see the ids.",
                )
            state = (
                Paper.trashed_at.is_(None) if when is not None else Paper.trashed_at.is_not(None)
            )
            changed = list(s.execute(select(Paper.id).where(Paper.id.in_(wanted), state)).scalars())
            s.execute(update(Paper).where(Paper.id.in_(changed)).values(trashed_at=when))
        return Changes(papers=frozenset(changed), structure=True, tags=True)

    def empty_trash(self) -> int:
        """Delete the papers in the Trash for good. Returns how many."""
        with self.db.transaction() as s:
            ids = list(s.execute(select(Paper.id).where(Paper.trashed_at.is_not(None))).scalars())
            s.execute(delete(Paper).where(Paper.trashed_at.is_not(None)))
            fts.reindex(s, ids)
        return len(ids)

    def paper_count(self) -> int:
        """Papers in the library, Trash included."""
        with self.db.reading() as s:
            return int(s.execute(select(func.count()).select_from(Paper)).scalar_one())

    def note(self, note_id: int) -> NoteView:
        """One note."""
        return self._note(note_id)
