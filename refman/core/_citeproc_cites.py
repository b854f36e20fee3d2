"""In-text citations as citeproc-js (Zotero's *Copy Citation*) writes them: "(Doe & Roe,
2023; Smith et al., 2020a, 2020b)", "[1–3]". Private to :mod:`refman.core._citeproc_render`.

citeproc-py renders a citation's cites one after the other, in bibliography order, but does
not group and collapse them as a style's ``collapse`` asks: the papers of one author list
named once with their years when they follow each other ("Smith et al., 2020a, 2020b";
``collapse="year"``), a run of three numbers or more as a range ("[1–3]";
``collapse="citation-number"``). Here each cite is rendered alone, without the layout's
affixes, delimiter and alignment; the cites are put in the order of the citation's
``<sort>`` (as given when it has none, as CSL says), collapsed, joined, and then given the
layout's affixes and alignment. Year suffixes are the bibliography's
(:func:`refman.core._citeproc_sort.add_year_suffixes`), as in citeproc-js.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from refman.core._citeproc_sort import sorted_items

__all__ = ["cluster"]

#: What the layout of a citation gives the whole citation, not each cite.
_WHOLE = ("prefix", "suffix", "delimiter", "vertical-align")
#: A run of this many consecutive numbers or more is written as a range.
_RANGE_FROM = 3
#: The delimiter of a cite group's years when the style names none (CSL's default).
_GROUP_DELIMITER = ", "


def cluster(
    style: Any, bibliography: Any, order: Sequence[str], tied: Callable[[str, str], str]
) -> str:
    """The citation of the items of ``bibliography``, citeproc-py's markup (not finished).

    Args:
        style: The ``CitationStylesStyle``.
        bibliography: Its ``CitationStylesBibliography``, sorted, year suffixes given.
        order: The items' citeproc-py keys in the order they were cited.
        tied: A rendered cite with its names tied as the language ties them (by item key).
    """
    citation = style.root.citation
    if citation is None:
        return ""
    layout = citation.layout
    kept = {name: layout.attrib.pop(name) for name in _WHOLE if name in layout.attrib}
    by_key = {item.key: item for item in bibliography.items}
    try:
        items = _in_citation_order(style, bibliography, [by_key[key] for key in order])
        cites = [(item, tied(_cite(citation, item), item.key)) for item in items]
    finally:
        layout.attrib.update(kept)
    collapse = str(citation.get("collapse") or "")
    if collapse == "citation-number":
        texts = _numbers_collapsed([text for _, text in cites])
    elif collapse == "year":
        delimiter = str(citation.get("cite-group-delimiter") or _GROUP_DELIMITER)
        texts = _years_collapsed([(_year(bibliography, i), t) for i, t in cites], delimiter)
    else:
        texts = [text for _, text in cites if text]
    return str(layout.format(layout.wrap(layout.get("delimiter", "").join(texts))))


def _in_citation_order(style: Any, bibliography: Any, items: list[Any]) -> list[Any]:
    """The cites in the order of the citation's ``<sort>``, whose keys never hold a year
    suffix (two papers of 2020 keep the order they were cited in, as in citeproc-js)."""
    suffixes = {}
    for item in items:
        reference = bibliography.source[item.key]
        if "year_suffix" in reference:
            suffixes[item.key] = reference.pop("year_suffix")
    try:
        return sorted_items(style, items, style.root.citation)
    finally:
        for key, suffix in suffixes.items():
            bibliography.source[key]["year_suffix"] = suffix


def _cite(citation: Any, item: Any) -> str:
    """One cite, as the citation's layout renders it alone (without its own affixes)."""
    citation.cites = []  # (each cite is a first one: no "ibid.")
    layout = citation.layout
    layout.repressed = {}
    output = layout.render_children(item)
    return str(output) if output is not None else ""


def _year(bibliography: Any, item: Any) -> str:
    """The year a cite shows, its suffix included ("2020a"); "" when it has none."""
    reference = bibliography.source[item.key]
    issued = reference.get("issued")
    year = getattr(issued, "year", None) if issued is not None else None
    if year is None:
        return ""
    return f"{year}{reference.get('year_suffix') or ''}"


def _years_collapsed(cites: list[tuple[str, str]], delimiter: str) -> list[str]:
    """Cites of the same names one after the other written with their names once, as
    citeproc-js does: "Smith et al., 2020a", "Smith et al., 2020b" → "Smith et al., 2020a,
    2020b" (cites apart stay apart)."""
    groups: list[tuple[str, list[str]]] = []
    for year, text in cites:
        at = text.rfind(year) if year else -1
        names = text[:at] if at > 0 else None  # (no year: a cite of its own)
        if names is not None and groups and groups[-1][0] == names:
            groups[-1][1].append(text[at:])
        else:
            groups.append((names or "", [text]))
    return [delimiter.join(texts) for _, texts in groups]


def _numbers_collapsed(texts: list[str]) -> list[str]:
    """Citation numbers in order, a run of three or more written as a range ("1–3")."""
    numbers = sorted(int(text) for text in texts if text.isdigit())
    if len(numbers) != len(texts):
        return texts  # (a cite that is more than its number is left as it is)
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    out: list[str] = []
    for run in runs:
        if len(run) >= _RANGE_FROM:
            out.append(f"{run[0]}–{run[-1]}")
        else:
            out.extend(str(number) for number in run)
    return out
