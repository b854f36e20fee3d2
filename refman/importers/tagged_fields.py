"""The fields of a Web of Science or MEDLINE record as a refman record (see :mod:`tagged`)."""

from __future__ import annotations

import re

from refman.common.text import squash_spaces
from refman.importers.bib_common import Draft, date_parts, split_keywords, tidy_paragraphs
from refman.importers.records import PersonName
from refman.importers.ris_fields import Tags, ris_person

__all__ = ["medline_draft", "wos_draft"]

#: Web of Science document types (DT) -> CSL types; the publication type (PT) is the fallback.
_WOS_DOCUMENTS = {
    "proceedings paper": "paper-conference",
    "meeting abstract": "paper-conference",
    "book": "book",
    "book chapter": "chapter",
    "data paper": "dataset",
}
_WOS_PUBLICATIONS = {"J": "article-journal", "B": "book", "S": "book", "C": "paper-conference"}
_PATENT = "patent"
_DOI_MARK = re.compile(r"^(\S+)\s*\[doi\]\s*$", re.IGNORECASE)
_PAGES = re.compile(r"^(\d+)-(\d+)$")
_QUALIFIER = re.compile(r"\s*\([^)]*\)\s*$")


def _names(tags: Tags, full: str, short: str) -> list[PersonName]:
    values = tags.all(full) or tags.all(short)
    return [p for p in (ris_person(v) for v in values) if p is not None]


def _wos_type(tags: Tags) -> str:
    if tags.first("PT") == "P":
        return _PATENT
    document = tags.first("DT").split(";")[0].strip().lower()
    return _WOS_DOCUMENTS.get(document) or _WOS_PUBLICATIONS.get(tags.first("PT"), "document")


def wos_draft(pairs: list[tuple[str, str]], line: int, raw: str) -> Draft:
    """The record of one Web of Science record."""
    tags = Tags(pairs)
    draft = Draft(line=line, raw=raw, type=_wos_type(tags))
    draft.title = squash_spaces(tags.first("TI"))
    draft.abstract = tidy_paragraphs(tags.first("AB"))
    draft.names = _names(tags, "AF", "AU")
    draft.venue = squash_spaces(tags.first("SO"))
    draft.set_date(*date_parts(tags.first("PY")))
    draft.set_date(None, *date_parts(tags.first("PD"))[1:])
    draft.volume = tags.first("VL")
    draft.issue = tags.first("IS")
    start, end = tags.first("BP"), tags.first("EP")
    draft.pages = f"{start}-{end}" if start and end else start or tags.first("AR")
    draft.doi = tags.first("DI")
    draft.publisher = squash_spaces(tags.first("PU"))
    draft.tags = split_keywords(" ".join(tags.all("DE")), ";")
    extra = {
        "ISSN": tags.first("SN", "EI"),
        "ISBN": tags.first("BN"),
        "language": tags.first("LA"),
        "publisher-place": tags.first("PI"),
        "container-title-short": tags.first("JI", "J9"),
        "collection-title": tags.first("SE"),
        "event-title": tags.first("CT"),
        "event-place": tags.first("CL"),
        "PMID": tags.first("PM"),
    }
    draft.extra.update({k: squash_spaces(v) for k, v in extra.items() if v})
    return draft


def _medline_pages(text: str) -> str:
    """MEDLINE's abbreviated page range made whole: "100-10" -> "100-110"."""
    found = _PAGES.match(text.strip())
    if found and len(found.group(2)) < len(found.group(1)):
        start, end = found.groups()
        return f"{start}-{start[: len(start) - len(end)]}{end}"
    return text.strip()


def _medline_names(tags: Tags) -> list[PersonName]:
    if tags.all("FAU"):
        people = _names(tags, "FAU", "FAU")
    else:  # "Smith J": family name, then initials
        people = []
        for value in tags.all("AU"):
            family, _, initials = value.strip().rpartition(" ")
            people.append(PersonName(family or initials, initials if family else ""))
    people.extend(PersonName(v.strip(), literal=True) for v in tags.all("CN") if v.strip())
    return people


def medline_draft(pairs: list[tuple[str, str]], line: int, raw: str) -> Draft:
    """The record of one MEDLINE record."""
    tags = Tags(pairs)
    kinds = {v.strip().lower() for v in tags.all("PT")}
    kind = "article" if "preprint" in kinds else "article-journal"
    draft = Draft(line=line, raw=raw, type="book" if "book" in kinds else kind)
    draft.title = squash_spaces(tags.first("TI", "BTI"))
    draft.abstract = tidy_paragraphs(tags.first("AB"))
    draft.names = _medline_names(tags)
    draft.venue = squash_spaces(tags.first("JT", "TA"))
    draft.set_date(*date_parts(tags.first("DP")))
    draft.volume = tags.first("VI")
    draft.issue = tags.first("IP")
    draft.pages = _medline_pages(tags.first("PG"))
    marked = (_DOI_MARK.match(v) for v in tags.all("LID", "AID"))
    draft.doi = next((m.group(1) for m in marked if m), None)
    draft.publisher = squash_spaces(tags.first("PB"))
    draft.tags = [t for v in tags.all("OT") for t in split_keywords(v, ";")]
    extra = {
        "PMID": tags.first("PMID"),
        "PMCID": tags.first("PMC"),
        "ISSN": _QUALIFIER.sub("", tags.first("IS")),
        "language": tags.first("LA"),
        "container-title-short": tags.first("TA") if tags.first("JT") != tags.first("TA") else "",
    }
    draft.extra.update({k: v.strip() for k, v in extra.items() if v.strip()})
    return draft
