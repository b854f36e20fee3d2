"""Reading a ``.bib`` export back with two independent parsers (bibtexparser and pybtex) and
stating, field by field, what each paper's entry must hold."""

from __future__ import annotations

import json
from typing import Any

import pybtex.database
import pybtex.errors
from bibtexparser.entrypoint import parse_string
from bibtexparser.middlewares.names import (
    parse_single_name_into_parts,
    split_multiple_persons_names,
)
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from refman.core.export.latex import fits_as_is, latex_abstract
from refman.core.values import PaperDetail
from refman.importers.records import PersonName
from tests.unit.core.export.kinds import extension_of

#: Entry types, BibTeX then BibLaTeX, by CSL type.
ENTRY_TYPES = {
    "article": ("misc", "online"),
    "paper-conference": ("inproceedings", "inproceedings"),
    "article-journal": ("article", "article"),
    "book": ("book", "book"),
    "chapter": ("incollection", "incollection"),
    "report": ("techreport", "report"),
    "thesis": ("phdthesis", "thesis"),
    "webpage": ("misc", "online"),
}
#: The field of the venue, by entry type (BibTeX, BibLaTeX).
VENUE = {
    "article": ("journal", "journaltitle"),
    "inproceedings": ("booktitle", "booktitle"),
    "incollection": ("booktitle", "booktitle"),
}
PUBLISHER = {
    "techreport": "institution",
    "report": "institution",
    "phdthesis": "school",
    "thesis": "institution",
    "misc": "howpublished",
    "online": "organization",
}
MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
VERBATIM = {"doi", "url", "eprint", "isbn", "issn", "primaryClass", "eprintclass"}
NAME_FIELDS = ("author", "editor")


def _decoder() -> LatexNodes2Text:
    """pylatexenc, told the three text commands it renders otherwise (or not at all)."""
    db = get_default_latex_context_db()
    db.add_context_category(
        "refman-export-test",
        prepend=True,
        macros=[
            MacroTextSpec("textbraceleft", "{"),
            MacroTextSpec("textbraceright", "}"),
            MacroTextSpec("textasciicircum", "^"),
        ],
    )
    return LatexNodes2Text(latex_context=db, math_mode="text")


DECODER = _decoder()


def decode(latex: str) -> str:
    """LaTeX back to text."""
    return str(DECODER.latex_to_text(latex))


def _person(name: str) -> PersonName | str:
    if name == "others":
        return name
    if name.startswith("{") and name.endswith("}"):
        return PersonName(decode(name[1:-1]), literal=True)
    parts = parse_single_name_into_parts(name, strict=False)
    return PersonName(
        decode(" ".join(parts.last)),
        decode(" ".join(parts.first)),
        decode(" ".join(parts.von)),
        decode(" ".join(parts.jr)),
    )


def people(value: str) -> list[PersonName | str]:
    """A name list as name parts ("others" stays a word)."""
    return [_person(n) for n in split_multiple_persons_names(value)]


def parse_bibtexparser(text: str) -> dict[str, tuple[str, dict[str, str]]]:
    """Entries by key: (entry type, raw field values), read by bibtexparser."""
    library = parse_string(text)
    assert not library.failed_blocks, [b.error for b in library.failed_blocks]
    return {e.key: (e.entry_type, {f.key: str(f.value) for f in e.fields}) for e in library.entries}


def parse_pybtex(text: str) -> pybtex.database.BibliographyData:
    """The same file read by pybtex, which must report nothing at all."""
    with pybtex.errors.capture() as problems:
        data = pybtex.database.parse_string(text, "bibtex")
    assert not problems, [str(p) for p in problems]
    return data


def _names(detail: PaperDetail, field: str) -> list[PersonName | str]:
    if field == "editor":
        editors = detail.extra.get("editor", [])
        return [PersonName(e["family"], e.get("given", "")) for e in editors]
    out: list[PersonName | str] = list(detail.author_names)
    if out and not detail.authors_complete:
        out.append("others")
    return out


def _dates(detail: PaperDetail, biblatex: bool) -> dict[str, str]:
    issued = detail.extra.get("issued", {}).get("date-parts", [[detail.year]])[0]
    if biblatex:
        return {"date": "-".join([f"{issued[0]:04d}", *(f"{p:02d}" for p in issued[1:])])}
    out = {"year": str(issued[0])}
    if len(issued) > 1:
        out["month"] = MONTHS[issued[1] - 1]
    if len(issued) > 2:  # BibTeX has no day field: a full date goes in "date" as well
        out["date"] = f"{issued[0]:04d}-{issued[1]:02d}-{issued[2]:02d}"
    return out


def _publication(detail: PaperDetail, kind: str, biblatex: bool) -> dict[str, str]:
    out: dict[str, str] = {}
    if detail.venue and detail.venue != "arXiv":
        out[VENUE.get(kind, ("howpublished", "howpublished"))[biblatex]] = detail.venue
    publisher = detail.publisher
    if detail.venue == "arXiv" and not detail.arxiv_id:  # CSL's (and Zotero's) way
        publisher = "arXiv"
    if publisher:
        field = PUBLISHER.get(kind, "publisher")
        out["publisher" if field in out else field] = publisher
    number = detail.issue or detail.extra.get("number")
    for field, value in (("volume", detail.volume), ("number", number), ("pages", detail.pages)):
        if value:
            out[field] = value
    extras = {"ISBN": "isbn", "ISSN": "issn", "edition": "edition"}
    extras["publisher-place"] = "location" if biblatex else "address"
    out.update({field: detail.extra[v] for v, field in extras.items() if v in detail.extra})
    if biblatex and kind in ("thesis", "report"):
        out["type"] = "phdthesis" if kind == "thesis" else "techreport"
    return out


def expected_fields(detail: PaperDetail, *, biblatex: bool, with_notes: bool) -> dict[str, Any]:
    """Every field the paper's entry must have, decoded (names as parts), and no other."""
    kind = ENTRY_TYPES[detail.type][biblatex]
    out: dict[str, Any] = {"title": detail.title}
    out.update({f: _names(detail, f) for f in NAME_FIELDS if _names(detail, f)})
    if not biblatex and "author" not in out:  # what BibTeX sorts by when there is no author
        out["key"] = detail.title
    out.update(_dates(detail, biblatex))
    out.update(_publication(detail, kind, biblatex))
    if detail.doi:
        out["doi"] = detail.doi
    if detail.url:
        out["url"] = detail.url
    if detail.arxiv_id:
        out["eprint"] = detail.arxiv_id
        out["eprinttype" if biblatex else "archivePrefix"] = "arxiv" if biblatex else "arXiv"
        out["eprintclass" if biblatex else "primaryClass"] = detail.subjects[0]
    if detail.tags:
        out["keywords"] = ", ".join(t.name for t in detail.tags)
    if detail.abstract:  # as refman keeps it (its text's braces as braces), or readable
        out["abstract"] = _abstract(detail) or detail.abstract_text
    if with_notes and detail.notes:
        out["annote"] = "\n\n".join(n.text for n in detail.notes)
    fmt = "biblatex" if biblatex else "bibtex"
    extension = extension_of(fmt, detail, with_notes=with_notes)
    if extension:
        out["x-refman"] = extension
    return out


def _abstract(detail: PaperDetail) -> str | None:
    """The abstract as LaTeX, when the export writes it so: as refman keeps it, the braces of
    its text written as braces (``\\{``, ``\\textbraceleft{}``), unless that would break
    the file."""
    latex = latex_abstract(detail.abstract)
    return latex if fits_as_is(latex) else None


def decoded_fields(raw: dict[str, str], detail: PaperDetail) -> dict[str, Any]:
    """A paper's entry's raw fields as text: names as parts, identifiers and links as written,
    the abstract as written when refman writes it as it keeps it, refman's extension as its
    JSON value."""
    as_written = VERBATIM | {"month"} | ({"abstract"} if _abstract(detail) else set())
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key in NAME_FIELDS:
            out[key] = people(value)
        elif key in as_written:
            out[key] = value
        elif key == "x-refman":
            out[key] = json.loads(value)
        else:
            out[key] = decode(value)
    return out
