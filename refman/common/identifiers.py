"""DOIs and arXiv identifiers: recognising, normalising and linking them.

A DOI is ``10.NNNN/suffix`` (case-insensitive: refman stores it lower case, without any
``https://doi.org/`` or ``doi:`` prefix). An arXiv identifier is new style ``2402.15627``
(optionally with a version ``v2``) or old style ``cs/0112017``; refman compares them without
the version. Importers find them in links and text, the library matches papers by them, and
the window and exports turn them back into links.

Also the ids of a library's rows as people type them (``12``, ``#12``): :func:`row_id`.
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote, urlsplit

__all__ = [
    "arxiv_url",
    "doi_url",
    "find_arxiv_ids",
    "find_dois",
    "identifiers_in_link",
    "is_web_address",
    "normalize_arxiv",
    "normalize_doi",
    "online_address",
    "row_id",
]

#: The largest id a library's row can have (SQLite's largest integer): a larger number names
#: nothing, and the database driver cannot even pass it.
MAX_ROW_ID = 2**63 - 1


def row_id(text: str) -> int | None:
    """The id of a paper, note, person, saved search… that a text names (``12``, ``#12``,
    with spaces around), or None when it names none: not a whole number of 1 or more, or
    larger than any id."""
    value = text.strip().removeprefix("#")
    if not (value.isascii() and value.isdigit()):
        return None
    number = int(value)
    return number if 1 <= number <= MAX_ROW_ID else None


# A DOI's suffix runs to the next white space; trailing punctuation belongs to the sentence.
#: A DOI: "10.", the registrant, "/" and the suffix, which may hold ``<…>`` (the SICI form of
#: older journals' DOIs: ``10.1175/1520-0469(1963)020<0130:DNF>2.0.CO;2``); a lone angle
#: bracket ends it, as the end of ``<https://doi.org/…>`` does.
_DOI = re.compile(r"\b(10\.\d{4,9}/(?:[^\s\"<>{}]|<[^\s\"<>{}]*>)+)", re.IGNORECASE)
_DOI_TRAILING = ".,;:)]}'\""
_OPENING = {")": "(", "]": "[", "}": "{"}
_NEW_ARXIV = r"\d{4}\.\d{4,5}(?:v\d+)?"
_OLD_ARXIV = r"[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?"
_ARXIV_ID = re.compile(rf"^(?:{_NEW_ARXIV}|{_OLD_ARXIV})$", re.IGNORECASE)
_ARXIV_IN_TEXT = re.compile(
    rf"(?:\barXiv:\s*|arxiv\.org/(?:abs|pdf)/)({_NEW_ARXIV}|{_OLD_ARXIV})", re.IGNORECASE
)
_VERSION = re.compile(r"v\d+$", re.IGNORECASE)
_DOI_HOSTS = frozenset({"doi.org", "dx.doi.org", "www.doi.org"})
_ARXIV_HOSTS = frozenset({"arxiv.org", "www.arxiv.org", "export.arxiv.org"})


def normalize_doi(text: str) -> str | None:
    """The DOI in ``text`` ("https://doi.org/10.1/X", "doi:10.1/x", "10.1/X") as stored:
    lower case, no prefix; None when it holds no DOI."""
    match = _DOI.search(unquote(text.strip()))
    if match is None:
        return None
    return _trimmed(match.group(1)).lower()


def closed_doi(doi: str) -> str:
    """A DOI with the brackets it opens and does not close closed, innermost first: a DOI
    an older refman stored without its closing brackets ("10.1000/xyz.(abc").

    Args:
        doi: A DOI as stored.

    Returns:
        The DOI whole; as it was when it closes every bracket it opens.
    """
    closing = {v: k for k, v in _OPENING.items()}
    opened: list[str] = []
    for char in doi:
        if char in closing:
            opened.append(closing[char])
        elif opened and char == opened[-1]:
            opened.pop()
    return doi + "".join(reversed(opened))


def _trimmed(doi: str) -> str:
    """A DOI found in text without the punctuation after it ("10.1/x)." in "(see
    10.1/x)."), but a closing bracket that closes one of its own ("10.1/x.(abc)")."""
    while doi and doi[-1] in _DOI_TRAILING:
        opening = _OPENING.get(doi[-1])
        if opening is not None and doi.count(opening) >= doi.count(doi[-1]):
            break
        doi = doi[:-1]
    return doi


def normalize_arxiv(text: str, *, keep_version: bool = False) -> str | None:
    """The arXiv identifier in ``text`` ("arXiv:2402.15627v2", an abs or pdf link, or the bare
    id); without its version unless ``keep_version``; None when it holds none."""
    candidate = text.strip()
    found = _ARXIV_IN_TEXT.search(candidate)
    if found is not None:
        candidate = found.group(1)
    candidate = candidate.removesuffix(".pdf")
    if not _ARXIV_ID.match(candidate):
        return None
    return candidate if keep_version else _VERSION.sub("", candidate)


def find_dois(text: str) -> list[str]:
    """Every DOI in a text, normalised, in order, each once."""
    if "10." not in text:  # the quick answer for most texts (the pattern scans slowly)
        return []
    found = (_trimmed(m.group(1)).lower() for m in _DOI.finditer(text))
    return list(dict.fromkeys(found))


def find_arxiv_ids(text: str) -> list[str]:
    """Every arXiv identifier a text names ("arXiv:…" or an arxiv.org link), in order, each
    once, with its version when given."""
    if "arxiv" not in text.lower():  # the quick answer for most texts
        return []
    return list(dict.fromkeys(m.group(1) for m in _ARXIV_IN_TEXT.finditer(text)))


def arxiv_year(arxiv_id: str) -> int | None:
    """The year an arXiv id was given (``2310.04567`` → 2023, ``hep-th/9901001`` → 1999), or
    None for text that is no arXiv id."""
    new = re.match(r"(\d\d)\d\d\.", arxiv_id)
    old = re.search(r"/(\d\d)\d{5}", arxiv_id)
    found = new or old
    if found is None:
        return None
    two = int(found.group(1))
    return 2000 + two if new is not None or two < 91 else 1900 + two


def identifiers_in_link(url: str) -> tuple[str | None, str | None]:
    """(DOI, arXiv id with version) a link points to: a doi.org link gives the DOI, an arXiv
    abs or pdf link the arXiv id; other links give neither."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # not a link at all ("http://[x")
        return None, None
    host = parts.netloc.lower()
    if host in _DOI_HOSTS:
        return normalize_doi(parts.path.lstrip("/")), None
    if host in _ARXIV_HOSTS and parts.path.startswith(("/abs/", "/pdf/")):
        return None, normalize_arxiv(parts.path.split("/", 2)[2], keep_version=True)
    return None, None


def is_web_address(text: str) -> bool:
    """True for an http(s) address with a host and no white space ("https://x.org/p")."""
    if not text.lower().startswith(("http://", "https://")) or any(c.isspace() for c in text):
        return False
    try:
        return bool(urlsplit(text).hostname)
    except ValueError:
        return False


def is_arxiv_doi(doi: str | None) -> bool:
    """True for the DOI arXiv gives its preprints (10.48550/arXiv.ID): a preprint's, never a
    published version's."""
    return doi is not None and doi.casefold().startswith("10.48550/arxiv.")


def doi_url(doi: str) -> str:
    """The resolver link of a DOI (the characters a link cannot hold as they are — ``<``,
    ``>``, ``#``, ``?``, ``%``, spaces — percent-encoded, as doi.org reads them)."""
    return f"https://doi.org/{quote(doi, safe=_DOI_URL_SAFE)}"


_DOI_URL_SAFE = "/:;()[]@!$&'*+,="


def arxiv_url(arxiv_id: str) -> str:
    """The abstract page of an arXiv paper."""
    return f"https://arxiv.org/abs/{arxiv_id}"


def online_address(
    doi: str | None, arxiv_id: str | None, url: str | None
) -> tuple[str, str] | None:
    """Where a paper without a file is read online (what Enter opens in the list, as Zotero's
    double-click does): its DOI's resolver link, else its arXiv page, else its link (a web
    address only).

    Returns:
        What it is ("DOI", "arXiv page", "link") and its address; None when the paper has
        none of them.
    """
    if doi:
        return "DOI", doi_url(doi)
    if arxiv_id:
        return "arXiv page", arxiv_url(arxiv_id)
    if url and is_web_address(url.strip()):
        return "link", url.strip()
    return None
