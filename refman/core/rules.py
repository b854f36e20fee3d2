"""The rules a value must follow to be stored, each written once.

Tag names, years, titles and venues are typed in the window, given on the command line and
read from imported pages; every one of those ways calls the rule here, so a year the window
refuses is refused by ``refman edit`` too, with the same words.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields

from refman.common.errors import InvalidValueError
from refman.common.text import squash_spaces

#: The years a paper may carry.
YEAR_MIN, YEAR_MAX = 1000, 2100
#: The longest tag name.
TAG_MAX = 100
#: The fields a person may edit by hand (an import never overwrites them afterwards).
EDITABLE = ("title", "year", "venue")


# -- tags ------------------------------------------------------------------------------------


def tag_key(name: str) -> str:
    """The key that makes tag names unique without regard to case ("Ökonomie" ~ "ökonomie")."""
    return squash_spaces(name).casefold()


def clean_tag_name(name: str) -> str:
    """A tag name as stored: trimmed, inner white space collapsed.

    Raises:
        InvalidValueError: The name is empty or longer than :data:`TAG_MAX` characters.
    """
    cleaned = squash_spaces(name)
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
    cleaned = squash_spaces(title)
    if not cleaned:
        raise InvalidValueError("A title cannot be empty.", "Type the paper's title.")
    return cleaned


def clean_venue(venue: str | None) -> str | None:
    """A venue as stored: white space tidied; empty means no venue (None)."""
    return (squash_spaces(venue) or None) if venue else None


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

    def __post_init__(self) -> None:
        if not isinstance(self.title, Keep):
            object.__setattr__(self, "title", clean_title(self.title))
        if not isinstance(self.year, Keep):
            object.__setattr__(self, "year", check_year(self.year))
        if not isinstance(self.venue, Keep):
            object.__setattr__(self, "venue", clean_venue(self.venue))

    def items(self) -> Iterator[tuple[str, str | int | None]]:
        """(field, new value) for every field the edit changes, in :data:`EDITABLE` order."""
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, Keep):
                yield f.name, value

    def names(self) -> tuple[str, ...]:
        """The fields the edit changes."""
        return tuple(name for name, _ in self.items())
