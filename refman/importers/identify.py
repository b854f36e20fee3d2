"""What an author page's record says about the paper beyond its text: its type, its
identifiers (an arXiv id or a DOI written in the record) and the links an HTML page gives it."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from refman.common.identifiers import (
    arxiv_url,
    arxiv_year,
    find_arxiv_ids,
    find_dois,
    identifiers_in_link,
    is_web_address,
)
from refman.importers.lines import parse_subjects, split_lines
from refman.importers.records import PageFormat, PageLink, ParsedPage, ParsedRecord

#: The page formats whose records take their links from the page.
_AUTHOR_PAGES = frozenset(
    {PageFormat.PUBLICATION_LIST, PageFormat.AUTHOR_ABSTRACTS, PageFormat.REFERENCE_LIST}
)


def author_page_type(venue: str | None) -> str:
    """The CSL type of an author-page record: a preprint on arXiv, else a conference paper."""
    return "article" if venue and venue.casefold() == "arxiv" else "paper-conference"


#: Words before an identifier in its sentence that say it names another work: a citation
#: ("Vaswani et al., arXiv:1706.03762"), code or data ("code is at arXiv:…").
_ANOTHER_WORK = re.compile(
    r"\b(?:et al|see|cf|code|data|datasets?|software|repository|benchmarks?|based on|"
    r"building on|following|extends?|extending)\b",
    re.IGNORECASE,
)
#: The most words a line may hold beside its identifiers to be a line of them ("DOI:
#: 10.1145/…", "arXiv:2402.15627v2 [cs.LG] 12 Mar 2024"); a longer one is prose.
_LINE_OF_IDS = 6
_WORDS = re.compile(r"\w+")


def identifiers_in(text: str, year: int | None = None) -> tuple[str | None, str | None]:
    """(DOI, arXiv id) a record's text gives its paper, the first of each, or None.

    A line of identifiers gives them ("arXiv:2402.15627", an arxiv.org link, "DOI:
    10.1145/…", a few words beside them). An identifier quoted in a sentence of the abstract
    is most often another work's, and a paper merged by another's id is a paper lost: a DOI
    there is never taken; an arXiv id only when nothing in its sentence says it is another
    work's (:data:`_ANOTHER_WORK`) and it was given in the record's ``year`` or the two years
    before (a preprint of the paper), when the year is known.
    """
    dois: list[str] = []
    arxiv_ids: list[str] = []
    for line in text.splitlines():
        found_dois, found_arxiv = find_dois(line), find_arxiv_ids(line)
        if not found_dois and not found_arxiv:
            continue
        if _line_of_ids(line, [*found_dois, *found_arxiv]):
            dois.extend(found_dois)
            arxiv_ids.extend(found_arxiv)
        else:
            arxiv_ids.extend(a for a in found_arxiv if _own_in_prose(line, a, year))
    return (dois[0] if dois else None), (arxiv_ids[0] if arxiv_ids else None)


def _line_of_ids(line: str, ids: Sequence[str]) -> bool:
    """True when a line holds little besides these identifiers (and the links to them), and
    nothing that says they are another work's."""
    folded = [i.lower() for i in ids]
    rest = [
        word
        for word in line.split()
        if "://" not in word and not any(i in word.lower() for i in folded)
    ]
    words = " ".join(rest)
    return len(_WORDS.findall(words)) <= _LINE_OF_IDS and not _ANOTHER_WORK.search(words)


def _own_in_prose(line: str, arxiv_id: str, year: int | None) -> bool:
    """True when an arXiv id quoted in a sentence reads as the paper's own (see
    :func:`identifiers_in`)."""
    at = line.find(arxiv_id)
    before = line[: max(at, 0)]
    sentence = before[before.rfind(". ") + 1 :]
    if _ANOTHER_WORK.search(sentence):
        return False
    given = arxiv_year(arxiv_id)
    return year is None or given is None or year - 2 <= given <= year


#: How many lines after the link before the next link of a page is looked for.
_REACH = 200


def _link_lines(text: str, links: Sequence[PageLink]) -> list[tuple[int, str]]:
    """(line number, address) of each link, found by its text in page order.

    Each link is looked for after the previous one: on the same line where it ends no
    earlier than the previous one (an icon's text is the text before it, so it may end just
    there), else on a later line. The same text is never taken twice at the same place.
    """
    split = split_lines(text)
    lines = [" ".join(line.split()) for line in split.text]
    found: list[tuple[int, str]] = []
    at, end, previous = 0, 0, ""
    for link in links:
        if parse_subjects(link.text) is not None:
            continue  # a subject's link points to the subject, not to the paper
        # (within reach of the link before: an icon named by the text before it is found
        # nowhere else, and looking for it through the whole page made a long page's links
        # take time by the square of its length)
        reach = len(lines) if not found else min(len(lines), at + _REACH)
        for index in range(at, reach):
            least = end + (link.text == previous) if index == at else 0
            hit = _ending_at_least(lines[index], link.text, least)
            if hit is not None:
                found.append((split.number[index], link.href))
                at, end, previous = index, hit, link.text
                break
    return found


def link_spans(text: str, links: Sequence[PageLink]) -> list[tuple[int, int, str]]:
    """(start, end, address) of each link in ``text`` (the visible text of the page the links
    come from: :func:`~refman.importers.html_text.html_page`), found by its text in page
    order as :func:`_link_lines` finds it; a link that would cover another's characters (an
    icon named by the text before it) is left out."""
    spans: list[tuple[int, int, str]] = []
    end, previous = 0, ""
    for link in links:
        if not link.text:
            continue
        least = end + (link.text == previous)
        at = text.find(link.text, max(0, least - len(link.text)))
        if at < 0:
            continue
        if not spans or at >= spans[-1][1]:
            spans.append((at, at + len(link.text), link.href))
        end, previous = at + len(link.text), link.text
    return spans


def _ending_at_least(line: str, text: str, least: int) -> int | None:
    """Where the first occurrence of ``text`` in ``line`` that ends at ``least`` or later
    ends, or None."""
    at = line.find(text, max(0, least - len(text)))
    return at + len(text) if at >= 0 else None


def _with_links(record: ParsedRecord, hrefs: Sequence[str]) -> ParsedRecord:
    """The record with the DOI, arXiv id and address its links give (what the text gave
    already stays)."""
    doi, arxiv_id, url = record.doi, record.arxiv_id, record.url
    for href in hrefs:
        if not is_web_address(href):
            continue
        link_doi, link_arxiv = identifiers_in_link(href)
        doi = doi or link_doi
        arxiv_id = arxiv_id or link_arxiv
        if url is None and link_doi is None:
            url = arxiv_url(link_arxiv) if link_arxiv else href
    return dataclasses.replace(record, doi=doi, arxiv_id=arxiv_id, url=url)


def attach_links(page: ParsedPage, text: str, links: Sequence[PageLink]) -> ParsedPage:
    """Give each record of an author page the links that sit within its lines.

    A doi.org link gives the DOI; an arXiv abs or pdf link gives the arXiv id and the
    address; any other web link gives the address (the first one). Links of subjects
    ("cs.LG↗") and links outside every record (the page's header and footer) are ignored,
    and so are links of bibliographies.
    """
    if not links or page.format not in _AUTHOR_PAGES:
        return page
    placed = _link_lines(text, links)
    records = []
    for record in page.records:
        last = record.last_line or record.line
        hrefs = [href for line, href in placed if record.line <= line <= last]
        records.append(_with_links(record, hrefs) if hrefs else record)
    page.records[:] = records
    return page
