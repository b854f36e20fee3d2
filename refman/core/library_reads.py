"""Reading a library: the list, papers, tags, people and counts, each in a short read
session returning plain values (the reading half of
:class:`~refman.core.library.LibraryService`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import func, select

from refman.common.errors import NotFoundError
from refman.core import list_rows, name_variants, queries
from refman.core import people as people_reads
from refman.core import related as related_reads
from refman.core import saved_searches as saved
from refman.core.attachments import FilesCheck, check_files
from refman.core.context import no_paper
from refman.core.file_index import FoundText, IndexProgress, indexed_counts
from refman.core.file_index import snippet as file_snippet
from refman.core.id_lists import OrderedIds
from refman.core.importing.history import ImportView, import_history
from refman.core.importing.plan import plan_import
from refman.core.importing.values import ImportPlan, SourcedPage
from refman.core.notes import no_note
from refman.core.reading import (
    load_details,
    load_tag_names,
    load_tags,
    view_of,
)
from refman.core.tag_names import require_tags
from refman.core.values import (
    NameVariant,
    NoteView,
    PaperDetail,
    PaperQuery,
    PaperRow,
    PersonPage,
    PersonView,
    SavedSearchView,
    SectionCounts,
    TagView,
)
from refman.store.bulk import chunks
from refman.store.database import Database
from refman.store.file_store import FileStore, storage_beside
from refman.store.models import Note, Paper
from refman.store.models_upkeep import in_trash, is_live

if TYPE_CHECKING:
    from refman.core.export import ExportFormat, ExportText

#: The query of the whole library (outside the Trash), newest first.
EVERYTHING = PaperQuery()


class LibraryReads:
    """What the window and the command line read from one library."""

    def __init__(self, database: Database) -> None:
        self.db = database
        self._ordered = OrderedIds(database.search)
        #: Where the library's attached files are (see :mod:`refman.store.file_store`).
        self.files = FileStore(storage_beside(database.path) if database.path else None)

    def use_base_folder(self, base: Path | None) -> None:
        """Keep linked files' paths relative to ``base`` (a synced folder that has another
        place on every machine), or absolute (None)."""
        self.files = FileStore(self.files.root, base)

    def count(self, query: PaperQuery = EVERYTHING) -> int:
        """How many papers a query shows (counted in the database)."""
        with self.db.reading() as s:
            return queries.count(s, query, self.db.search)

    def paper_ids(self, query: PaperQuery = EVERYTHING) -> list[int]:
        """The ids a query shows, in order (ints only: cheap even for 100,000 papers)."""
        generation = self.db.generation
        with self.db.reading() as s:
            return self._ordered.ids(s, query, generation)

    def in_trash(self, paper_ids: Sequence[int]) -> list[int]:
        """Which of the papers named are in the Trash, in the order named."""
        with self.db.reading() as s:
            found = {
                int(i)
                for part in chunks(list(paper_ids), 500)
                for i in s.scalars(select(Paper.id).where(Paper.id.in_(part), in_trash(Paper.id)))
            }
        return [i for i in paper_ids if i in found]

    def papers(
        self, query: PaperQuery = EVERYTHING, offset: int = 0, limit: int = 50
    ) -> list[PaperRow]:
        """A window of the list: ``limit`` rows from ``offset``."""
        with self.db.reading() as s:
            return queries.window(s, query, self.db.search, offset, limit)

    def list_ids(self, query: PaperQuery, offset: int, limit: int) -> list[int]:
        """The ids of rows ``offset`` to ``offset + limit`` of a query's list."""
        with self.db.reading() as s:
            return queries.id_window(s, query, self.db.search, offset, limit)

    def rows(self, ids: Sequence[int]) -> list[PaperRow]:
        """List rows of these papers, in the order given."""
        with self.db.reading() as s:
            return list_rows.rows(s, ids)

    def paper(self, paper_id: int) -> PaperDetail:
        """Everything about one paper.

        Raises:
            NotFoundError: There is no paper with that id.
        """
        details = self.details([paper_id])
        if not details:
            raise no_paper(paper_id)
        return details[0]

    def details(self, ids: Sequence[int]) -> list[PaperDetail]:
        """Everything about several papers, in the order given."""
        with self.db.reading() as s:
            return load_details(s, ids, self.files)

    def cite(
        self,
        ids: Sequence[int],
        style: str | None = None,
        fmt: str = "text",
        language: str | None = None,
        *,
        in_text: bool = False,
    ) -> str:
        """The bibliography of papers in a citation style, as text or HTML, in the style's
        language or in ``language`` ("de-DE")
        (:func:`refman.core.citations.render_bibliography`; "" for no papers); with
        ``in_text``, their in-text citation ("(Doe & Roe, 2023; Smith et al., 2020)",
        :func:`refman.core.citations.paper_citation`).

        Raises:
            NotFoundError: A paper does not exist.
            InvalidValueError: An unknown style (the message lists them), format or language.
        """
        from refman.core.citations import (  # loaded when used
            DEFAULT_STYLE,
            paper_citation,
            render_bibliography,
        )

        details = self.all_details(ids)
        if in_text:
            return paper_citation(details, style or DEFAULT_STYLE, fmt, language)
        return render_bibliography(details, style or DEFAULT_STYLE, fmt, language)

    def cite_keys(self, ids: Sequence[int]) -> str:
        """``\\cite{a,b}`` with the citation keys of papers, in the order given.

        Raises:
            NotFoundError: A paper does not exist.
        """
        from refman.core.citations import citation_keys

        return citation_keys(self.all_details(ids))

    def export(
        self, ids: Sequence[int], fmt: ExportFormat | str, *, with_notes: bool = False
    ) -> str:
        """Papers as the text of an export file (BibTeX, RIS, ...), in the order given.

        The papers are read 500 at a time; nothing changes (this is a read, not an operation).

        Raises:
            NotFoundError: One of the ids is not a paper.
            ValueError: ``fmt`` is not an export format.
        """
        return self.export_text(ids, fmt, with_notes=with_notes).text

    def export_text(
        self, ids: Sequence[int], fmt: ExportFormat | str, *, with_notes: bool = False
    ) -> ExportText:
        """Papers as an export file (see :meth:`export`), with the papers whose key a ``.bib``
        file holds otherwise (:class:`~refman.core.export.KeyChange`)."""
        from refman.core.export import export_text  # loaded when first used

        return export_text(self.all_details(ids), fmt, with_notes=with_notes)

    def all_details(self, ids: Sequence[int]) -> list[PaperDetail]:
        """Everything about papers, each once, in the order given (read 500 at a time).

        Raises:
            NotFoundError: One of the ids is not a paper.
        """
        wanted = list(dict.fromkeys(ids))
        details: list[PaperDetail] = []
        for part in chunks(wanted):
            found = self.details(part)
            if len(found) < len(part):
                raise no_paper(min(set(part) - {d.id for d in found}))
            details.extend(found)
        return details

    def note(self, note_id: int) -> NoteView:
        """One note (``NotFoundError`` when there is no note with that id)."""
        with self.db.reading() as s:
            note = s.get(Note, note_id)
            if note is None:
                raise no_note(note_id)
            return view_of(note)

    def tags(self) -> list[TagView]:
        """Every tag with its colour and paper count, by name."""
        with self.db.reading() as s:
            return load_tags(s)

    def tag_names(self) -> list[str]:
        """Every tag's name, by name (what completing a tag offers: no counts to work out)."""
        with self.db.reading() as s:
            return load_tag_names(s)

    def require_tags(self, names: Sequence[str], search: str = "") -> None:
        """Check that every name is a tag's (any case), as a list filtered by tags needs,
        and that every ``tag:`` term of the search line ``search`` names one.

        Raises:
            NotFoundError: A name no tag has, with the tags most like it
                (:func:`refman.core.tag_names.require_tags`).
        """
        if names or "tag:" in search.lower():
            with self.db.reading() as s:
                require_tags(s, names, search)

    def people(self) -> list[PersonView]:
        """The people followed (owners of imported author pages), by name, with their papers
        (written or listed on their pages) and the new ones among them."""
        with self.db.reading() as s:
            return people_reads.followed(s)

    def everyone(self, text: str = "", limit: int = people_reads.PEOPLE_SHOWN) -> list[PersonView]:
        """Every person with papers whose name contains ``text``, the most papers first."""
        return self.people_named(text, limit)[0]

    def people_named(
        self, text: str = "", limit: int = people_reads.PEOPLE_SHOWN
    ) -> tuple[list[PersonView], int]:
        """:meth:`everyone` (at most ``limit``), and how many people are named so in all."""
        with self.db.reading() as s:
            return people_reads.list_people(s, text, limit)

    def count_people(self) -> int:
        """How many people (authors and page owners) have papers in the library."""
        with self.db.reading() as s:
            return people_reads.count_people(s)

    def person(self, person_id: int) -> PersonView | None:
        """A person (author or page owner) with their papers' count; None when unknown."""
        with self.db.reading() as s:
            return people_reads.person_view(s, self.db.search, person_id)

    def no_person(self, person_id: int) -> NotFoundError:
        """The error for a person id the library does not hold, saying whom a person merged
        into another went into (:func:`refman.core.people.no_person`)."""
        with self.db.reading() as s:
            return people_reads.no_person(person_id, s)

    def person_page(self, person_id: int) -> PersonPage | None:
        """A person's page: papers, pages imported, co-authors, other spellings."""
        with self.db.reading() as s:
            return people_reads.person_page(s, self.db.search, person_id)

    def related(
        self, paper_id: int, limit: int = related_reads.RELATED_SHOWN
    ) -> list[related_reads.RelatedPaper]:
        """The papers most related to one (by their titles' and abstracts' distinctive
        words), the most related first (``NotFoundError`` when there is no such paper)."""
        with self.db.reading() as s:
            return related_reads.related_papers(s, self.db.search, paper_id, limit)

    def check_files(self) -> FilesCheck:
        """Look for every attached file (and for stray files in the storage folder)."""
        with self.db.reading() as s:
            return check_files(s, self.files)

    def index_progress(self) -> IndexProgress:
        """How many attached PDFs have their text in the search, of how many."""
        with self.db.reading() as s:
            return indexed_counts(s)

    def snippet(self, paper_id: int, query: str) -> FoundText | None:
        """The sentence of a paper's files that a search found, the file's name, and whether
        the file is missing (its text, read while it was there, is still searched)."""
        with self.db.reading() as s:
            return file_snippet(s, paper_id, query, self.files)

    def saved_searches(self) -> list[SavedSearchView]:
        """Every saved search by name, with how many papers each finds now."""
        with self.db.reading() as s:
            return saved.saved_searches(s, self.db.search)

    def saved_search(self, name_or_id: str, *, by_id: bool = True) -> SavedSearchView:
        """A saved search by name (any case) or, unless not ``by_id``, id (``NotFoundError``
        when there is none)."""
        with self.db.reading() as s:
            return saved.find_saved(s, name_or_id, by_id=by_id)

    def history(self) -> list[ImportView]:
        """Every import in the library, newest first."""
        with self.db.reading() as s:
            return import_history(s)

    def name_variants(self) -> list[NameVariant]:
        """Other spellings of the followed people's names that may be the same person."""
        with self.db.reading() as s:
            return name_variants.all_variants(s)

    def section_counts(self) -> SectionCounts:
        """How many papers each library section holds."""
        with self.db.reading() as s:
            return queries.section_counts(s, self.db.search)

    def paper_count(self) -> int:
        """Papers in the library, Trash included."""
        with self.db.reading() as s:
            counted = select(func.count()).select_from(Paper).where(is_live(Paper.id))
            return int(s.execute(counted).scalar_one())

    def is_empty(self) -> bool:
        """True when the library holds no paper, Trash included (at once at any size)."""
        with self.db.reading() as s:
            return s.execute(select(Paper.id).where(is_live(Paper.id)).limit(1)).first() is None

    def plan_import(self, pages: Sequence[SourcedPage]) -> ImportPlan:
        """What importing these pages would do, record by record; changes nothing."""
        with self.db.reading() as s:
            return plan_import(s, self.db.search, pages)
