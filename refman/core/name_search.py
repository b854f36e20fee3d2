"""A name typed to find people (the ``author:`` and ``owner:`` fields, the People window's
search field) as a pattern over their person keys.

A name is typed as people write it or as a bibliography does: "van der Berg, Jan" and
"van der Berg, J." find Jan van der Berg, as "Jan van der Berg" and "J. van der Berg" do
(the given names written after the comma match as their start, and an initial before
other words finds the names it starts). A space
and a hyphen are one: "jean pierre" finds Jean-Pierre, and a word after a hyphen starts a
word ("marquez" finds García-Márquez). A spelling merged into a person finds them too
("Jiang Zhuo", merged into Zhuo Jiang, finds Zhuo Jiang).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, or_, select, union

from refman.common.east_asian import holds_east_asian
from refman.common.text import person_key
from refman.store.models import Person, PersonAlias
from refman.store.plain_text import escape_like

#: What a typed space or hyphen matches in a person's key: either (``LIKE``'s one letter).
_GAP = "_"


def _gaps(key: str) -> str:
    """An escaped key with its spaces and hyphens matching either."""
    return escape_like(key).replace(" ", _GAP).replace("-", _GAP)


def key_like(text: str) -> str:
    """A typed name as the body of a ``LIKE`` pattern (escaped by a backslash) over person
    keys; ``""`` for a blank name.

    A name written family name first with a comma ("van der Berg, Jan", "Berg, J.") is
    read given names first, each given name matching a name it starts ("J" finds "Jan");
    a Chinese, Japanese or Korean name stays as written ("张, 伟" is 张伟).
    """
    family, comma, given = text.partition(",")
    words = person_key(given.replace("-", " ")).split()
    family_key = person_key(family)
    if not comma or "," in given or not words or not family_key or holds_east_asian(family):
        return _initials(person_key(text))
    return "".join(f"{escape_like(w)}%{_GAP}" for w in words) + _gaps(family_key)


def _initials(key: str) -> str:
    """A key's pattern (:func:`_gaps`), an initial before other words matching the names it
    starts ("j van der berg" finds "jan van der berg")."""
    words = key.split(" ")
    last = len(words) - 1
    return _GAP.join(
        _gaps(w) + ("%" if i < last and len(w) == 1 and w.isalpha() else "")
        for i, w in enumerate(words)
    )


def word_starts(text: str) -> tuple[str, ...]:
    """``LIKE`` patterns (escaped by a backslash) of the person keys one of whose words
    starts with a typed name: at the start, after a space or after a hyphen."""
    wanted = key_like(text)
    return (f"{wanted}%", f"% {wanted}%", f"%-{wanted}%")


def people_like(patterns: Sequence[str]) -> Select[Any]:
    """The ids of the people whose key, or the key of a spelling merged into them, matches
    one of these ``LIKE`` patterns (escaped by a backslash)."""
    own = select(Person.id).where(or_(*(Person.key.like(p, escape="\\") for p in patterns)))
    merged = select(PersonAlias.person_id).where(
        or_(*(PersonAlias.key.like(p, escape="\\") for p in patterns))
    )
    return select(union(own, merged).subquery().c[0])
