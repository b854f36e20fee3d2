"""Rendering CSL-JSON items with citeproc-py: bibliography entries, and in-text citations
(:mod:`refman.core._citeproc_cites`). Private to :mod:`refman.core.citations`, which loads
it when the first citation is made (citeproc-py and lxml are not loaded at start)."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
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
from refman.core._citeproc_cites import cluster
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
    with _rendering(items, path, html_out, incomplete, language) as rendering:
        if rendering is None:
            return []
        entries = []
        for number, item in enumerate(rendering.bibliography.items, start=1):
            with _citeproc_first_term.entry():
                rendered = rendering.style.render_bibliography([item])
            if rendered:
                text = rendering.tied(str(rendered[0]), item.key)
                entries.append((rendering.ids[item.key], rendering.finisher.entry(text, number)))
        return entries


def render_citation(
    items: Sequence[Mapping[str, Any]],
    path: Path,
    html_out: bool,
    incomplete: Collection[str] = (),
    language: str | None = None,
) -> str:
    """One in-text citation of CSL-JSON items (see
    :func:`refman.core.citations.citation_text`); "" for none."""
    with _rendering(items, path, html_out, incomplete, language) as rendering:
        if rendering is None:
            return ""
        whole = cluster(
            rendering.style, rendering.bibliography, list(rendering.ids), rendering.tied
        )
        return rendering.finisher.finished(whole)


@dataclass(frozen=True)
class _Rendering:
    """A style and its bibliography of items, ready to render."""

    style: CitationStylesStyle
    bibliography: CitationStylesBibliography
    ids: dict[str, str]  # citeproc-py's key → the item's id
    items: dict[str, dict[str, Any]]  # citeproc-py's key → the item prepared
    finisher: Finisher

    def tied(self, text: str, key: str) -> str:
        """A rendered text with the item's name particles tied as its language ties them."""
        language = str(self.style.root.get("default-locale") or "en-US")
        for plain, tied in particle_joins(self.items[key], language):
            text = text.replace(plain, tied)
        return text


@contextmanager
def _rendering(
    items: Sequence[Mapping[str, Any]],
    path: Path,
    html_out: bool,
    incomplete: Collection[str],
    language: str | None,
) -> Iterator[_Rendering | None]:
    """The items (each id once) registered in order with a bibliography of the style, sorted
    as it says, their year suffixes given (None: no item); while the block renders them."""
    ids: dict[str, str] = {}
    unique: list[Mapping[str, Any]] = []
    for item in items:
        item_id = str(item.get("id", ""))
        if item_id not in ids.values():
            ids[f"item{len(ids)}"] = item_id
            unique.append(item)
    if not unique:
        yield None
        return
    with _citeproc_lookups.remembered():
        csl_style = _style(path, language)
        output = citeproc_formatter.html if html_out else citeproc_formatter.plain
        csl_style.root.formatter = output  # (its terms are read through it)
        quotes = style_quotes(csl_style)
        prepared = {
            key: prepare_item(item, key, html_out, quotes)
            for key, item in zip(ids, unique, strict=True)
        }
        source = citeproc_source(list(prepared.values()))
        bibliography = CitationStylesBibliography(csl_style, source, output)
        for key in ids:
            bibliography.register(Citation([CitationItem(key)]))
        finisher = Finisher(csl_style, html_out)
        with incomplete_authors({key for key, item_id in ids.items() if item_id in incomplete}):
            sort_bibliography(csl_style, bibliography)
            add_year_suffixes(csl_style, bibliography, prepared)
            yield _Rendering(csl_style, bibliography, ids, prepared, finisher)


def _style(path: Path, language: str | None) -> CitationStylesStyle:
    """The style of the CSL file ``path``, in ``language`` (None: the style's own). The
    language becomes the style's own, which citeproc-py reads to decide whether titles are
    put in title case: as in citeproc-js, only in English."""
    csl_style = CitationStylesStyle(str(path), locale=language, validate=False)
    if language is not None:
        csl_style.root.set("default-locale", language)
    return csl_style
