"""Read an RIS file into records (Zotero, Mendeley, EndNote, PubMed, Web of Science, Scopus).

An RIS record runs from its ``TY  - `` line to its ``ER  - `` line; each line in between is a
two-character tag, two spaces, a hyphen and the value, and a line without a tag continues the
value before it. refman reads the lines itself (rispy, the maintained library, drops a record
that lacks its ``ER`` and merges it into the next one without a word): a record without its
end is left out with a warning naming it and its line, and stray lines are reported.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from refman.common.text import squash_spaces
from refman.importers.bib_common import built, entry_named
from refman.importers.bib_extension import CSL_KEY, RIS_TAG, parse_extension, with_extension
from refman.importers.messages import SKIPPED, not_a_bibliography
from refman.importers.records import PageFormat, ParsedPage
from refman.importers.ris_fields import TEXT_TAGS, ris_draft

__all__ = ["RIS_TAG_LINE", "RisRecord", "parse_ris", "split_ris"]

#: A tagged line: "TY  - JOUR" (one to three spaces before the hyphen are accepted).
RIS_TAG_LINE = re.compile(r"^([A-Z][A-Z0-9])[ \t]{1,3}-(?:[ \t](.*)|[ \t]*)$")
_HEADER = re.compile(r"^\s*\d+\.\s*$")  # rispy writes "1." before each record
_SHORT = 40


@dataclass(slots=True)
class RisRecord:
    """One record's lines: where it starts, its text, and its (tag, value) pairs in order."""

    line: int
    lines: list[str]
    tags: list[tuple[str, str]] = field(default_factory=list)

    def title(self) -> str | None:
        """The record's title, for warnings."""
        return next((v for t, v in self.tags if t in ("TI", "T1", "CT", "BT") and v), None)

    def label(self) -> str:
        """How a warning names the record: "the record “Its title”", else "a record"."""
        return entry_named("record", None, self.title())

    def add_line(self, line: str) -> str | None:
        """Add a line without a tag; the problem, in words, when it cannot continue a value."""
        self.lines.append(line)
        text = line.strip()
        if not self.tags:
            return None
        tag, value = self.tags[-1]
        if tag in ("AB", "N1", "N2"):
            self.tags[-1] = (tag, f"{value}\n{text}")
        elif not text:
            return None
        elif tag == "KW":
            self.tags.append(("KW", text))
        elif tag in TEXT_TAGS:
            self.tags[-1] = (tag, f"{value} {text}")
        else:
            return f"is not a RIS field and cannot continue ‘{tag}’"
        return None


def _quote(line: str) -> str:
    text = squash_spaces(line)
    return f"‘{text[:_SHORT]}…’" if len(text) > _SHORT else f"‘{text}’"


class _Splitter:
    """Cuts the text into records, noting records without an end and stray lines."""

    def __init__(self) -> None:
        self.records: list[RisRecord] = []
        self.warnings: list[str] = []
        self.current: RisRecord | None = None
        self.started = False
        self.skipped = 0

    def _unended(self, record: RisRecord, where: str) -> None:
        self.skipped += 1
        self.warnings.append(
            f"{SKIPPED}{record.label()} on line {record.line}: it has no end (‘ER  - ’) {where}."
        )

    def feed(self, number: int, line: str) -> None:
        """Take one line (``number`` is 1-based)."""
        found = RIS_TAG_LINE.match(line.rstrip())
        tag = found.group(1) if found else None
        value = (found.group(2) or "").strip() if found else ""
        if tag == "TY":
            if self.current is not None:
                self._unended(self.current, f"before the next record starts on line {number}")
            self.current = RisRecord(number, [line], [("TY", value)])
            self.started = True
        elif self.current is None:
            if line.strip() and self.started and not _HEADER.match(line):
                self.warnings.append(
                    f"Line {number} is not part of any record and was ignored: {_quote(line)}."
                )
        elif tag == "ER":
            self.current.lines.append(line)
            self.records.append(self.current)
            self.current = None
        elif tag is not None:
            self.current.lines.append(line)
            self.current.tags.append((tag, value))
        else:
            problem = self.current.add_line(line)
            if problem:
                self.warnings.append(
                    f"Line {number} of {self.current.label()} (line "
                    f"{self.current.line}) {problem}; it was ignored: {_quote(line)}."
                )

    def finish(self) -> None:
        if self.current is not None:
            self._unended(self.current, "before the file ends")
            self.current = None


def split_ris(text: str) -> tuple[list[RisRecord], list[str], int]:
    """The whole records of an RIS text, the warnings about the rest, and how many records
    were left out."""
    splitter = _Splitter()
    for number, line in enumerate(text.split("\n"), 1):
        splitter.feed(number, line)
    splitter.finish()
    return splitter.records, splitter.warnings, splitter.skipped


def parse_ris(text: str) -> ParsedPage:
    """Read the text of an RIS file.

    Args:
        text: The file's text.

    Returns:
        A page (format RIS, no owner) with one record per whole RIS record, in file order,
        and a warning for every record left out and every stray line.

    Raises:
        NotABibliographyError: The text holds no RIS record, or none that is whole.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    records, warnings, skipped = split_ris(text)
    if not records:
        if skipped:
            first = warnings[0].rstrip(".")
            raise not_a_bibliography(f"no record of the RIS file is whole. {first}")
        raise not_a_bibliography("the text holds no RIS records (“TY  - …” to “ER  - ”)")
    parsed = [
        with_extension(
            built(
                ris_draft(r.tags, r.line, "\n".join(r.lines)),
                f"The record on line {r.line}",
                warnings,
            ),
            _extension(r),
        )
        for r in records
    ]
    return ParsedPage("", PageFormat.RIS, None, parsed, warnings)


def _extension(record: RisRecord) -> dict[str, Any]:
    """refman's extension, when the record has one: a ``C8`` holding ``{"refman": {...}}``."""
    for tag, value in record.tags:
        if tag == RIS_TAG and value.startswith("{") and f'"{CSL_KEY}"' in value:
            try:
                found = json.loads(value)
            except (ValueError, RecursionError):  # damaged, or nested too deeply to read
                continue
            if isinstance(found, dict) and CSL_KEY in found:
                return parse_extension(found[CSL_KEY])
    return {}
