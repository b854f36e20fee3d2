"""An author line as a person types it (a paper added by hand): "Ann Smith, Bob Jones and
Carol White", "… et al.", as BibTeX writes names ("Knuth, Donald E. and Graham, Ronald L.",
"… and others"), as PubMed writes them ("Smith J, Doe JA"), with a Chinese or Japanese
keyboard's commas. The names are read by the readers of author pages and bibliographies
(:func:`~refman.importers.names.parse_author_line`, :func:`~refman.importers.bib_fields.bib_names`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from refman.common.errors import InvalidValueError
from refman.common.text import squash_spaces
from refman.importers.bib_fields import bib_names
from refman.importers.names import name_parts, parse_author_line
from refman.importers.records import PersonName
from refman.importers.titles import shorten

__all__ = ["typed_authors"]

#: A list written as BibTeX writes it: "and" between its names.
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
#: "… and others": BibTeX's "et al.".
_AND_OTHERS = re.compile(r"\s+and\s+others\.?$", re.IGNORECASE)
#: The commas a Chinese or Japanese keyboard types between names ("李明，王伟", "山田、鈴木").
_WIDE_COMMAS = str.maketrans({"，": ", ", "、": ", ", "；": "; "})
#: A name written family name first, then the initials ("Smith J", "van der Berg JA",
#: "Smith J. A."): lower-case particles only before the family name, so "Henry Ford II"
#: is no such name.
_INITIALS_AFTER = re.compile(r"((?:[a-z]+ )*[^\W\d_][\w'’-]*) ((?:[A-Z]\.? ?){1,3})")


def typed_authors(line: str) -> tuple[tuple[PersonName, ...], bool]:
    """The authors of an author line as a person types it: ``(people, complete)``; nobody
    for "".

    Raises:
        InvalidValueError: The line does not read as a list of names.
    """
    typed = squash_spaces(line)
    text = typed.translate(_WIDE_COMMAS)  # (a list of names, never "Family, Given")
    if not text:
        return (), False
    if "{" in text:  # (BibTeX's braces: "{World Health Organization}", one name whole)
        braced, whole = bib_names(text)
        if braced:
            return tuple(braced), whole
    family_first = _family_first(text) if text == typed else None
    if family_first is not None:
        return family_first
    if text.isalpha():  # one name alone: "Plato"
        return (name_parts(text),), True
    parsed = parse_author_line(_AND_OTHERS.sub(" et al.", text))
    if parsed is None:
        raise InvalidValueError(
            f"“{shorten(text, 60)}” does not read as a list of authors.",
            "Write the names separated by commas or “and”: Ann Smith, Bob Jones and Carol "
            "White (“et al.” at the end when there are more).",
        )
    names, complete = parsed
    return tuple(map(name_parts, _initials_after(names))), complete


def _initials_after(names: Sequence[str]) -> Sequence[str]:
    """Names written as PubMed and the Vancouver style write them, family name then initials
    in capitals ("Smith J", "van der Berg JA", "Ng AY"), as "J. Smith", "J. A. van der Berg",
    "A. Y. Ng" — each such name, also in a list of names written given names first ("Li Na,
    Smith J"); any other name as it is, given names first ("Ng Yu", "Bo An")."""
    return [
        f"{' '.join(c + '.' for c in m[2] if c.isalpha())} {m[1]}"
        if (m := _INITIALS_AFTER.fullmatch(name))
        else name
        for name in names
    ]


def _family_first(text: str) -> tuple[tuple[PersonName, ...], bool] | None:
    """A line of names written family name first, as BibTeX writes them ("Knuth, Donald E.",
    "Knuth, Donald E. and Graham, Ronald L.", "Smith, Ann and others"), read as BibTeX reads
    it; None for any other line ("Ann Smith, Bob Jones and Carol White")."""
    if ";" in text or "&" in text:
        return None
    for name in _AND.split(text):
        family, comma, given = name.partition(",")
        particles = family.split()[:-1]  # "van Rossum, Guido"
        if name.casefold() != "others" and (
            not comma or "," in given or not all(w.islower() for w in particles)
        ):
            return None
    people, complete = bib_names(text)
    return tuple(people), complete
