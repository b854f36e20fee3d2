"""The values an importer returns: a parsed page and its candidate paper records."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from refman.common.east_asian import east_asian
from refman.importers.messages import SKIPPED


class PageFormat(enum.StrEnum):
    """The kinds of page and file refman reads."""

    #: "Publications and source records attributed to NAME." followed by
    #: venue+year / title / abstract / subject blocks.
    PUBLICATION_LIST = "publication-list"
    #: Owner name, then author-line / abstract pairs, with no titles, years or venues.
    AUTHOR_ABSTRACTS = "author-abstracts"
    #: A publication list written as references (APA, IEEE, Vancouver, MLA, Chicago, ACM...).
    REFERENCE_LIST = "reference-list"
    #: A BibTeX or BibLaTeX file.
    BIBTEX = "bibtex"
    #: An RIS file (EndNote, Mendeley, PubMed, Web of Science, Scopus, Zotero).
    RIS = "ris"
    #: A CSL-JSON file (Zotero, citation.js, pandoc).
    CSL_JSON = "csl-json"
    #: A PDF of a paper: its metadata and first page read (the file is attached to it).
    PDF = "pdf"
    #: A Zotero library read from its database, ``zotero.sqlite``.
    ZOTERO = "zotero"
    #: A Mendeley Desktop library read from its database, ``…@www.mendeley.com.sqlite``.
    MENDELEY = "mendeley"
    #: A paper deleted elsewhere while someone wrote in it, kept (:mod:`refman.core.kept_papers`).
    KEPT = "kept"
    #: A paper a person added by hand (:mod:`refman.core.new_papers`).
    TYPED = "typed"


#: Record fields that are CSL variables of the same meaning (title aside).
CSL_VARIABLES = {
    "doi": "DOI",
    "url": "URL",
    "volume": "volume",
    "issue": "issue",
    "pages": "page",
    "publisher": "publisher",
}


@dataclass(frozen=True, slots=True)
class PersonName:
    """The parts of a person's name, as citation styles need them.

    Attributes:
        family: The family name ("Jiang"); for an organisation, its whole name.
        given: The given names ("Zhuo"), or "".
        particle: A particle that goes with the family name ("van der"), or "".
        suffix: "Jr.", "III", or "".
        literal: The name is an organisation's ("{World Health Organization}"), never split.
    """

    family: str
    given: str = ""
    particle: str = ""
    suffix: str = ""
    literal: bool = False

    def csl(self) -> dict[str, str]:
        """The name as a CSL name object ({"family": …, "given": …} or {"literal": …})."""
        if self.literal:
            return {"literal": self.family}
        parts = {
            "family": self.family,
            "given": self.given,
            "non-dropping-particle": self.particle,
            "suffix": self.suffix,
        }
        return {key: value for key, value in parts.items() if value}

    @property
    def display(self) -> str:
        """The name as people write it: "Zhuo Jiang", "Jan van der Berg", "Sammy Davis Jr.";
        a Chinese, Japanese or Korean name family name first, with no space (张伟)."""
        if self.literal:
            return self.family
        if east_asian(self.family) and east_asian(self.given) and not self.particle:
            name = self.family + self.given
        else:
            name = " ".join(w for w in (self.given, self.particle, self.family) if w)
        return f"{name} {self.suffix}" if self.suffix else name


@dataclass(frozen=True, slots=True)
class PageLink:
    """A link on an HTML page: where it sits in the visible text and where it points.

    Attributes:
        text: The link's visible text, or the text just before it when it shows none (an
            icon), white space collapsed.
        href: The address it points to, as written.
    """

    text: str
    href: str


@dataclass(frozen=True, slots=True)
class ParsedRecord:
    """One paper as the page describes it.

    Attributes:
        title: The title the page gives, or the suggested title when it gives none.
        title_provisional: True when the page gave no title and ``title`` was suggested from
            the abstract (or is a placeholder).
        abstract: The abstract exactly as on the page (LaTeX markup kept; of a BibTeX entry,
            less the grouping braces BibTeX prints none of), paragraphs joined by a blank line.
        year: Publication year, when the page states one.
        venue: Venue such as "arXiv" or "NeurIPS", when the page states one.
        subjects: arXiv category codes such as "cs.LG", in page order.
        authors: Author display names, in page order.
        authors_complete: False when the list ends in "et al." or the page lists no authors.
        line: 1-based line number of the record's first line in the page text.
        last_line: 1-based line number of its last line (0 when not known).
        type: The CSL item type ("article-journal", "paper-conference", "article", ...).
        doi: The DOI (normalised), when known.
        arxiv_id: The arXiv identifier (with its version when given), when known.
        url: A link to the paper, when known.
        volume, issue, pages, publisher: As a bibliography gives them.
        citekey: The citation key a bibliography file gave the paper.
        aliases: Other citation keys it gave (BibLaTeX's ``ids``).
        author_names: The authors' name parts, parallel to ``authors`` (empty when the source
            gives display names only).
        extra: Further CSL variables the source gives (editor, ISBN, edition, ...), kept so
            that nothing is lost.
        tags: Keywords or groups the source gives, to become tags.
        notes: Notes the source gives (BibTeX annote/note, RIS N1).
        raw: The record exactly as the source file holds it (empty for author pages).
        files: Files to attach to the record's paper (the PDF a record was read from).
        attributed_to: The people whose author pages brought the paper, besides the page's
            owner (refman's own exports give them back: :mod:`~refman.importers.bib_extension`).
        status: The reading status the source gives ("reading", "read": JabRef's
            ``readstatus``), None when it says nothing (:mod:`~refman.importers.bib_marks`).
        rating: The stars it gives, 1 to 5 (JabRef's ``ranking``), None when none.
    """

    title: str
    title_provisional: bool
    abstract: str
    year: int | None = None
    venue: str | None = None
    subjects: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    authors_complete: bool = False
    line: int = 0
    type: str = "article"
    doi: str | None = None
    arxiv_id: str | None = None
    url: str | None = None
    volume: str | None = None
    issue: str | None = None
    pages: str | None = None
    publisher: str | None = None
    citekey: str | None = None
    aliases: tuple[str, ...] = ()
    author_names: tuple[PersonName, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    raw: str = ""
    last_line: int = 0
    #: Files that come with the record, attached to its paper (a PDF imported).
    files: tuple[str, ...] = ()
    attributed_to: tuple[str, ...] = ()
    status: str | None = None
    rating: int | None = None

    def cite_keys(self) -> list[str]:
        """Its citation key and other keys, those it has."""
        return [k for k in (self.citekey, *self.aliases) if k]


@dataclass(slots=True)
class ParsedPage:
    """Everything read from one author page.

    Attributes:
        owner: The researcher whose page this is.
        format: Which page format was recognised.
        claimed: The record count the page states ("12 records"), or None.
        records: The records found, in page order.
        warnings: Plain sentences about anything odd (count mismatch, encoding guessed, ...).
        encoding: The text encoding the bytes were decoded with ("utf-8" for str input).
        file_folders: The folders a bibliography says its files' relative paths start from
            (JabRef's file directories), as written.
    """

    owner: str
    format: PageFormat
    claimed: int | None
    records: list[ParsedRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    encoding: str = "utf-8"
    file_folders: tuple[str, ...] = ()

    @property
    def skipped(self) -> int:
        """How many damaged entries were left out (each has a warning saying which)."""
        return sum(1 for warning in self.warnings if warning.startswith(SKIPPED))
