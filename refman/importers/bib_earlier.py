"""A stored BibTeX entry as an older refman read it, and as refman reads it now: what an
upgrade needs to mend the papers it read so (and only those).

Before revision 0030 refman kept a BibTeX abstract with its grouping braces (``from
{AlphaFold} to``), which BibTeX prints none of; it shows them as braces, and its ``.bib``
export wrote them as ``\\{AlphaFold\\}``. A paper whose entry gave no title took one
suggested from that abstract, braces and all. :func:`reread` gives both readings of an
entry (the import keeps its text: ``batch_papers.raw``), so that
:mod:`refman.core.brace_abstracts` changes a paper only where it still holds the older one.
"""

from __future__ import annotations

from dataclasses import dataclass

from refman.common.errors import RefmanError
from refman.importers.bib_common import tidy_paragraphs
from refman.importers.bib_values import bib_latex
from refman.importers.bibtex import entry_values, parse_bibtex
from refman.importers.titles import suggest_title

__all__ = ["Reading", "reread"]


@dataclass(frozen=True, slots=True)
class Reading:
    """What refman made of an entry's title and abstract."""

    title: str
    abstract: str


def reread(raw: str) -> tuple[Reading, Reading] | None:
    """The title and abstract of one stored BibTeX entry as refman read them before revision
    0030 (grouping braces and ties kept), and as it reads them now; None when the readings agree, or
    the text is no single whole entry whose abstract comes from its ``abstract`` field (the
    x-refman extension's own abstract, say)."""
    if "{" not in raw or not raw.lstrip().startswith("@"):
        return None
    try:
        page = parse_bibtex(raw)
        values = entry_values(raw)
    except RefmanError:
        return None
    if len(page.records) != 1 or len(values) != 1:
        return None
    record, written = page.records[0], values[0].get("abstract", "")
    before = tidy_paragraphs(written)
    if record.abstract != bib_latex(before) or before == record.abstract:
        return None
    title = suggest_title(before) if record.title_provisional else record.title
    return Reading(title, before), Reading(record.title, record.abstract)
