"""Papers as a BibTeX or BibLaTeX file, written with bibtexparser 2.

Every entry starts from the paper's CSL-JSON item; :mod:`refman.core.export.bibfields` says
which entry type and field each CSL type and variable becomes, and
:mod:`refman.core.export.latex` turns text into LaTeX that BibTeX and biber read back as the
same text. Identifiers and links (DOI, URL, eprint, ISBN) are written as they are, and so is
the abstract, which refman keeps as LaTeX. Each entry is read back with refman's own reader;
what it would not give back goes in the entry's ``x-refman`` field
(:mod:`refman.importers.bib_extension`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial

from bibtexparser.entrypoint import write_string
from bibtexparser.library import Library
from bibtexparser.middlewares import AddEnclosingMiddleware
from bibtexparser.model import Entry, Field
from bibtexparser.writer import BibtexFormat

from refman.common.parallel import MIN_ITEMS, split_map
from refman.core.citekeys import folded
from refman.core.export.bibfields import BIBLATEX, BIBTEX, Dialect
from refman.core.export.bibkeys import entry_keys
from refman.core.export.common import (
    ExportItem,
    date_parts,
    iso_date,
    names,
    text_of,
)
from refman.core.export.extension import extension
from refman.core.export.latex import (
    fits_as_is,
    latex_abstract,
    latex_text,
    latex_title,
    protect,
    verbatim,
)
from refman.importers.bib_extension import BIB_FIELD, bib_extension_value
from refman.importers.bib_fields import entry_draft
from refman.importers.bib_marks import marks_fields
from refman.importers.bib_values import MONTH_MACROS, resolve
from refman.importers.file_field import write_file_field
from refman.importers.records import ParsedRecord, PersonName

__all__ = ["bib_name", "biblatex_file", "bibtex_file", "entry_type"]

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_NEEDS_BRACES = re.compile(r",|\band\b", re.IGNORECASE)
#: Entry types whose ``number`` is the number in a series (as BibTeX readers take it).
_SERIES_KINDS = frozenset({"book", "incollection", "inproceedings"})
_DASHES = re.compile(r"\s*[\u2010-\u2015\u2212]\s*")


def _format() -> BibtexFormat:
    fmt = BibtexFormat()  # type: ignore[no-untyped-call]
    fmt.indent = "  "
    fmt.block_separator = "\n"
    fmt.trailing_comma = True
    return fmt


# -- names ------------------------------------------------------------------------------------


def _part(text: str, ascii_only: bool, *, family: bool = False) -> str:
    """A part of a name; braced when BibTeX would split it ("a, b", "x and y") or, for a
    family name, take its first word for a particle ("de la Cruz" kept whole)."""
    latex = latex_text(text, ascii_only=ascii_only)
    lower_start = family and text[:1].islower()
    return protect(latex) if lower_start or _NEEDS_BRACES.search(text) else latex


def bib_name(person: PersonName, *, ascii_only: bool) -> str:
    """One person as BibTeX writes a name: "von Last, Jr, First", or "{Corporate Name}".

    A name known only as a whole ("Zhuo Jiang", from an author page) is written as it is, so
    that BibTeX splits it into first and last name itself.
    """
    if person.literal:
        return protect(latex_text(person.family, ascii_only=ascii_only))
    family = _part(person.family, ascii_only, family=bool(person.given))
    last = " ".join(p for p in (latex_text(person.particle, ascii_only=ascii_only), family) if p)
    if not person.given:
        if person.suffix:
            return protect(latex_text(f"{person.family} {person.suffix}", ascii_only=ascii_only))
        return last
    given = _part(person.given, ascii_only)
    if person.suffix:
        return f"{last}, {_part(person.suffix, ascii_only)}, {given}"
    return f"{last}, {given}"


def _people(x: ExportItem, d: Dialect) -> list[Field]:
    fields = []
    for variable, key in d.people.items():
        people = [bib_name(p, ascii_only=d.ascii_only) for p in names(x.item, variable)]
        if variable == "author" and people and not x.authors_complete:
            people.append("others")
        if people:
            fields.append(Field(key, " and ".join(people)))
    return fields


# -- the entry --------------------------------------------------------------------------------


def entry_type(x: ExportItem, d: Dialect) -> str:
    """The entry type of a paper ("article", "inproceedings", "misc", ...)."""
    kind = d.types.get(text_of(x.item.get("type")), "misc")
    if kind == "phdthesis" and "master" in text_of(x.item.get("genre")).casefold():
        return "mastersthesis"
    return kind


def _text(key: str, value: object, d: Dialect) -> list[Field]:
    text = text_of(value)
    return [Field(key, latex_text(text, ascii_only=d.ascii_only))] if text else []


def _date(x: ExportItem, d: Dialect) -> list[Field]:
    accessed = date_parts(x.item, "accessed")
    return _issued(x, d) + ([Field("urldate", iso_date(accessed))] if accessed else [])


def _issued(x: ExportItem, d: Dialect) -> list[Field]:
    parts = date_parts(x.item)
    if not parts:
        return []
    if d.date_field:
        return [Field(d.date_field, iso_date(parts))]
    fields = [Field("year", str(parts[0]))]
    if len(parts) > 1:
        fields.append(Field("month", _MONTHS[parts[1] - 1], enclosing="no-enclosing"))
    if len(parts) > 2:  # BibTeX has no day; biblatex-style ``date`` keeps it (styles ignore it)
        fields.append(Field("date", iso_date(parts)))
    return fields


def _own(x: ExportItem, variable: str) -> str:
    """A variable of the item, unless it only repeats the arXiv id (written as ``eprint``)."""
    return "" if variable in x.derived else text_of(x.item.get(variable))


def _number(x: ExportItem, kind: str) -> str:
    """The issue, a report's number, or the number in a series of a book or proceedings."""
    number = text_of(x.item.get("issue")) or _own(x, "number")
    if not number and kind in _SERIES_KINDS:
        return text_of(x.item.get("collection-number"))
    return number


def _publication(x: ExportItem, d: Dialect, kind: str) -> list[Field]:
    item = x.item
    pages = _DASHES.sub("--", text_of(item.get("page")))
    container = d.container.get(kind, "howpublished")
    publisher = d.publisher.get(kind, "publisher")
    if publisher == container and text_of(item.get("container-title")):
        publisher = "publisher"
    fields = [
        *_text(container, item.get("container-title"), d),
        *_date(x, d),
        *_text("volume", item.get("volume"), d),
        *_text("number", _number(x, kind), d),
        *_text("pages", pages, d),
        *_text(publisher, _own(x, "publisher"), d),
    ]
    for variable, key in d.text.items():
        fields += _text(key, item.get(variable), d)
    if kind in d.default_kind and not text_of(item.get("genre")):
        fields.append(Field("type", d.default_kind[kind]))
    return fields


def _links(x: ExportItem, d: Dialect) -> list[Field]:
    item = x.item
    fields = [
        Field(key, verbatim(text_of(item[variable])))
        for variable, key in d.verbatim.items()
        if text_of(item.get(variable))
    ]
    if _own(x, "URL"):
        fields.append(Field("url", verbatim(_own(x, "URL"))))
    if x.arxiv_id:
        fields += [Field("eprint", verbatim(x.arxiv_id)), Field(*d.eprint_type)]
        if x.primary_class:
            fields.append(Field(d.eprint_class, verbatim(x.primary_class)))
    return fields


def _keyword(tag: str, d: Dialect) -> str:
    latex = latex_text(tag, ascii_only=d.ascii_only)
    return protect(latex) if "," in tag or ";" in tag else latex


def _abstract(x: ExportItem, d: Dialect) -> list[Field]:
    """The abstract as refman keeps it (it is LaTeX already; the braces of its text written
    as braces: :func:`~refman.core.export.latex.latex_abstract`); when its braces do not pair
    up (BibTeX would lose the rest of the file), its readable text, escaped as a title is."""
    raw = x.detail.abstract
    if not raw.strip():
        return []
    latex = latex_abstract(raw)
    if fits_as_is(latex):
        return [Field("abstract", latex)]
    return _text("abstract", x.detail.abstract_text, d)


def _content(x: ExportItem, d: Dialect) -> list[Field]:
    keywords = ", ".join(_keyword(t, d) for t in x.tags)
    fields = [Field("keywords", keywords)] if keywords else []
    fields += _abstract(x, d)
    if x.notes:
        fields += _text("annote", "\n\n".join(n.strip() for n in x.notes), d)
    return fields + [Field(k, v) for k, v in marks_fields(x.detail.status, x.detail.rating)]


def _ids(x: ExportItem, key: str) -> list[Field]:
    """The paper's other keys (but the entry's key: an older key's, imported as its entry's)."""
    others = [a for a in x.detail.aliases if folded(a) != folded(key)]
    return [Field("ids", ", ".join(others))] if others else []


def _entry(x: ExportItem, d: Dialect, key: str) -> Entry:
    kind = entry_type(x, d)
    title = text_of(x.item.get("title"))
    people = _people(x, d)
    if d.sort_key and title and not any(f.key == "author" for f in people):
        people.append(Field("key", latex_text(title, ascii_only=d.ascii_only)))
    fields = [
        *people,
        *([Field("title", latex_title(title, ascii_only=d.ascii_only))] if title else []),
        *_publication(x, d, kind),
        *_links(x, d),
        *_content(x, d),
        *_ids(x, key),
    ]
    unique = {f.key.casefold(): f for f in reversed(fields)}  # a field once (its first value)
    fields = [f for f in fields if unique[f.key.casefold()] is f]
    more = extension(x, _read_back(kind, key, fields))
    if more:
        fields.append(Field(BIB_FIELD, bib_extension_value(more, ascii_only=d.ascii_only)))
    if x.detail.files:
        fields.append(Field("file", write_file_field((f.name, f.path) for f in x.detail.files)))
    return Entry(kind, key, fields)


def _read_back(kind: str, key: str, fields: list[Field]) -> ParsedRecord:
    """The record refman's BibTeX reader makes of the entry, each value as it is written."""
    values = {}
    for field in fields:
        written = str(field.value)
        if field.enclosing != "no-enclosing" and not written.isdigit():
            written = "{" + written.replace("\r\n", "\n").replace("\r", "\n") + "}"
        values[field.key.lower()] = resolve(written, dict(MONTH_MACROS), []) or ""
    return entry_draft(kind, key, values, 0, "", []).build()


#: Entries written as one piece of the file (a long export's pieces are written half on the
#: other core, see :func:`refman.common.parallel.split_map`).
PIECE = 500


def _write(items: Sequence[ExportItem], d: Dialect, keys: Sequence[str] | None) -> str:
    """The file: its entries written piece by piece (the writer separates entries by one
    blank line, so the pieces joined by one are the file written whole); ``keys``: the
    entries' keys (:func:`~refman.core.export.bibkeys.entry_keys`), when known already."""
    if keys is None:
        keys = [key for key, _ in entry_keys(items)]
    pieces = [(items[i : i + PIECE], keys[i : i + PIECE]) for i in range(0, len(items), PIECE)]
    return "\n".join(split_map(partial(_piece, d), pieces, min_items=MIN_ITEMS // PIECE))


def _piece(d: Dialect, piece: tuple[Sequence[ExportItem], Sequence[str]]) -> str:
    items, keys = piece
    library = Library([_entry(x, d, key) for x, key in zip(items, keys, strict=True)])
    stack = [
        AddEnclosingMiddleware(
            reuse_previous_enclosing=False, enclose_integers=False, default_enclosing="{"
        )
    ]
    return str(write_string(library, unparse_stack=stack, bibtex_format=_format()))


def bibtex_file(items: Sequence[ExportItem], keys: Sequence[str] | None = None) -> str:
    """The papers as a BibTeX file (ASCII apart from characters LaTeX has no name for)."""
    return _write(items, BIBTEX, keys)


def biblatex_file(items: Sequence[ExportItem], keys: Sequence[str] | None = None) -> str:
    """The papers as a BibLaTeX file (UTF-8, for biber)."""
    return _write(items, BIBLATEX, keys)
