"""SQLAlchemy 2 declarative models of a refman library.

The schema itself is owned by the Alembic migrations in ``refman/store/migrations``; these
models describe it for queries. A test checks that the two agree.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Text,
    and_,
    false,
    func,
    literal_column,
    or_,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from refman.common.editor_line import EDITORS_LIKE
from refman.store.name_set import NameSet
from refman.store.packed import PackedText

#: The kinds of exact match key a paper has a column for.
KEY_KINDS = ("title", "abstract", "doi", "arxiv")


class Base(DeclarativeBase):
    """The declarative base of every refman table."""


#: A key with capitals (few: refman's are lower case; BibTeX ignores case): indexed apart.
CASED_CITEKEY = "citekey != lower(citekey)"


class Paper(Base):
    """A paper in the library."""

    __tablename__ = "papers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(Text)
    #: True while the title is only a suggestion made from the abstract.
    title_provisional: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The abstract exactly as imported (LaTeX kept), compressed in SQLite (see
    #: :mod:`refman.store.packed`); its readable form is made when it is read.
    abstract: Mapped[str] = mapped_column(PackedText, default="")
    year: Mapped[int | None] = mapped_column(Integer)
    venue: Mapped[str | None] = mapped_column(Text)
    #: The CSL item type ("article-journal", "paper-conference", "article" for preprints, ...).
    type: Mapped[str] = mapped_column(String(40), default="article", server_default="article")
    #: The citation key (``jiang2024megascale``), unique in the library.
    citekey: Mapped[str | None] = mapped_column(Text)
    doi: Mapped[str | None] = mapped_column(Text)
    arxiv_id: Mapped[str | None] = mapped_column(Text)
    url: Mapped[str | None] = mapped_column(Text)
    volume: Mapped[str | None] = mapped_column(Text)
    issue: Mapped[str | None] = mapped_column(Text)
    pages: Mapped[str | None] = mapped_column(Text)
    publisher: Mapped[str | None] = mapped_column(Text)
    #: Further CSL variables as a JSON object (editor, ISBN, edition, issued month, ...).
    extra: Mapped[str] = mapped_column(Text, default="{}", server_default="{}")
    authors_complete: Mapped[bool] = mapped_column(Boolean, default=False)
    #: "family given" of the first author in plain letters, for sorting ("" when unknown).
    sort_author: Mapped[str] = mapped_column(Text, default="")
    #: How the title and the venue sort where SQL's ``lower()`` would not sort them so (they
    #: hold letters outside ASCII: "Étude" sorts as "etude"); NULL for most papers, whose
    #: ``lower(title)`` is their order (:func:`refman.common.text.sort_form`).
    title_order: Mapped[str | None] = mapped_column(Text)
    venue_order: Mapped[str | None] = mapped_column(Text)
    #: Display string of the authors for the list ("A. One, B. Two et al.").
    author_line: Mapped[str] = mapped_column(Text, default="")
    added_at: Mapped[datetime] = mapped_column(DateTime)
    modified_at: Mapped[datetime] = mapped_column(DateTime)
    trashed_at: Mapped[datetime | None] = mapped_column(DateTime)
    #: The fields the user edited by hand (an import never overwrites them).
    user_edited: Mapped[frozenset[str]] = mapped_column(NameSet(), default=frozenset())
    #: Set when an import kept this paper apart from a near-identical one.
    possible_duplicate_of: Mapped[int | None] = mapped_column(
        ForeignKey("papers.id", ondelete="SET NULL")
    )
    #: Exact match keys (64-bit hashes, see :mod:`refman.core.matching`): the same real
    #: title, abstract, DOI or arXiv id means the same paper.
    title_key: Mapped[int | None] = mapped_column(BigInteger)
    abstract_key: Mapped[int | None] = mapped_column(BigInteger)
    doi_key: Mapped[int | None] = mapped_column(BigInteger)
    arxiv_key: Mapped[int | None] = mapped_column(BigInteger)
    #: Moves on with every change of the row: a change based on an older version is refused
    #: (two people on one shared library never overwrite each other's edits unseen).
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    #: Who added the paper and who last changed it (the database user of a shared library,
    #: the login name on a library file); None for papers from before refman kept it.
    created_by: Mapped[str | None] = mapped_column(Text)
    modified_by: Mapped[str | None] = mapped_column(Text)
    #: How far the reader is: unread, reading or read (``core.rules.READING_STATUSES``).
    status: Mapped[str] = mapped_column(String(10), default="unread", server_default="unread")
    #: The reader's rating: 0 (none) to 5 stars.
    rating: Mapped[int] = mapped_column(SmallInteger, default=0, server_default="0")

    authorships: Mapped[list[Authorship]] = relationship(
        back_populates="paper",
        order_by="Authorship.position",
        cascade="all, delete-orphan",
    )

    __table_args__ = (
        # One index per sort column; whether a paper is in the Trash is a lookup in the
        # Trash's own table (models_upkeep.TrashedPaper), so trashing touches none of them.
        Index("ix_papers_year", "year"),
        # The ids alone: the list's "Added" order walked without reading the wide rows.
        Index("ix_papers_added", "id"),
        # Sorted by author or venue, papers with none go last whichever the direction: the
        # list's order is these expressions, NULLs last, so it walks the index.
        Index("ix_papers_sort_author", text("nullif(sort_author, '')")),
        Index("ix_papers_citekey", "citekey", unique=True),
        Index("ix_papers_citekey_cased", "citekey", sqlite_where=text(CASED_CITEKEY)),
        Index("ix_papers_status", "status"),
        Index("ix_papers_rating", "rating"),
        # Deleting a paper clears the mark of papers flagged as its possible duplicates:
        # without this index every deleted paper meant a scan of the whole library. (The
        # migrations make these indexes partial on PostgreSQL too; naming that dialect here
        # would load it at every start.)
        Index(
            "ix_papers_possible_duplicate_of",
            "possible_duplicate_of",
            sqlite_where=text("possible_duplicate_of IS NOT NULL"),
        ),
        *(
            Index(f"ix_papers_{k}_key", f"{k}_key", sqlite_where=text(f"{k}_key IS NOT NULL"))
            for k in KEY_KINDS
        ),
    )


#: What makes a paper need attention, by the name the search line gives it (``is:``): a
#: suggested title, an incomplete author list (not a book's editors standing for authors it
#: names none of, since revision 0038), a possible duplicate. A partial index holds
#: the papers they name (the rule behind the section and the list's flag), so that the
#: section is counted and listed without reading every paper (a million took seconds).
ATTENTION = {
    "suggested": Paper.title_provisional.is_(True),
    "incomplete": and_(
        Paper.authors_complete.is_(False),
        Paper.author_line != literal_column("''"),
        Paper.author_line.not_like(literal_column(f"'{EDITORS_LIKE}'")),
    ),
    "duplicate": Paper.possible_duplicate_of.is_not(None),
}
NEEDS_ATTENTION = or_(*ATTENTION.values())
Index("ix_papers_attention", Paper.id, sqlite_where=NEEDS_ATTENTION)


#: The list's order by title: the title in plain letters — the stored ``title_order`` of the
#: few titles whose lowercase is not that (SQLite's ``lower()`` folds ASCII letters only),
#: else the lowercased title; by venue alike. The expressions of the two sort indexes.
TITLE_ORDER = func.coalesce(Paper.title_order, func.lower(Paper.title))
VENUE_ORDER = func.coalesce(Paper.venue_order, func.lower(Paper.venue))
Index("ix_papers_sort_title", TITLE_ORDER)
Index("ix_papers_venue", VENUE_ORDER)


class Person(Base):
    """An author or the owner of an author page."""

    __tablename__ = "persons"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    #: Normalized name (see :func:`refman.common.text.person_key`), unique.
    key: Mapped[str] = mapped_column(Text, unique=True)
    #: The name's parts, as citation styles need them.
    family: Mapped[str] = mapped_column(Text, default="", server_default=text("''"))
    given: Mapped[str] = mapped_column(Text, default="", server_default=text("''"))
    particle: Mapped[str] = mapped_column(Text, default="", server_default=text("''"))
    suffix: Mapped[str] = mapped_column(Text, default="", server_default=text("''"))
    #: An organisation's name, never split into parts.
    literal: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The last import (its ``import_id``) there was when the person was last looked at:
    #: papers a later import of their page added are new (None: never looked at).
    seen_import: Mapped[int | None] = mapped_column(Integer)


class PersonAlias(Base):
    """Another spelling of a person's name, merged into the person: an import that brings it
    again means the person (see :func:`refman.common.text.person_key` for the key)."""

    __tablename__ = "person_aliases"

    key: Mapped[str] = mapped_column(Text, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id", ondelete="CASCADE"), index=True)


class DistinctPeople(Base):
    """Two people with alike names whom the user said are not the same person (never
    proposed as one again); ``first_id`` < ``second_id``."""

    __tablename__ = "distinct_people"

    first_id: Mapped[int] = mapped_column(
        ForeignKey("persons.id", ondelete="CASCADE"), primary_key=True
    )
    second_id: Mapped[int] = mapped_column(
        ForeignKey("persons.id", ondelete="CASCADE"), primary_key=True
    )


class Authorship(Base):
    """Person ``person_id`` is author number ``position`` (from 0) of a paper."""

    __tablename__ = "authorships"

    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"), index=True)

    paper: Mapped[Paper] = relationship(back_populates="authorships")
    person: Mapped[Person] = relationship()


class Attribution(Base):
    """A paper appeared on the author page of ``person_id``."""

    __tablename__ = "attributions"

    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"), primary_key=True, index=True)


class Subject(Base):
    """An arXiv category such as cs.LG."""

    __tablename__ = "subjects"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(Text, unique=True)


class PaperSubject(Base):
    """A paper is filed under a subject."""

    __tablename__ = "paper_subjects"

    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    subject_id: Mapped[int] = mapped_column(ForeignKey("subjects.id"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, default=0)


class Tag(Base):
    """A user's tag, optionally coloured."""

    __tablename__ = "tags"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    #: The name casefolded: tag names are unique without regard to case, in any script.
    key: Mapped[str] = mapped_column(Text, unique=True)
    #: "#rrggbb", or None for the default colour.
    colour: Mapped[str | None] = mapped_column(String(9))
    #: Moves on with every change (see :attr:`Paper.version`).
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 (SQLAlchemy reads it)


class PaperTag(Base):
    """A paper carries a tag."""

    __tablename__ = "paper_tags"

    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    tag_id: Mapped[int] = mapped_column(ForeignKey("tags.id", ondelete="CASCADE"), primary_key=True)

    # A tag's papers in id order, from the index alone (a tag filter, a tag's count).
    __table_args__ = (Index("ix_paper_tags_tag", "tag_id", "paper_id"),)


class SavedSearch(Base):
    """A search line and a tag filter kept under a name (a smart collection)."""

    __tablename__ = "saved_searches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    #: The name casefolded: names are unique without regard to case.
    key: Mapped[str] = mapped_column(Text, unique=True)
    #: What was typed in the search field (its syntax included).
    text: Mapped[str] = mapped_column(Text, default="", server_default=text("''"))
    #: JSON list of the tag names filtered by.
    tags: Mapped[str] = mapped_column(Text, default="[]", server_default="[]")
    #: Papers with any of the tags, not all of them.
    any_tags: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: Moves on with every change (see :attr:`Paper.version`).
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")


class Note(Base):
    """A Markdown note on a paper."""

    __tablename__ = "notes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"), index=True)
    text: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime)
    modified_at: Mapped[datetime] = mapped_column(DateTime)
    #: Moves on with every change (see :attr:`Paper.version`).
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    #: Who wrote the note and who last changed it (see :attr:`Paper.created_by`).
    created_by: Mapped[str | None] = mapped_column(Text)
    modified_by: Mapped[str | None] = mapped_column(Text)

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 (SQLAlchemy reads it)


class ImportBatch(Base):
    """One author page imported at one time."""

    __tablename__ = "import_batches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    imported_at: Mapped[datetime] = mapped_column(DateTime)
    #: Id of the first batch of the same import (several pages imported together share it).
    import_id: Mapped[int] = mapped_column(Integer, index=True)
    #: The file name, or "pasted text".
    source: Mapped[str] = mapped_column(Text)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("persons.id"), index=True)
    format: Mapped[str] = mapped_column(String(40))
    claimed: Mapped[int | None] = mapped_column(Integer)
    parsed: Mapped[int] = mapped_column(Integer)
    #: JSON list of warning sentences.
    warnings: Mapped[str] = mapped_column(Text, default="[]")
    #: JSON object of the persons, subjects and tags this batch created (ids), for undo.
    created: Mapped[str] = mapped_column(Text, default="{}")
    #: Who made the import (see :func:`refman.store.connection.writer`); None: not known.
    imported_by: Mapped[str | None] = mapped_column(Text)


class BatchPaper(Base):
    """A paper that an import batch added or changed.

    ``before`` holds a JSON snapshot of a merged paper as it was before the batch, so that the
    import can be undone exactly.
    """

    __tablename__ = "batch_papers"

    batch_id: Mapped[int] = mapped_column(
        ForeignKey("import_batches.id", ondelete="CASCADE"), primary_key=True
    )
    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    action: Mapped[str] = mapped_column(String(10))
    before: Mapped[str | None] = mapped_column(Text)
    #: The record as the imported file held it (BibTeX, RIS, CSL-JSON), so nothing is lost.
    raw: Mapped[str | None] = mapped_column(Text)


class MatchBlock(Base):
    """A blocking key of a paper: papers that share one are compared for near-duplicates.

    ``key`` is a 64-bit hash of a pair of rare words of the title or abstract (see
    :mod:`refman.core.matching`). The table has no foreign key: the keys of a paper are
    deleted with it by the code that deletes it, and a stale key only adds a candidate
    that the comparison then rules out.
    """

    __tablename__ = "match_blocks"

    key: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    paper_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)

    __table_args__ = ({"sqlite_with_rowid": False},)


# The models of other modules, registered with Base's metadata whenever the models are.
from refman.store import models_files as _models_files  # noqa: E402, F401
from refman.store import models_upkeep as _models_upkeep  # noqa: E402, F401
