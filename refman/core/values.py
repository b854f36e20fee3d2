"""Plain values the library service hands to its callers (UI and command line). None of
them holds a session or a live ORM object: they are safe to keep, compare and pass between
threads."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from datetime import datetime
from itertools import islice
from typing import TYPE_CHECKING, Any

from refman.importers.records import PersonName
from refman.store.search_terms import without_open_quote

if TYPE_CHECKING:
    from refman.core.search_syntax import SearchFilter


class Section(enum.StrEnum):
    """The library sections of the navigation pane."""

    ALL = "all"
    UNREAD = "unread"  # not read yet (its reading status)
    ATTENTION = "attention"  # provisional title, incomplete authors or a possible duplicate
    UNTAGGED = "untagged"
    RECENT = "recent"  # added or changed by the last import
    TRASH = "trash"


class SortKey(enum.StrEnum):
    """Orders of the paper list."""

    RELEVANCE = "relevance"  # best full-text match first; "added" when there is no search
    TITLE = "title"
    AUTHOR = "author"
    YEAR = "year"
    VENUE = "venue"
    ADDED = "added"
    STATUS = "status"  # read, reading, unread
    RATING = "rating"  # stars


@dataclass(frozen=True, slots=True)
class PaperQuery:
    """What the paper list shows.

    Attributes:
        text: Full-text search: every word must match, the last as a prefix, "quoted
            phrases" as phrases.
        tags: Tag names that must all be present.
        section: Library section.
        person_id: Only papers attributed to (or written by) this person.
        sort: Sort key.
        descending: Reverse the sort.
        filters: Fields, ranges, exclusions and alternatives of the search line (read from
            ``text`` by :func:`refman.core.search_syntax.with_syntax`).
        any_tags: Papers with any of the tags, not all of them.
        everything: The search also looks in the text of the papers' files (PDFs).
    """

    text: str = ""
    tags: tuple[str, ...] = ()
    section: Section = Section.ALL
    person_id: int | None = None
    sort: SortKey = SortKey.RELEVANCE
    descending: bool = False
    filters: tuple[SearchFilter, ...] = ()
    any_tags: bool = False
    everything: bool = False


@dataclass(frozen=True, slots=True)
class PaperRow:
    """One line of the paper list."""

    id: int
    title: str
    title_provisional: bool
    first_author: str  # "Ziheng Jiang et al.", or "" when the page gave no authors
    year: int | None
    venue: str | None
    added: datetime
    needs_attention: bool
    #: The reading status (unread, reading, read) and the rating (0 to 5 stars).
    status: str = "unread"
    rating: int = 0
    #: The owner of a page that brought the paper, the one refman met first ("" when none):
    #: the list shows it where the pages gave no authors.
    owner: str = ""
    #: What it says in place of a year it has not ("in press"; see publication_status.py).
    publication_status: str | None = None


@dataclass(frozen=True, slots=True)
class NoteView:
    """A note as shown and exported."""

    id: int
    paper_id: int
    text: str
    created: datetime
    modified: datetime
    #: Who wrote the note, and who last changed it (None when not known).
    created_by: str | None = None
    modified_by: str | None = None


@dataclass(frozen=True, slots=True)
class FileView:
    """A file attached to a paper, as shown and printed.

    Attributes:
        path: Where it is on this machine ("" when that cannot be told).
        linked: Left where it was (not copied into the library's storage folder).
        pages: A PDF's pages (None: not a PDF, or they could not be read).
        missing: It is not where it should be (moved or deleted outside refman).
    """

    id: int
    paper_id: int
    name: str
    path: str
    linked: bool
    size: int
    pages: int | None
    missing: bool
    added: datetime


@dataclass(frozen=True, slots=True)
class SourceView:
    """One import that brought a paper: whose page, which file, when, by whom (None: not
    known)."""

    owner: str
    file: str
    imported: datetime
    imported_by: str | None = None


@dataclass(frozen=True, slots=True)
class TagView:
    """A tag with its colour and how many papers (not in the trash) carry it."""

    id: int
    name: str
    colour: str | None
    count: int = 0


@dataclass(frozen=True, slots=True)
class PersonView:
    """A person with the number of their papers (attributed to them or written by them).

    Attributes:
        new: Papers the last import of their page added that nobody has looked at since.
        pages: How many pages were imported for them (0 for an author only).
    """

    id: int
    name: str
    count: int = 0
    new: int = 0
    pages: int = 0


@dataclass(frozen=True, slots=True)
class PageImport:
    """A page imported for a person: when, from where, and how many papers it listed."""

    batch_id: int
    import_id: int
    source: str
    imported_at: datetime
    parsed: int


@dataclass(frozen=True, slots=True)
class CoAuthor:
    """Someone who wrote papers with a person, and how many of them."""

    id: int
    name: str
    shared: int


@dataclass(frozen=True, slots=True)
class NameVariant:
    """Two people whose names may be spellings of one person's (proposed, never merged
    without the user): "Z. Jiang" and "Zhuo Jiang", whose papers overlap.

    Attributes:
        first: The one with more papers (kept when they are merged).
        second: The other.
        overlap: Papers and co-authors the two have in common.
    """

    first: PersonView
    second: PersonView
    overlap: int


@dataclass(frozen=True, slots=True)
class PersonPage:
    """A person's page: their papers' count, the pages imported for them, co-authors ranked
    by shared papers, and other spellings of their name."""

    person: PersonView
    pages: tuple[PageImport, ...] = ()
    coauthors: tuple[CoAuthor, ...] = ()
    variants: tuple[NameVariant, ...] = ()


@dataclass(frozen=True, slots=True)
class PaperDetail:
    """Everything the detail pane and ``refman show`` present about a paper."""

    id: int
    title: str
    title_provisional: bool
    authors: tuple[str, ...]
    author_ids: tuple[int, ...]
    authors_complete: bool
    year: int | None
    venue: str | None
    subjects: tuple[str, ...]
    abstract: str  # raw, as imported
    abstract_text: str  # readable: LaTeX turned into Unicode
    attributed_to: tuple[str, ...]
    tags: tuple[TagView, ...]
    notes: tuple[NoteView, ...]
    added: datetime
    modified: datetime
    trashed: datetime | None
    sources: tuple[SourceView, ...]
    user_edited: frozenset[str]
    possible_duplicate_of: int | None
    doi: str | None = None
    arxiv_id: str | None = None
    url: str | None = None
    type: str = "article"
    citekey: str | None = None
    volume: str | None = None
    issue: str | None = None
    pages: str | None = None
    publisher: str | None = None
    #: Further CSL variables (editor, ISBN, edition, issued month, ...).
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: The authors' name parts, parallel to ``authors``.
    author_names: tuple[PersonName, ...] = ()
    #: Moves on with every change of the paper (see :attr:`refman.store.models.Paper.version`).
    version: int = 1
    created_by: str | None = None  # who added the paper (None: not known)
    modified_by: str | None = None  # who last changed it
    status: str = "unread"  # the reading status (unread, reading, read)
    rating: int = 0  # 0 to 5 stars
    #: The files attached to the paper, in the order they were attached.
    files: tuple[FileView, ...] = ()
    #: The paper this one was merged into (it waits in the Trash), or None.
    merged_into: int | None = None
    #: Its other citation keys (:mod:`refman.core.citekey_aliases`).
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SectionCounts:
    """How many papers each library section holds."""

    all: int
    attention: int
    untagged: int
    recent: int
    trash: int
    unread: int

    def of(self, section: Section) -> int:
        """The count of one section."""
        return int(getattr(self, section.value))


@dataclass(frozen=True, slots=True)
class SavedSearchView:
    """A saved search, and how many papers it finds now (-1: not counted); ``gone``: the
    tags it names that the library no longer holds (deleted since it was saved)."""

    id: int
    name: str
    text: str
    tags: tuple[str, ...] = ()
    any_tags: bool = False
    count: int = -1
    gone: tuple[str, ...] = ()

    def search_line(self) -> str:
        """The saved search as one search line (its tags as ``tag:`` terms), to add to."""
        terms = ['tag:"' + t.replace('"', " ") + '"' for t in self.tags]
        joined = " OR ".join(terms) if self.any_tags else " ".join(terms)
        return f"{without_open_quote(self.text)} {joined}".strip()


@dataclass(frozen=True, slots=True)
class Navigation:
    """What the navigation pane shows: the sections' counts, the people and the tags.

    Attributes:
        counts: How many papers each section holds.
        people: Page owners with their paper counts.
        tags: Every tag with its colour and count.
        person_count: The paper count of one more person asked for (an author who owns no
            page, shown while selected), or None.
        saved: The saved searches, by name, with their counts.
    """

    counts: SectionCounts
    people: list[PersonView]
    tags: list[TagView]
    person_count: int | None = None
    saved: list[SavedSearchView] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Changes:
    """What one service call changed, so each view can decide what to refresh.

    Attributes:
        papers: Ids of papers whose fields, tags, notes or trash state changed.
        added: Ids of papers that now exist and did not before (or the reverse on undo).
        tags: Tag names or colours changed (the tag pane must reload).
        notes: Notes changed.
        structure: Papers appeared or disappeared: lists and counts must reload.
        people: People were merged, told apart or looked at (the People list reloads).
        searches: Saved searches were saved, changed or deleted.
        purging: Papers an undone import withdrew wait to be deleted for good (the window
            goes on with it in the background: :class:`refman.core.importing.purge.PurgeStep`).
    """

    papers: AbstractSet[int] = frozenset()
    added: AbstractSet[int] = frozenset()
    tags: bool = False
    notes: bool = False
    structure: bool = False
    people: bool = False
    searches: bool = False
    purging: bool = False

    def __bool__(self) -> bool:
        """True when anything changed at all."""
        return bool(
            self.papers
            or self.added
            or self.tags
            or self.notes
            or self.structure
            or self.people
            or self.searches
            or self.purging
        )

    def __repr__(self) -> str:
        """A short account for the log: a few ids, then how many more."""

        def ids(values: AbstractSet[int]) -> str:
            # The smallest five of a few, any five of many (sorting a million stalls the window)
            first = sorted(values)[:5] if len(values) <= 1000 else sorted(islice(values, 5))
            more = f", … {len(values) - 5} more" if len(values) > 5 else ""
            return "{" + ", ".join(map(str, first)) + more + "}"

        names = ("tags", "notes", "structure", "people", "searches")
        flags = [name for name in names if getattr(self, name)]
        return f"Changes(papers={ids(self.papers)}, added={ids(self.added)}, {', '.join(flags)})"

    def __or__(self, other: Changes) -> Changes:
        """Everything either of two changes touched."""
        return Changes(
            papers=self.papers | other.papers,
            added=self.added | other.added,
            tags=self.tags or other.tags,
            notes=self.notes or other.notes,
            structure=self.structure or other.structure,
            people=self.people or other.people,
            searches=self.searches or other.searches,
        )


@dataclass(frozen=True, slots=True)
class Emptied:
    """What deleting papers for good did (*Empty Trash*, *Delete Permanently*).

    Attributes:
        papers: The papers deleted, by id.
        tags: The tags deleted with them, no paper carrying them any more
            (:mod:`refman.core.tags_left`), by name.
    """

    papers: tuple[int, ...]
    tags: tuple[str, ...] = ()
