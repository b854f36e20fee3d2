"""What an author page's record says about the paper beyond its text: its type and its
identifiers (an arXiv id or a DOI written in the record)."""

from __future__ import annotations

from refman.common.identifiers import find_arxiv_ids, find_dois


def author_page_type(venue: str | None) -> str:
    """The CSL type of an author-page record: a preprint on arXiv, else a conference paper."""
    return "article" if venue and venue.casefold() == "arxiv" else "paper-conference"


def identifiers_in(text: str) -> tuple[str | None, str | None]:
    """(DOI, arXiv id) a record's text names ("arXiv:2402.15627", an arxiv.org link, a DOI);
    the first of each, or None."""
    dois, arxiv_ids = find_dois(text), find_arxiv_ids(text)
    return (dois[0] if dois else None), (arxiv_ids[0] if arxiv_ids else None)
