"""A thesis, a book chapter and a book as APA and Harvard write them: "Title (Doctoral
dissertation). University of Bergen.", "Title [Doctoral dissertation, University of Bergen].
BORA.", "Title. In K. Mensah (Ed.), Book title (pp. 301–310). Springer.", "Title (3rd ed.).
Springer.", "Title. Cambridge: Cambridge University Press." — for
:mod:`~refman.importers.references`, which reads them as articles otherwise (the school, the
editors or the publisher taken for a journal, the edition kept in the title).
"""

from __future__ import annotations

import re
from dataclasses import replace

from refman.importers.records import ParsedRecord
from refman.importers.titles import title_text
from refman.importers.undated import MANUSCRIPT

__all__ = ["EDITED", "as_edited", "as_published", "reference_kind"]

#: What follows the names of an edited book's editors: APA's "(Eds.).", Harvard's "(eds)",
#: Chicago's ", eds.".
EDITED = re.compile(r"(?:\s*\((?:eds?|hrsg)\.?\)|,\s*eds?\.?)[.,]?$", re.IGNORECASE)
#: APA 7's unpublished work, its department and university after it.
_UNPUBLISHED = re.compile(
    r"\[(?:unpublished manuscript|manuscript (?:submitted|in preparation)[^\]]*)\]\s*$",
    re.IGNORECASE,
)
_TRAILING_ADDRESS = re.compile(r"\s*(?:https?://|doi:)\S*\s*$")
#: Words of a venue's name that say it is a conference's or a workshop's.
_PROCEEDINGS = re.compile(r"\b(?:Proc|Proceedings|Conference|Conf|Workshop|Symposium|Meeting)\b")
#: What a title ends with that says it is a thesis, and the school it may name (APA's
#: "(Doctoral dissertation)", "[Doctoral dissertation, University of Bergen]", Vancouver's
#: "[dissertation]", "[master's thesis]").
_THESIS = re.compile(
    r"\s*[\[(](?P<degree>(?:doctoral|master'?s?|ph\.?\s?d\.?|bachelor'?s?|diploma)\s+)?"
    r"(?:dissertation|thesis)(?:,\s*(?P<school>[^\])]{2,120}))?[\])]\s*$",
    re.IGNORECASE,
)
#: What follows a title that says it is a thesis (Harvard's "PhD thesis.", Chicago's "PhD
#: diss.,", "MSc thesis,").
_THESIS_AFTER = re.compile(
    r"^\s*(?P<degree>(?:doctoral|master'?s?|ph\.?\s?d\.?|bachelor'?s?|diploma|m\.?sc\.?|"
    r"m\.?a\.?|m\.?phil\.?)\s+)(?:dissertation|thesis|diss\.)[.,]?\s+",
    re.IGNORECASE,
)
#: The school a thesis names after it, and the place before it (Vancouver's "Bergen:
#: University of Bergen; 2019.", "Bergen (Norway): University of Bergen; 2019.").
_SCHOOL = re.compile(
    r"^\s*(?:(?P<place>[A-Z][^:;,.()]{1,40}(?:\s*\([^()]{1,30}\))?):\s*)?"
    r"(?P<school>[^\W\d_][^;.]{1,119}?)\s*(?:[;.,]|$)"
)
#: A chapter's book after its editors: "In K. Mensah (Ed.), Book title (pp. 1–9). Springer."
_CHAPTER = re.compile(
    r"^\s*In:?\s+(?P<editors>[^()]{2,300}?)\s+\((?:Eds?|Hrsg|Dir)\.?\),?\s+"
    r"(?P<book>[^()]{2,300}?)\s*(?:\((?P<inside>[^()]*)\)\s*)?\.\s*(?P<publisher>[^.]{2,80}?)?\.?"
    r"(?=\s+(?:https?://|doi:)|\s*$)",
    re.IGNORECASE,
)

#: Vancouver's chapter: "In: Rossi L, Mensah K, editors. Book title. 2nd ed. Berlin:
#: Springer; 2018. p. 301-30."
_CHAPTER_VANCOUVER = re.compile(
    r"^\s*In:\s+(?P<editors>[^.]{2,300}?),?\s+(?:editors?|eds?)\.\s+(?P<book>[^.]{2,300}?)\."
    r"(?:\s+\d{1,3}(?:st|nd|rd|th)\s+ed\.)?\s+(?:(?P<place>[A-Z][^:;.]{1,60}):\s*)?"
    r"(?P<publisher>[^;.]{2,80}?)?\s*[;.]",
    re.IGNORECASE,
)
#: Chicago's and MLA's chapter: "In Handbook of Coastal Science, edited by Luca Rossi,
#: 301–30. Berlin: Springer, 2018." / "Handbook …, edited by Luca Rossi, Springer, 2018".
_CHAPTER_EDITED_BY = re.compile(
    r"^\s*(?:In\s+)?(?P<book>[^,]{2,300}?),\s+(?:\w+\s+)?edited\s+by\s+[^,.]{2,200}?"
    r"(?:,?\s+and\s+[^,.]{2,100}?)?[,.]\s*(?P<tail>.*)$"
)
#: Its publisher, before the year: "Berlin: Springer, 2018", "Springer, 2018".
_PUBLISHED_BY = re.compile(
    r"(?:(?P<place>[A-Z][^:.,;\d]{1,40}):\s*)?(?P<publisher>[A-Z][^,.;:\d]{1,80}),\s*"
    r"(?:1[89]|20)\d\d\b"
)
#: A book's edition after its title: "(3rd ed.)", "(2nd edn)", "(4th edition, Vol. 2)".
_EDITION = re.compile(
    r"\s*\((?P<number>\d{1,3})(?:st|nd|rd|th)\.?\s+(?:ed|edn|edition)\b\.?[^()]{0,40}\)\s*$",
    re.IGNORECASE,
)
#: A publisher, as a book's reference names it where an article's names its journal.
_PUBLISHER = re.compile(
    r"\b(?:Press|Publish(?:ing|ers?)|Verlag|Books|Springer|Wiley|Elsevier|Routledge|CRC|"
    r"Pearson|SAGE|Sage|Kluwer|Birkh[aä]user|Cengage|McGraw[- ]Hill|Prentice[- ]Hall|"
    r"O['’]Reilly|Addison[- ]Wesley|Norton|Penguin|Macmillan|Palgrave|Taylor\s*&\s*Francis)\b"
)
#: Harvard's edition, a sentence after the title: "2nd edn. Cambridge: Cambridge University
#: Press." (the publisher after it).
_EDITION_AFTER = re.compile(
    r"^\s*(?P<number>\d{1,3})(?:st|nd|rd|th)\.?\s+(?:ed|edn|edition)\b\.?\s*"
    r"(?P<publisher>[^.]*?)\.?\s*(?=https?://|doi:|$)",
    re.IGNORECASE,
)
#: Harvard's "Place: Publisher".
_PLACE = re.compile(r"^(?P<place>[A-Z][^:,.()]{1,40}):\s*(?P<publisher>\S.*)$")


def as_published(record: ParsedRecord, title: str, rest: str) -> ParsedRecord:
    """``record`` (read from a reference's ``title`` and the ``rest`` after it) as the thesis,
    chapter or book it says it is; any other record as it is."""
    unpublished = _UNPUBLISHED.search(title)  # (APA 7: "Title [Unpublished manuscript].")
    if unpublished is not None:
        where = _TRAILING_ADDRESS.sub("", rest).strip(" .")  # (its department, university)
        title = title_text(title[: unpublished.start()].strip(" .,"))
        return replace(record, title=title, type="manuscript", venue=None, publisher=where or None)
    thesis = _THESIS.search(title) or _THESIS_AFTER.match(rest)
    if thesis is not None:
        return _as_thesis(record, title, rest, thesis)
    chapter = _CHAPTER.match(rest) or _CHAPTER_VANCOUVER.match(rest)
    if chapter is not None:
        found = chapter.groupdict()
        return _as_chapter(record, chapter["book"], found["publisher"], found.get("place"))
    edited_by = _CHAPTER_EDITED_BY.match(rest)
    if edited_by is not None:
        by = _PUBLISHED_BY.search(edited_by["tail"])
        return _as_chapter(record, edited_by["book"], by and by["publisher"], by and by["place"])
    return _as_book(record, title, rest)


def _as_chapter(
    record: ParsedRecord, book: str, publisher: str | None, place: str | None
) -> ParsedRecord:
    """A book's chapter, the book its venue, its publisher and place kept."""
    return replace(
        record,
        type="chapter",
        venue=book.strip(" ,."),
        publisher=(publisher or "").strip() or None,
        extra={**record.extra, "publisher-place": place.strip()} if place else record.extra,
    )


def _as_thesis(record: ParsedRecord, title: str, rest: str, thesis: re.Match[str]) -> ParsedRecord:
    """A thesis, its school its publisher (named in its brackets or after it, the place
    before it kept: CSL ``publisher-place``) and its degree its genre, as a ``.bib``
    ``@phdthesis`` gives them."""
    extra = dict(record.extra)
    degree = (thesis["degree"] or "").strip().casefold()
    if degree.startswith(("master", "m")):
        extra["genre"] = "Master's thesis"
    elif degree.startswith(("doctoral", "ph")) or (not degree and "dissertation" in thesis[0]):
        extra["genre"] = "PhD thesis"
    school = thesis.groupdict().get("school")
    if thesis.re is _THESIS_AFTER:
        rest = rest[thesis.end() :]
    else:
        title = title[: thesis.start()]
    named = _SCHOOL.match(rest) if school is None else None
    if named is not None:
        school = named["school"]
        if named["place"]:
            extra["publisher-place"] = named["place"].strip()
    return replace(
        record,
        title=title_text(title.strip(" .,")),
        type="thesis",
        venue=None,
        publisher=(school or "").strip() or None,
        extra=extra,
    )


def _as_book(record: ParsedRecord, title: str, rest: str) -> ParsedRecord:
    """A book: an edition follows its title ("(3rd ed.)", Harvard's "2nd edn."), or the place
    of its journal holds a publisher and it has no volume, issue or pages. The edition and
    Harvard's place are kept (CSL ``edition``, ``publisher-place``)."""
    edition = _EDITION.search(title)
    after = _EDITION_AFTER.match(rest) if edition is None else None
    venue = (after["publisher"] if after is not None else record.venue) or ""
    unbound = not (record.volume or record.issue or record.pages)
    if edition is None and after is None and not (unbound and _PUBLISHER.search(venue)):
        return record
    extra = dict(record.extra)
    publisher = venue or record.publisher
    placed = _PLACE.match(venue)
    if placed is not None:
        extra["publisher-place"] = placed["place"].strip()
        publisher = placed["publisher"].strip(" .")
    if edition is not None:
        extra["edition"] = edition["number"]
        title = title[: edition.start()]
    elif after is not None:
        extra["edition"] = after["number"]
    return replace(
        record,
        title=title_text(title.strip(" .,")),
        type="book",
        venue=None,
        publisher=publisher or None,
        extra=extra,
    )


def _acronym(venue: str) -> bool:
    """Whether a venue of one word is a conference's acronym ("NeurIPS", "ICML"), not a
    journal's name ("Geomorphology", "Nature"; arXiv is neither)."""
    return venue != "arXiv" and sum(c.isupper() for c in venue) >= 2


def reference_kind(rest: str, venue: str | None, arxiv: str | None, numbered: bool) -> str:
    """The CSL type of a reference read as an article: a conference paper ("In Proceedings
    of …"), a preprint, a manuscript, an article (:func:`as_published` reads it further).

    Args:
        rest: What follows the reference's title.
        venue: The venue read from it, if any.
        arxiv: The arXiv id it gives, if any.
        numbered: Whether it gives a volume, issue or pages.
    """
    if MANUSCRIPT.match(rest):
        return "manuscript"
    if re.match(r"\s*[Ii]n:?\s", rest) or (venue and _PROCEEDINGS.search(venue)):
        return "paper-conference"
    if venue and " " not in venue and not numbered and _acronym(venue):
        return "paper-conference"  # ("NeurIPS 2023", "ICML 2021: 10-20"; not "Nature")
    if venue == "arXiv" or (arxiv and not venue):
        return "article"
    return "article-journal" if venue else "article"


def as_edited(record: ParsedRecord) -> ParsedRecord:
    """An edited book ("Okafor, N., & Lindqvist, E. (Eds.). (2020). Title. Elsevier."): its
    names its editors (CSL ``editor``, as a ``.bib`` ``editor`` gives them), not its authors;
    its venue, if one was read, its publisher."""
    editors = [name.csl() for name in record.author_names]
    publisher = record.publisher or (record.venue if record.type != "chapter" else None)
    return replace(
        record,
        authors=(),
        author_names=(),
        authors_complete=False,
        type="book",
        venue=None,
        publisher=publisher,
        extra={**record.extra, "editor": editors},
    )
