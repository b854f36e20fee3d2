"""Rendering CSL-JSON items with citeproc-py. Private to :mod:`refman.core.citations`, which
loads it when the first citation is made (citeproc-py and lxml are not loaded at start)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc import formatter as citeproc_formatter

from refman.core import (
    _citeproc_etal,
    _citeproc_first_term,
    _citeproc_groups,
    _citeproc_initials,
    _citeproc_labels,
    _citeproc_lookups,
    _citeproc_substitute,
    _citeproc_titlecase,
)
from refman.core._citeproc_etal import incomplete_authors
from refman.core._citeproc_items import citeproc_source, prepare_item
from refman.core._citeproc_output import Finisher
from refman.core._citeproc_sort import add_year_suffixes, sort_bibliography

_citeproc_substitute.install()
_citeproc_etal.install()
_citeproc_groups.install()
_citeproc_first_term.install()
_citeproc_initials.install()
_citeproc_labels.install()
_citeproc_titlecase.install()
_citeproc_lookups.install()


def render_entries(
    items: Sequence[Mapping[str, Any]],
    path: Path,
    html_out: bool,
    incomplete: Collection[str] = (),
) -> list[tuple[str, str]]:
    """The bibliography entries of CSL-JSON items in the style of the CSL file ``path`` (see
    :func:`refman.core.citations.bibliography_entries`); the author lists of the items whose
    ids are ``incomplete`` end in "et al."."""
    ids: dict[str, str] = {}  # citeproc-py's key → the item's id
    seen: set[str] = set()
    prepared = []
    for item in items:
        item_id = str(item.get("id", ""))
        if item_id in seen:
            continue
        seen.add(item_id)
        key = f"item{len(ids)}"
        ids[key] = item_id
        prepared.append(prepare_item(item, key, html_out))
    if not prepared:
        return []
    with _citeproc_lookups.remembered():
        return _rendered(prepared, ids, path, html_out, incomplete)


def _rendered(
    prepared: list[dict[str, Any]],
    ids: dict[str, str],
    path: Path,
    html_out: bool,
    incomplete: Collection[str],
) -> list[tuple[str, str]]:
    csl_style = CitationStylesStyle(str(path), locale=None, validate=False)
    output = citeproc_formatter.html if html_out else citeproc_formatter.plain
    bibliography = CitationStylesBibliography(csl_style, citeproc_source(prepared), output)
    for key in ids:
        bibliography.register(Citation([CitationItem(key)]))
    finisher = Finisher(csl_style, html_out)
    entries = []
    with incomplete_authors({key for key, item_id in ids.items() if item_id in incomplete}):
        sort_bibliography(csl_style, bibliography)
        add_year_suffixes(csl_style, bibliography, {item["id"]: item for item in prepared})
        for number, item in enumerate(bibliography.items, start=1):
            with _citeproc_first_term.entry():
                rendered = csl_style.render_bibliography([item])
            if rendered:
                entries.append((ids[item.key], finisher.entry(str(rendered[0]), number)))
    return entries
