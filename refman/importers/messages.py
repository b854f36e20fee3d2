"""The plain-words error raised when text holds no publication records."""

from __future__ import annotations

from refman.importers.errors import NotAnAuthorPageError

__all__ = ["PAGE_SHAPE", "PREFIX", "not_a_page"]

#: Every "not an author page" message starts with this.
PREFIX = "No publication records found: "
#: One sentence telling what an author page looks like.
PAGE_SHAPE = (
    "An author page starts with the researcher's name and lists their papers, each with a "
    "title or an author line and an abstract."
)


def not_a_page(reason: str) -> NotAnAuthorPageError:
    """Return the error for text that is not an author page.

    Args:
        reason: Why, in plain words, without a final period ("the text is empty").

    Returns:
        The error, ready to raise; its message is the prefix, the reason and :data:`PAGE_SHAPE`.
    """
    return NotAnAuthorPageError(f"{PREFIX}{reason}. {PAGE_SHAPE}")
