"""A paper as a CSL-JSON item: the one bibliographic picture of a paper that the exports and
the formatted citations start from (CSL-JSON is what Zotero and citeproc speak).

The mapping follows Zotero's where CSL leaves a choice: an arXiv preprint is an ``article``
with ``publisher`` "arXiv" and ``number`` "arXiv:ID"; the venue is the ``container-title``;
further variables a bibliography gave (editor, ISBN, edition, ...) are kept in the paper's
``extra`` and come back here unchanged.
"""

from __future__ import annotations

from typing import Any

from refman.common.identifiers import arxiv_url
from refman.core.merge import PREPRINT_TYPES
from refman.core.values import PaperDetail
from refman.importers.records import CSL_VARIABLES, PersonName
from refman.importers.titles import PLACEHOLDER_TITLE

#: The paper fields that map one to one onto CSL variables.
_DIRECT = {"title": "title", **CSL_VARIABLES}


def _issued(detail: PaperDetail) -> dict[str, Any] | None:
    """The paper's date: the full date a bibliography gave (month, day, a range) while its
    year is the paper's year; the year alone once the year was edited (or cleared), so that
    citations and exports say what the list says."""
    extra = detail.extra.get("issued")
    if isinstance(extra, dict) and extra.get("date-parts") and _year_of(extra) == detail.year:
        return extra
    if detail.year is None:
        return None
    return {"date-parts": [[detail.year]]}


def _year_of(issued: dict[str, Any]) -> int | None:
    """The (first) year of a CSL date, or None when it has none that reads as a number."""
    try:
        return int(issued["date-parts"][0][0])
    except (IndexError, KeyError, TypeError, ValueError):
        return None


def _preprint(detail: PaperDetail) -> dict[str, str]:
    """How CSL (and Zotero) name an arXiv preprint: publisher arXiv, number arXiv:ID (a
    published paper that also has an arXiv id keeps its own publisher)."""
    if detail.type not in PREPRINT_TYPES:
        return {}
    if detail.arxiv_id:
        return {
            "publisher": "arXiv",
            "number": f"arXiv:{detail.arxiv_id}",
            "URL": arxiv_url(detail.arxiv_id),
        }
    if detail.venue and detail.venue.casefold() == "arxiv":
        return {"publisher": "arXiv"}
    return {}


def _has(detail: PaperDetail, name: str) -> bool:
    """Whether the paper has a value for the field (a paper imported without a title has
    none: refman's stand-in, "Untitled record", is no title to print)."""
    if name == "title" and detail.title_provisional and detail.title == PLACEHOLDER_TITLE:
        return False
    return bool(getattr(detail, name))


def csl_item(detail: PaperDetail) -> dict[str, Any]:
    """The CSL-JSON item of a paper (its ``id`` is the citation key).

    Args:
        detail: The paper.

    Returns:
        A dict that validates against the CSL data schema.
    """
    item: dict[str, Any] = {"id": detail.citekey or f"paper{detail.id}", "type": detail.type}
    item.update({k: v for k, v in detail.extra.items() if k != "issued"})
    item.update({v: getattr(detail, k) for k, v in _DIRECT.items() if _has(detail, k)})
    names = detail.author_names or tuple(PersonName(a) for a in detail.authors)
    further = {
        "author": [n.csl() for n in names],
        "issued": _issued(detail),
        "abstract": detail.abstract_text,
        "keyword": ", ".join(t.name for t in detail.tags),
    }
    item.update({k: v for k, v in further.items() if v})
    if detail.venue and detail.venue.casefold() != "arxiv":
        item.setdefault("container-title", detail.venue)
    for variable, value in _preprint(detail).items():
        item.setdefault(variable, value)
    return item
