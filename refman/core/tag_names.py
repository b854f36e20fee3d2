"""Tag names asked for that the library must hold (a list filtered by tags, a saved
search of them): a name no tag has is refused, offering the tags most like it (a mistyped
tag would read as a list of no papers).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from refman.common.errors import MergedAwayError, NotFoundError
from refman.core.gone_subjects import name_went
from refman.core.reading import load_tag_names
from refman.core.rules import tag_key
from refman.core.search_filters import tags_named
from refman.core.search_syntax import SearchFilter, parse_search

#: How alike (rapidfuzz's ratio, 0 to 100) a tag's name must be to a name the library does not
#: hold to be offered instead: "nuerips" → "neurips" (86), "sytems" → "systems" (92).
TAG_LIKENESS = 70
#: How many tags are offered at most.
TAGS_OFFERED = 3


def tags_like(name: str, names: Sequence[str]) -> list[str]:
    """The tag names most like ``name`` (case and spaces aside), the most alike first.

    Args:
        name: A name no tag has (mistyped, most likely).
        names: The names of the library's tags.

    Returns:
        At most :data:`TAGS_OFFERED` of ``names``, each at least :data:`TAG_LIKENESS` alike.
    """
    from rapidfuzz import fuzz, process  # loaded by the first comparison, not at every start

    keys = {index: tag_key(other) for index, other in enumerate(names)}
    found = process.extract(
        tag_key(name), keys, scorer=fuzz.ratio, score_cutoff=TAG_LIKENESS, limit=TAGS_OFFERED
    )
    return [names[index] for _, _, index in found]


def no_tag(name: str, like: Sequence[str] = (), went: str | None = None) -> NotFoundError:
    """The error for a tag name the library does not hold, offering the tags ``like`` it
    (the command line names ``refman tags``, the window its tag pane); a tag of that name
    merged into another one (``went``) says so, and names that one."""
    if went is not None:
        return MergedAwayError(
            f"There is no tag “{name}”: it was merged into “{went}”.",
            f"Use the tag “{went}”.",
            f"Nothing was changed; the tag pane lists “{went}”.",
        )
    if like:
        hint = window_hint = f"Tags like it: {', '.join(like)}."
    else:
        hint = "Use “refman tags” to see the tags."
        window_hint = "The tag pane on the left lists the library's tags."
    return NotFoundError(f"There is no tag “{name}”.", hint, window_hint)


def require_tags(session: Session, names: Iterable[str], search: str = "") -> None:
    """Check that every name is a tag's (in any case), as a filter by tags needs, and that
    every ``tag:`` term of the search line ``search`` names a tag (as it finds them: case and
    accents not counted), negated or not: a mistyped tag would read as a list of no papers
    (or, left out, of them all).

    Raises:
        NotFoundError: The first name no tag has, with the tags most like it.
    """
    names = list(names)
    searched = searched_tags(search)
    if not names and not searched:
        return
    held = load_tag_names(session)
    keys = {tag_key(name) for name in held}
    for name in names:
        if tag_key(name) not in keys:
            raise no_tag(name, tags_like(name, held), name_went(session, name))
    for name in unknown_searched(session, search)[:1]:
        raise no_tag(name, tags_like(name, held), name_went(session, name))


def unknown_searched(session: Session, search: str) -> list[str]:
    """The names of the ``tag:`` terms of a search line that name no tag (as the search finds
    tags: case and accents not counted), in order."""
    return [
        name
        for name in searched_tags(search)
        if not session.scalar(select(exists().where(tags_named(session, name))))
    ]


def searched_tags(search: str) -> list[str]:
    """The names the ``tag:`` terms of a search line give (in ``a OR b`` too), in order."""
    if "tag:" not in search.lower():
        return []
    return list(dict.fromkeys(_tag_values(parse_search(search).filters)))


def _tag_values(filters: Iterable[SearchFilter]) -> Iterable[str]:
    for f in filters:
        if f.field == "tag":
            yield f.value
        yield from _tag_values(f.options)
