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
    _citeproc_ordinals,
    _citeproc_substitute,
    _citeproc_titlecase,
)
from refman.core._citeproc_etal import incomplete_authors
from refman.core._citeproc_items import citeproc_source, particle_joins, prepare_item
from refman.core._citeproc_output import Finisher, style_quotes
from refman.core._citeproc_sort import add_year_suffixes, sort_bibliography

_citeproc_substitute.install()
_citeproc_etal.install()
_citeproc_groups.install()
_citeproc_first_term.install()
_citeproc_initials.install()
_citeproc_labels.install()
_citeproc_titlecase.install()
_citeproc_lookups.install()
_citeproc_ordinals.install()


def render_entries(
    items: Sequence[Mapping[str, Any]],
    path: Path,
    html_out: bool,
    incomplete: Collection[str] = (),
    language: str | None = None,
) -> list[tuple[str, str]]:
    """The bibliography entries of CSL-JSON items in the style of the CSL file ``path`` (see
    :func:`refman.core.citations.bibliography_entries`), in its own language or in the
    locale ``language``; the author lists of the items whose ids are ``incomplete`` end in
    "et al."."""
    ids: dict[str, str] = {}  # citeproc-py's key → the item's id
    unique: list[Mapping[str, Any]] = []
    for item in items:
        item_id = str(item.get("id", ""))
        if item_id not in ids.values():
            ids[f"item{len(ids)}"] = item_id
            unique.append(item)
    if not unique:
        return []
    with _citeproc_lookups.remembered():
        csl_style = _style(path, language)
        csl_style.root.formatter = _formatter(html_out)  # (its terms are read through it)
        quotes = style_quotes(csl_style)
        prepared = [
            prepare_item(item, key, html_out, quotes) for key, item in zip(ids, unique, strict=True)
        ]
        return _rendered(prepared, ids, csl_style, html_out, incomplete)


def _style(path: Path, language: str | None) -> CitationStylesStyle:
    """The style of the CSL file ``path``, in ``language`` (None: the style's own). The
    language becomes the style's own, which citeproc-py reads to decide whether titles are
    put in title case: as in citeproc-js, only in English."""
    csl_style = CitationStylesStyle(str(path), locale=language, validate=False)
    if language is not None:
        csl_style.root.set("default-locale", language)
    return csl_style


def _formatter(html_out: bool) -> Any:
    return citeproc_formatter.html if html_out else citeproc_formatter.plain


def _rendered(
    prepared: list[dict[str, Any]],
    ids: dict[str, str],
    csl_style: CitationStylesStyle,
    html_out: bool,
    incomplete: Collection[str],
) -> list[tuple[str, str]]:
    output = _formatter(html_out)
    bibliography = CitationStylesBibliography(csl_style, citeproc_source(prepared), output)
    for key in ids:
        bibliography.register(Citation([CitationItem(key)]))
    finisher = Finisher(csl_style, html_out)
    by_key = {item["id"]: item for item in prepared}
    language = str(csl_style.root.get("default-locale") or "en-US")
    entries = []
    with incomplete_authors({key for key, item_id in ids.items() if item_id in incomplete}):
        sort_bibliography(csl_style, bibliography)
        add_year_suffixes(csl_style, bibliography, by_key)
        for number, item in enumerate(bibliography.items, start=1):
            with _citeproc_first_term.entry():
                rendered = csl_style.render_bibliography([item])
            if rendered:
                text = str(rendered[0])
                for plain, tied in particle_joins(by_key[item.key], language):
                    text = text.replace(plain, tied)
                entries.append((ids[item.key], finisher.entry(text, number)))
    return entries
