"""The plain-words errors and warnings of reading pages and bibliographies.

Text that holds no publication records (neither an author page nor a bibliography) raises
an error whose message starts with :data:`PREFIX`; a bibliography entry that is damaged and
left out gets a warning that starts with :data:`SKIPPED`.
"""

from __future__ import annotations

from refman.importers.errors import NotABibliographyError, NotAnAuthorPageError

__all__ = [
    "BIB_SHAPE",
    "LINK_HINT",
    "PAGE_SHAPE",
    "PREFIX",
    "SKIPPED",
    "WEB_ADDRESS",
    "not_a_bibliography",
    "not_a_page",
    "web_address",
]

#: Every "no records" message starts with this.
PREFIX = "No publication records found: "
#: What refman reads, in one sentence each.
PAGE_SHAPE = (
    "An author page starts with the researcher's name and lists their papers, each with a "
    "title or an author line and an abstract, or as references (authors, title, venue, "
    "year). A bibliography is a BibTeX, BibLaTeX, RIS or CSL-JSON file."
)
#: What a bibliography file looks like.
BIB_SHAPE = (
    "refman imports bibliographies as BibTeX or BibLaTeX (.bib), RIS (.ris) and CSL-JSON "
    "(.json) files, as Zotero, JabRef, Mendeley or EndNote export them, and author pages."
)
#: Every warning about an entry that was left out starts with this.
SKIPPED = "Skipped "
#: What to do with the address of a page given instead of its text.
LINK_HINT = "Open the page in your browser, select the publication list and drag or paste the text."


#: Why a web address given instead of a page imports nothing (after the address).
WEB_ADDRESS = "is a web address; refman cannot download pages"
#: What to do with a web address given instead of a page's file.
SAVE_HINT = "Open it in your browser, save the page (as text or HTML) and import that file."


def web_address(address: str) -> str:
    """Why a web address given instead of a page's text imports nothing (no final period)."""
    return f"‘{address}’ {WEB_ADDRESS}"


def not_a_page(reason: str) -> NotAnAuthorPageError:
    """Return the error for text that is not an author page.

    Args:
        reason: Why, in plain words, without a final period ("the text is empty").

    Returns:
        The error, ready to raise; its message is the prefix, the reason and :data:`PAGE_SHAPE`.
    """
    return NotAnAuthorPageError(f"{PREFIX}{reason}. {PAGE_SHAPE}")


def not_a_bibliography(reason: str) -> NotABibliographyError:
    """Return the error for text that looks like no bibliography refman reads.

    Args:
        reason: Why, in plain words, without a final period ("the JSON holds no CSL items").

    Returns:
        The error, ready to raise; its message is the prefix, the reason and :data:`BIB_SHAPE`.
    """
    return NotABibliographyError(f"{PREFIX}{reason}. {BIB_SHAPE}")
