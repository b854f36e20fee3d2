"""An ORCID record's works, as the browser copies them: per work its title, its journal or
publisher when known, a line of its date and type ("2022-03 | Journal article"), its
identifiers ("DOI: 10.1016/…", "URL: …"), its contributors ("CONTRIBUTORS: Nadia Okafor;
Elsa Lindqvist") and the source of the record ("Source: Crossref"), which ends it. The
owner's name heads the page. Read into records as a list of references is
(:attr:`PageFormat.REFERENCE_LIST`).
"""

from __future__ import annotations

import re

from refman.common.errors import InvalidValueError
from refman.common.identifiers import find_arxiv_ids, find_dois, is_web_address, normalize_arxiv
from refman.importers.lines import Lines
from refman.importers.names import looks_like_person
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord, PersonName
from refman.importers.titles import title_text
from refman.importers.typed_names import typed_authors

__all__ = ["parse_orcid_works"]

#: A work's date and type: "2022-03 | Journal article", "2019 | Conference paper".
_DATED = re.compile(r"((?:1[89]|20)\d\d)(?:-\d\d){0,2}\s*\|\s*([A-Za-z][\w ,/-]{1,40})")
#: The line that ends a work: where its record comes from.
_SOURCE = re.compile(r"source\s*:", re.IGNORECASE)
#: ORCID's headings above the works ("Works (12)", "Sort", "Show more detail").
_HEADING = re.compile(r"works\s*\(\d+\)|sort|show more detail|preferred source.*", re.I)
#: ORCID's work types as CSL types.
_TYPES = {
    "journal article": "article-journal",
    "conference paper": "paper-conference",
    "preprint": "article",
    "book": "book",
    "book chapter": "chapter",
    "dissertation": "thesis",
    "dissertation/thesis": "thesis",
    "report": "report",
    "data set": "dataset",
    "software": "software",
}


def parse_orcid_works(lines: Lines) -> ParsedPage | None:
    """The works of an ORCID record, or None when the page has none (no line of a work's
    date and type with a title above it and its source below)."""
    text = lines.text
    dated = [i for i, line in enumerate(text) if _DATED.fullmatch(line)]
    if not dated or not any(_SOURCE.match(line) for line in text):
        return None
    owner = text[0] if looks_like_person(text[0]) else ""
    records: list[ParsedRecord] = []
    start = 1 if owner else 0
    for i in dated:
        head = [t for t in text[start:i] if not _aside(t)]
        end = next((j for j in range(i + 1, len(text)) if _SOURCE.match(text[j])), len(text))
        if head:
            records.append(_work(lines, head[-2:], i, end))
        start = end + 1
    if not records:
        return None
    return ParsedPage(
        owner=owner, format=PageFormat.REFERENCE_LIST, claimed=None, records=records, warnings=[]
    )


def _aside(line: str) -> bool:
    """A line above a work's title that is none of it: a heading, the record's address."""
    return _HEADING.fullmatch(line) is not None or is_web_address(line)


def _work(lines: Lines, head: list[str], i: int, end: int) -> ParsedRecord:
    """One work: its title (and venue) above its date line ``i``, its details up to ``end``."""
    m = _DATED.fullmatch(lines.text[i])
    assert m is not None
    details = {
        label.strip().casefold(): value.strip()
        for label, _, value in (line.partition(":") for line in lines.text[i + 1 : end])
    }
    names, complete = _contributors(details.get("contributors", ""))
    doi = find_dois(details.get("doi", ""))
    arxiv = find_arxiv_ids(" ".join(lines.text[i + 1 : end]))  # ("URL: https://arxiv.org/…")
    return ParsedRecord(
        title=title_text(head[0] if len(head) == 2 else head[-1]),
        title_provisional=False,
        abstract="",
        year=int(m[1]),
        venue=head[1] if len(head) == 2 else None,
        authors=tuple(p.display for p in names),
        authors_complete=complete,
        author_names=names,
        line=lines.number[i - len(head)],
        last_line=lines.number[min(end, len(lines.text) - 1)],
        type=_TYPES.get(m[2].strip().casefold(), "article"),
        doi=doi[0] if doi else None,
        arxiv_id=normalize_arxiv(arxiv[0], keep_version=True) if arxiv else None,
        url=details.get("url") or None,
    )


def _contributors(text: str) -> tuple[tuple[PersonName, ...], bool]:
    """The people of a "CONTRIBUTORS:" line ("Nadia Okafor; Elsa Lindqvist"); nobody (an
    incomplete list) when it names none or cannot be read."""
    try:
        people, complete = typed_authors(text.replace(";", ","))
    except InvalidValueError:
        return (), False
    return people, complete and bool(people)
