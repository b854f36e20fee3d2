"""The rules a value must follow to be stored, each written once.

Tag names, years, titles and venues are typed in the window, given on the command line and
read from imported pages; every one of those ways calls the rule here, so a year the window
refuses is refused by ``refman edit`` too, with the same words.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, fields
from typing import Any

from refman.common.controls import UNSAFE
from refman.common.errors import InvalidValueError
from refman.common.identifiers import is_web_address, normalize_arxiv, normalize_doi
from refman.common.text import squash_spaces

#: The years a paper may carry.
YEAR_MIN, YEAR_MAX = 1000, 2100
#: The longest tag name.
TAG_MAX = 100
#: The fields a person may edit by hand (an import never overwrites them afterwards).
EDITABLE = (
    "title",
    "year",
    "venue",
    "type",
    "citekey",
    "doi",
    "arxiv_id",
    "url",
    "volume",
    "issue",
    "pages",
    "publisher",
)
#: How the fields are named in messages and in the Edit menu.
FIELD_LABELS = {"citekey": "citation key", "doi": "DOI", "arxiv_id": "arXiv id", "url": "link"}

#: The CSL item types refman knows, with the words people use for them.
ITEM_TYPES = {
    "article-journal": "Journal article",
    "paper-conference": "Conference paper",
    "article": "Preprint",
    "book": "Book",
    "chapter": "Book chapter",
    "thesis": "Thesis",
    "report": "Report",
    "webpage": "Web page",
    "article-magazine": "Magazine article",
    "article-newspaper": "Newspaper article",
    "dataset": "Dataset",
    "software": "Software",
    "manuscript": "Manuscript",
    "patent": "Patent",
    "speech": "Talk",
    "entry-encyclopedia": "Encyclopedia entry",
    "post-weblog": "Blog post",
    "standard": "Standard",
    "document": "Document",
}
_CITEKEY = re.compile(r"^[A-Za-z0-9_:.+/\-]{1,100}$")


def typed_text(text: str) -> str:
    """Text a person typed or pasted, as kept: without the characters no text refman stores
    may hold (an ESC sequence, a bidirectional override: see
    :data:`~refman.common.controls.UNSAFE`), as an import drops them from a page."""
    return UNSAFE.sub("", text)


# -- tags ------------------------------------------------------------------------------------


def tag_key(name: str) -> str:
    """The key that makes tag names unique without regard to case ("Ökonomie" ~ "ökonomie")."""
    return squash_spaces(name).casefold()


def clean_tag_name(name: str) -> str:
    """A tag name as stored: trimmed, inner white space collapsed.

    Raises:
        InvalidValueError: The name is empty or longer than :data:`TAG_MAX` characters.
    """
    cleaned = squash_spaces(typed_text(name))
    if not cleaned:
        raise InvalidValueError("A tag needs a name.", "Type at least one letter.")
    if len(cleaned) > TAG_MAX:
        raise InvalidValueError(f"A tag name can be at most {TAG_MAX} characters long.")
    return cleaned


def clean_tag_names(names: Iterable[str]) -> tuple[str, ...]:
    """Tag names cleaned, each once (the first spelling wins when only the case differs).

    Raises:
        InvalidValueError: A name is empty or too long.
    """
    unique: dict[str, str] = {}
    for name in names:
        cleaned = clean_tag_name(name)
        unique.setdefault(tag_key(cleaned), cleaned)
    return tuple(unique.values())


def split_tags(text: str) -> list[str]:
    """Tag names typed in one field: split on commas, white space tidied, empties dropped.

    A name given twice (in any case) counts once, as the first spelling.
    """
    names: dict[str, str] = {}
    for part in text.split(","):
        name = squash_spaces(part)
        if name:
            names.setdefault(tag_key(name), name)
    return list(names.values())


# -- paper fields ----------------------------------------------------------------------------


def check_year(year: int | None) -> int | None:
    """A year as stored: None, or a whole number from :data:`YEAR_MIN` to :data:`YEAR_MAX`.

    Raises:
        InvalidValueError: The year is out of range.
    """
    if year is not None and not YEAR_MIN <= year <= YEAR_MAX:
        raise InvalidValueError(
            f"“{year}” is not a year.",
            f"Type a year from {YEAR_MIN} to {YEAR_MAX}, or leave it empty.",
        )
    return year


def parse_year(text: str) -> int | None:
    """A year typed by a person: empty text clears the year.

    Raises:
        InvalidValueError: The text is not a whole number from :data:`YEAR_MIN` to
            :data:`YEAR_MAX`.
    """
    value = text.strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 4:
        raise InvalidValueError(
            f"“{text}” is not a year.",
            f"Type a year from {YEAR_MIN} to {YEAR_MAX}, or leave it empty.",
        )
    return check_year(int(value))


def clean_title(title: str) -> str:
    """A title as stored: white space tidied.

    Raises:
        InvalidValueError: The title is empty.
    """
    cleaned = squash_spaces(typed_text(title))
    if not cleaned:
        raise InvalidValueError("A title cannot be empty.", "Type the paper's title.")
    return cleaned


def clean_venue(venue: str | None) -> str | None:
    """A venue (or a volume, issue, pages, publisher) as stored: white space tidied; empty
    means none (None)."""
    return (squash_spaces(typed_text(venue)) or None) if venue else None


def check_choice(text: str, allowed: Iterable[str], problem: str, *, fold: bool = False) -> str:
    """One of a fixed set of names, as typed (white space trimmed; any case with ``fold``).

    Raises:
        InvalidValueError: It is not one of them; ``problem`` says so, the hint lists them.
    """
    names = list(allowed)
    cleaned = text.strip().lower() if fold else text.strip()
    if cleaned not in names:
        raise InvalidValueError(problem, "Use one of: " + ", ".join(names) + ".")
    return cleaned


def check_type(item_type: str) -> str:
    """A paper's CSL item type.

    Raises:
        InvalidValueError: refman does not know the type.
    """
    return check_choice(
        item_type, ITEM_TYPES, f"“{item_type}” is not a type of publication refman knows."
    )


#: A paper's reading status, in the order a reader goes through them.
READING_STATUSES = ("unread", "reading", "read")
#: The most stars a paper can have (0: not rated).
RATING_MAX = 5


def check_status(status: str) -> str:
    """A reading status (any case).

    Raises:
        InvalidValueError: It is not unread, reading or read.
    """
    return check_choice(status, READING_STATUSES, f"“{status}” is not a reading status.", fold=True)


def check_rating(rating: int) -> int:
    """A rating: 0 (none) to 5 stars.

    Raises:
        InvalidValueError: It is outside 0 to 5.
    """
    if not 0 <= rating <= RATING_MAX:
        raise InvalidValueError(
            f"A rating is 0 to {RATING_MAX} stars, not {rating}.", "Give 0 (no rating) to 5."
        )
    return rating


def stars(rating: int) -> str:
    """A rating as stars: "★★★☆☆" (every place shows it so); "" for none."""
    return "★" * rating + "☆" * (RATING_MAX - rating) if rating else ""


def check_citekey(key: str) -> str:
    """A citation key as typed: one word of letters, digits and ``_ : . + / -``.

    Raises:
        InvalidValueError: The key is empty, too long, or holds a space or a character that
            BibTeX does not accept in a key.
    """
    cleaned = key.strip()
    if not _CITEKEY.match(cleaned):
        raise InvalidValueError(
            f"“{key}” cannot be a citation key.",
            "Use one word of letters and digits (and _ : . + / -), such as jiang2024megascale.",
        )
    return cleaned


def clean_doi(text: str | None) -> str | None:
    """A DOI as typed ("10.1145/…", a doi.org link); empty means none.

    Raises:
        InvalidValueError: The text holds no DOI.
    """
    if not text or not text.strip():
        return None
    doi = normalize_doi(text)
    if doi is None:
        raise InvalidValueError(
            f"“{text}” is not a DOI.", "A DOI looks like 10.1145/3620665.3640411."
        )
    return doi


def clean_arxiv_id(text: str | None) -> str | None:
    """An arXiv id as typed ("2402.15627v2", "arXiv:cs/0112017", an arxiv.org link).

    Raises:
        InvalidValueError: The text holds no arXiv id.
    """
    if not text or not text.strip():
        return None
    found = normalize_arxiv(text, keep_version=True)
    if found is None:
        raise InvalidValueError(
            f"“{text}” is not an arXiv id.", "An arXiv id looks like 2402.15627 or cs/0112017."
        )
    return found


def clean_url(text: str | None) -> str | None:
    """A link to the paper; empty means none.

    Raises:
        InvalidValueError: The link is not an http(s) address.
    """
    if not text or not text.strip():
        return None
    url = text.strip()
    if not is_web_address(url):
        raise InvalidValueError(
            f"“{text}” is not a web address.", "A link starts with https:// or http://."
        )
    return url


class Keep(enum.Enum):
    """The value of a field an edit leaves as it is."""

    KEEP = "keep"


#: Leave this field as it is.
KEEP = Keep.KEEP


@dataclass(frozen=True, slots=True)
class FieldEdits:
    """New values for a paper's hand-editable fields; :data:`KEEP` leaves a field alone.

    Every value passes its rule when the edit is made, so an edit that exists is valid.

    Raises:
        InvalidValueError: A value breaks its field's rule (an empty title, a year of 20000).
    """

    title: str | Keep = KEEP
    year: int | Keep | None = KEEP
    venue: str | Keep | None = KEEP
    type: str | Keep = KEEP
    citekey: str | Keep = KEEP
    doi: str | Keep | None = KEEP
    arxiv_id: str | Keep | None = KEEP
    url: str | Keep | None = KEEP
    volume: str | Keep | None = KEEP
    issue: str | Keep | None = KEEP
    pages: str | Keep | None = KEEP
    publisher: str | Keep | None = KEEP

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, Keep):
                object.__setattr__(self, f.name, _RULES[f.name](value))

    @classmethod
    def one(cls, name: str, value: Any) -> FieldEdits:
        """An edit of one field, named (a value that breaks the field's rule is refused).

        Raises:
            InvalidValueError: The value breaks the rule; or, as TypeError, the name is no
                editable field.
        """
        return cls(**{name: value})

    @classmethod
    def typed(cls, name: str, text: str) -> FieldEdits:
        """The edit of a field's text as a person typed it in the window: a year parsed, an
        empty venue (or other bibliographic field) cleared.

        Raises:
            InvalidValueError: The text breaks the field's rule (an empty title, "MMXX").
        """
        if name == "year":
            return cls(year=parse_year(text))
        if name == "title":
            return cls(title=text)
        return cls.one(name, text or None) if name == "venue" else cls.one(name, text)

    def items(self) -> Iterator[tuple[str, str | int | None]]:
        """(field, new value) for every field the edit changes, in :data:`EDITABLE` order."""
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, Keep):
                yield f.name, value

    def names(self) -> tuple[str, ...]:
        """The fields the edit changes."""
        return tuple(name for name, _ in self.items())

    def labels(self) -> tuple[str, ...]:
        """The fields the edit changes, as people name them ("citation key", "DOI")."""
        return tuple(FIELD_LABELS.get(name, name) for name in self.names())


_RULES: dict[str, Callable[[Any], Any]] = {
    "title": clean_title,
    "year": check_year,
    "venue": clean_venue,
    "type": check_type,
    "citekey": check_citekey,
    "doi": clean_doi,
    "arxiv_id": clean_arxiv_id,
    "url": clean_url,
    "volume": clean_venue,
    "issue": clean_venue,
    "pages": clean_venue,
    "publisher": clean_venue,
}
