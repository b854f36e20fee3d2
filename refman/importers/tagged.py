"""Two tagged formats close to RIS: Web of Science's own export and PubMed's MEDLINE (.nbib).

Web of Science ("Plain text" / "Other file formats")::

    PT J
    AU Smith, J
       Doe, A
    TI Deep learning for DNA
       sequence analysis
    ER

PubMed ("PubMed format", the .nbib file of "Send to: Citation manager")::

    PMID- 31452104
    TI  - Deep learning for DNA sequence analysis.
    FAU - Smith, John

Both are read into the same records as RIS (the page's format is ``ris``); a Web of Science
record without its ``ER`` is left out with a warning, as an RIS record is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from refman.importers.bib_common import Draft, entry_named
from refman.importers.messages import SKIPPED, not_a_bibliography
from refman.importers.records import PageFormat, ParsedPage
from refman.importers.tagged_fields import medline_draft, wos_draft

__all__ = ["parse_medline", "parse_wos"]

_WOS_LINE = re.compile(r"^([A-Z][A-Z0-9])(?: (.*))?$")
_WOS_CONTINUED = re.compile(r"^ {2,3}(\S.*)$")
_MEDLINE_LINE = re.compile(r"^([A-Z][A-Z0-9]{1,3}) *- ?(.*)$")
_MEDLINE_CONTINUED = re.compile(r"^ {4,6}(\S.*)$")
#: Tags whose continuation lines are further values (one author per line).
_LISTS = frozenset({"AU", "AF", "BA", "BF", "CA", "GP", "BE", "CR", "C1", "ED"})


@dataclass(slots=True)
class _Record:
    line: int
    lines: list[str]
    pairs: list[tuple[str, str]] = field(default_factory=list)

    def label(self) -> str:
        """How a warning names the record: "the record “Its title”", else "a record"."""
        return entry_named("record", None, next((v for t, v in self.pairs if t == "TI"), None))

    def continue_value(self, text: str) -> None:
        if not self.pairs:
            return
        tag, value = self.pairs[-1]
        if tag in _LISTS:
            self.pairs.append((tag, text))
        else:
            self.pairs[-1] = (tag, f"{value} {text}")


def _wos_records(text: str) -> tuple[list[_Record], list[str]]:
    records: list[_Record] = []
    warnings: list[str] = []
    current: _Record | None = None
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip()
        tag_line = _WOS_LINE.match(line)
        tag, value = (tag_line.group(1), tag_line.group(2) or "") if tag_line else (None, "")
        if tag == "PT":
            if current is not None:
                warnings.append(_unended(current, f"before the next record on line {number}"))
            current = _Record(number, [raw], [("PT", value)])
        elif current is None:
            continue  # FN, VR, EF and blank lines between records
        elif tag == "ER":
            current.lines.append(raw)
            records.append(current)
            current = None
        else:
            current.lines.append(raw)
            continued = _WOS_CONTINUED.match(line)
            if continued:
                current.continue_value(continued.group(1))
            elif tag is not None:
                current.pairs.append((tag, value))
    if current is not None:
        warnings.append(_unended(current, "before the file ends"))
    return records, warnings


def _unended(record: _Record, where: str) -> str:
    return f"{SKIPPED}{record.label()} on line {record.line}: it has no end (‘ER’) {where}."


def _medline_records(text: str) -> list[_Record]:
    records: list[_Record] = []
    current: _Record | None = None
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip()
        tag_line = _MEDLINE_LINE.match(line)
        if tag_line and tag_line.group(1) == "PMID":
            current = _Record(number, [raw], [("PMID", tag_line.group(2))])
            records.append(current)
        elif current is None:
            continue
        elif not line:
            current = None
        else:
            current.lines.append(raw)
            continued = _MEDLINE_CONTINUED.match(line)
            if continued:
                current.continue_value(continued.group(1))
            elif tag_line:
                current.pairs.append((tag_line.group(1), tag_line.group(2).strip()))
    return records


def _page(drafts: list[Draft], warnings: list[str], what: str) -> ParsedPage:
    if not drafts:
        if warnings:
            first = warnings[0].rstrip(".")
            raise not_a_bibliography(f"no record of the {what} file is whole. {first}")
        raise not_a_bibliography(f"the text holds no {what} records")
    return ParsedPage("", PageFormat.RIS, None, [d.build() for d in drafts], warnings)


def parse_wos(text: str) -> ParsedPage:
    """Read Web of Science's tagged export ("PT J" … "ER").

    Raises:
        NotABibliographyError: The text holds no whole record.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    records, warnings = _wos_records(text)
    drafts = [wos_draft(r.pairs, r.line, "\n".join(r.lines)) for r in records]
    return _page(drafts, warnings, "Web of Science")


def parse_medline(text: str) -> ParsedPage:
    """Read PubMed's MEDLINE format (records starting "PMID- ", separated by blank lines).

    Raises:
        NotABibliographyError: The text holds no record.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    records = _medline_records(text)
    drafts = [medline_draft(r.pairs, r.line, "\n".join(r.lines)) for r in records]
    return _page(drafts, [], "MEDLINE")
