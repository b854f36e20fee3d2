"""Read a publication list written as references (:attr:`PageFormat.REFERENCE_LIST`).

Researchers' home pages, lab pages and CVs list their papers as a bibliography prints them:
one reference a line (or wrapped over a few), numbered or not, under headings, each read by
:func:`~refman.importers.references.read_reference`. Lines that are none (the researcher's
name, "Publications", "2023", "Journal articles") are headings; a line that looks like a
reference but does not read as one is named in a warning, never guessed at.
"""

from __future__ import annotations

import re

from refman.importers.lines import Lines
from refman.importers.list_header import owner_name
from refman.importers.names import looks_like_person
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from refman.importers.reference_blocks import block_at
from refman.importers.references import NUMBERING, YEAR, read_reference
from refman.importers.undated import UNDATED

__all__ = ["parse_reference_list"]

#: How many lines that look like references but are none tell prose from a list.
_PROSE_AFTER = 30
#: A list of references has its first within so many lines (a CV's other sections before).
_FIRST_WITHIN = 200
#: The most lines one reference may be wrapped over.
_WRAPPED = 4


def _looks_like_reference(text: str) -> bool:
    """A line a reader would take for a reference: a year (or "in press", "n.d.") and enough
    words."""
    dated = re.search(YEAR, text) or UNDATED.search(text)
    return dated is not None and len(text.split()) >= 8


def parse_reference_list(lines: Lines) -> ParsedPage | None:
    """The references of a page, or None when no line of it is one, or when most lines that
    look like references (a year and a sentence's words) do not read as ones: prose, not a
    list of references (:data:`_PROSE_AFTER` such lines decide it, so a long text that is no
    list costs little).

    A line that is no reference alone may be the start of one wrapped over the next lines
    (a list copied from a PDF): up to :data:`_WRAPPED` lines are read as one. Or it starts
    a paper given on lines of its own, its title, authors, venue and year (Google Scholar:
    :func:`~refman.importers.reference_blocks.block_at`).
    """
    records: list[ParsedRecord] = []
    skipped: list[int] = []
    owner = ""
    i, n = 0, len(lines.text)
    alone = _Alone(lines)
    while i < n:
        found = _at(lines, i, alone) or block_at(lines, i)
        if found is not None:
            record, i = found
            records.append(record)
            continue
        text = lines.text[i]
        if not records and i >= _FIRST_WITHIN:
            return None
        if not records and not owner and looks_like_person(owner_name(text)):
            owner = owner_name(text)  # ("Dr. Maren Solvik", "Nadia Okafor, PhD")
        elif _looks_like_reference(text):
            skipped.append(lines.number[i])
            if len(skipped) >= _PROSE_AFTER and len(skipped) > 2 * len(records):
                return None
        i += 1
    return _page(owner, records, skipped)


def _page(owner: str, records: list[ParsedRecord], skipped: list[int]) -> ParsedPage | None:
    """The page read, or None when it is prose (more lines look like papers than read as
    ones)."""
    if not records or len(skipped) > 2 * len(records):
        return None
    warnings = [
        f"Line {number} was not read: it looks like a paper, but not its authors, title and year."
        for number in skipped
    ]
    return ParsedPage(
        owner=owner,
        format=PageFormat.REFERENCE_LIST,
        claimed=None,
        records=records,
        warnings=warnings,
    )


class _Alone:
    """Whether each line is a reference alone (each line read once)."""

    def __init__(self, lines: Lines) -> None:
        self.lines = lines
        self.known: dict[int, ParsedRecord | None] = {}

    def __call__(self, j: int) -> ParsedRecord | None:
        if j not in self.known:
            self.known[j] = read_reference(self.lines.text[j], self.lines.number[j])
        return self.known[j]


#: A DOI or an address broken at the line's end ("doi: 10.1016/j.margeo.", "https://doi.").
_IN_ADDRESS = re.compile(r"(?:\b10\.\d{4,9}/|https?://)\S*[./_-]$")
#: What goes on with such a DOI or address on the next line ("2022.106", "org/10.1029/…").
_ADDRESS_ON = re.compile(r"^[a-z0-9][\w./-]*[.,]?(?:\s|$)")
#: A line that stops mid-sentence: at a comma, an ampersand, a colon, a broken word's hyphen,
#: a word that never ends a reference ("Handbook of", "Smith, J. and", "pp."), or APA's year after
#: the names, which the title follows ("Wang, Q. (2020).").
_UNFINISHED = re.compile(
    r"(?:[,&:;–-]|\b(?:and|of|in|the|for|on|to|with|from|at|by|a|an|pp?\.|vol\.|no\.)"
    r"|(?<=[A-Z]\.) \(\d{4}[a-z]?\)\.?)$"
)
#: A heading: a few words without the punctuation of a reference's names ("Works Cited",
#: "References", "Journal articles").
_HEADING = re.compile(r"^[^\W\d_][^\W\d_'’-]*(?: [^\W\d_][^\W\d_'’-]*){0,3}$")
#: A line that goes on with what the line before it said: a lower-case word, the rest of a
#: bracket, a DOI or an address ("coastal science (2nd ed.). Springer.", "https://doi.org/…").
_GOES_ON = re.compile(r"^(?:[^\W\d_](?<=[a-zß-ÿ])|\(|https?://|doi:)")


def _address_goes_on(text: str, line: str) -> bool:
    """Whether ``line`` is the rest of a DOI or an address ``text`` ends with."""
    return _IN_ADDRESS.search(text) is not None and _ADDRESS_ON.match(line) is not None


#: The end of a word a PDF broke at its syllables, never a word of its own ("sedi-" and
#: "ment", "intru-" and "sion"): joined without the hyphen the page's width put there.
_SYLLABLE = re.compile(
    r"(?:ment|tion|sion|ance|ence|ness|ity|ities|ing|ical|ically|ology|ologies|ary|ory|"
    r"ous|ure|ures|ture|tures|ular|ics|ism|ist|ists|ive|ives|ation|ations|ally)s?(?![^\W\d_])"
)


def _joined(text: str, line: str) -> str:
    """A reference wrapped onto the next line, joined: by a space, or at a word's hyphen
    ("long-" and "term record" are "long-term record", not "long- term record"; a word broken
    at its syllables is one again: "sedi-" and "ment" are "sediment"), or inside a DOI or an
    address ("doi: 10.1016/j.margeo." and "2022.106.")."""
    hyphened = text.endswith("-") and text[-2:-1].isalpha() and line[:1].islower()
    if hyphened and _SYLLABLE.match(line):
        return f"{text[:-1]}{line}"
    return f"{text}{line}" if hyphened or _address_goes_on(text, line) else f"{text} {line}"


def _goes_on(text: str, line: str, alone: ParsedRecord | None, read: ParsedRecord) -> bool:
    """Whether ``line`` continues the reference ``text`` started, ``read`` so far (a list
    copied from a PDF breaks its references where the page's width falls): after a line
    stopped mid-sentence or inside a DOI, or as a line that reads as no reference of its own
    and follows one without a venue or starts as no reference does."""
    if NUMBERING.match(line):
        return False  # (a list's next number starts the next reference)
    if _UNFINISHED.search(text) or _address_goes_on(text, line):
        return True
    return alone is None and (read.venue is None or _GOES_ON.match(line) is not None)


def _at(lines: Lines, i: int, alone: _Alone) -> tuple[ParsedRecord, int] | None:
    """The reference that starts at line ``i`` (alone, or wrapped over the lines after it),
    and the index of the line after it."""
    text = lines.text[i]
    if _HEADING.match(text):
        return None  # (a heading over the list: "Works Cited", "REFERENCES")
    found: tuple[ParsedRecord, int] | None = None
    for j in range(i, min(i + _WRAPPED, len(lines.text))):
        if j > i:
            if found is not None and not _goes_on(text, lines.text[j], alone(j), found[0]):
                break  # (a reference read, and the next line is none of it)
            if found is None and alone(j) is not None and not _UNFINISHED.search(text):
                break  # (the next line is a reference of its own)
            text = _joined(text, lines.text[j])
        record = alone(i) if j == i else read_reference(text, lines.number[i], lines.number[j])
        if record is not None:
            found = record, j + 1
        elif found is not None:
            break  # (what followed did not read with it: the reference as read)
    return found
