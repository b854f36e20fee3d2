"""Which BibTeX / BibLaTeX entry type and field each CSL type and variable becomes.

The mapping follows what Zotero's Better BibTeX and JabRef write: a journal paper is an
``@article`` (``journal`` / ``journaltitle``), a conference paper an ``@inproceedings``
(``booktitle``), an arXiv preprint a BibTeX ``@misc`` (``eprint``, ``archivePrefix``,
``primaryClass``) or a BibLaTeX ``@online`` (``eprint``, ``eprinttype``, ``eprintclass``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["BIBLATEX", "BIBTEX", "Dialect"]


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one flavour of ``.bib`` file spells a paper.

    Attributes:
        ascii_only: Non-ASCII letters are written as LaTeX (BibTeX) or kept as UTF-8.
        types: CSL type → entry type (anything else is ``@misc``).
        container: Entry type → the field of the CSL ``container-title`` (the venue).
        publisher: Entry type → the field of the CSL ``publisher`` (``@misc`` has no
            publisher: it says where the paper appeared in ``howpublished``, unless the
            venue is there already).
        text: Further CSL variables → fields holding text.
        verbatim: CSL variables → fields written as they are (identifiers, links).
        people: CSL name variables → fields.
        default_kind: Entry type → the ``type`` field when the paper gives no genre.
        date_field: "date" (an ISO date, BibLaTeX) or "" for ``year`` + ``month`` (BibTeX).
        eprint_type: ``archivePrefix`` (BibTeX) or ``eprinttype`` (BibLaTeX), and its value.
        eprint_class: ``primaryClass`` (BibTeX) or ``eprintclass`` (BibLaTeX).
        sort_key: Give a paper without authors a ``key`` (its title), which BibTeX styles
            sort by when there is no author (plain.bst warns otherwise).
    """

    ascii_only: bool
    types: Mapping[str, str]
    container: Mapping[str, str]
    publisher: Mapping[str, str]
    text: Mapping[str, str]
    verbatim: Mapping[str, str]
    people: Mapping[str, str]
    default_kind: Mapping[str, str]
    date_field: str
    eprint_type: tuple[str, str]
    eprint_class: str
    sort_key: bool


_VERBATIM = {
    "DOI": "doi",
    "ISBN": "isbn",
    "ISSN": "issn",
    "PMID": "pmid",
    "PMCID": "pmcid",
}
#: BibLaTeX's fields for further CSL variables; a BibTeX file has them too (BibTeX styles
#: skip fields they do not know, and readers such as refman's and JabRef take them).
_FURTHER = {
    "container-title-short": "shortjournal",
    "event-title": "eventtitle",
    "event-place": "venue",
    "number-of-pages": "pagetotal",
    "number-of-volumes": "volumes",
    "version": "version",
    "status": "pubstate",
    "original-title": "origtitle",
    "medium": "howpublished",
}
_PERIODICALS = {
    "article-journal": "article",
    "article-magazine": "article",
    "article-newspaper": "article",
    "paper-conference": "inproceedings",
    "book": "book",
    "chapter": "incollection",
}

BIBTEX = Dialect(
    ascii_only=True,
    types={
        **_PERIODICALS,
        "entry-encyclopedia": "incollection",
        "entry-dictionary": "incollection",
        "thesis": "phdthesis",
        "report": "techreport",
    },
    container={"article": "journal", "inproceedings": "booktitle", "incollection": "booktitle"},
    publisher={
        "phdthesis": "school",
        "mastersthesis": "school",
        "techreport": "institution",
        "misc": "howpublished",
    },
    text={
        "edition": "edition",
        "collection-title": "series",
        "chapter-number": "chapter",
        "publisher-place": "address",
        "genre": "type",
        "language": "language",
        "title-short": "shorttitle",
        "note": "note",
        **_FURTHER,
    },
    verbatim=_VERBATIM,
    people={"author": "author", "editor": "editor", "translator": "translator"},
    default_kind={},
    date_field="",
    eprint_type=("archivePrefix", "arXiv"),
    eprint_class="primaryClass",
    sort_key=True,
)

BIBLATEX = Dialect(
    ascii_only=False,
    types={
        **_PERIODICALS,
        "entry-encyclopedia": "inreference",
        "entry-dictionary": "inreference",
        "thesis": "thesis",
        "report": "report",
        "article": "online",
        "webpage": "online",
        "post-weblog": "online",
        "post": "online",
        "dataset": "dataset",
        "software": "software",
        "manuscript": "unpublished",
        "patent": "patent",
    },
    container={
        "article": "journaltitle",
        "inproceedings": "booktitle",
        "incollection": "booktitle",
        "inreference": "booktitle",
        "online": "organization",
    },
    publisher={
        "thesis": "institution",
        "report": "institution",
        "online": "organization",
        "misc": "howpublished",
    },
    text={
        "edition": "edition",
        "collection-title": "series",
        "chapter-number": "chapter",
        "publisher-place": "location",
        "genre": "type",
        "language": "langid",  # (babel's hyphenation; "language" is printed in the entry)
        "title-short": "shorttitle",
        "note": "note",
        **_FURTHER,
        "event": "eventtitle",
    },
    verbatim=_VERBATIM,
    people={
        "author": "author",
        "editor": "editor",
        "translator": "translator",
        "container-author": "bookauthor",
    },
    default_kind={"thesis": "phdthesis", "report": "techreport"},
    date_field="date",
    eprint_type=("eprinttype", "arxiv"),
    eprint_class="eprintclass",
    sort_key=False,
)
