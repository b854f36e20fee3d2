"""Tags left without papers when papers are deleted for good (*Empty Trash*, *Delete
Permanently*, ``refman empty-trash``): deleted with them, as Zotero purges the tags no item
carries once items are erased, so that the tag pane does not fill with tags of no paper.

Kept all the same: a tag with a colour (set up on purpose, as Zotero keeps its coloured
tags), a tag a saved search names (among its tags or in a ``tag:`` term: it would find
nothing, ever), and a tag a paper still carries (in the Trash too). A tag taken off its last
paper by hand stays (``refman delete-tag`` deletes it): only deleting papers for good drops
tags. Deleting papers for good cannot be undone, nor can this.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import delete, exists, select
from sqlalchemy.orm import Session

from refman.common.text import join_words, plural
from refman.core.rules import tag_key
from refman.core.saved_searches import saved_searches
from refman.core.search_filters import tags_named
from refman.core.tag_names import searched_tags
from refman.store.bulk import chunks
from refman.store.models import PaperTag, Tag


def carried_tags(session: Session, paper_ids: Sequence[int]) -> set[int]:
    """The ids of the tags the papers carry (read before they are deleted)."""
    return {
        int(tag_id)
        for part in chunks(sorted(set(paper_ids)))
        for tag_id in session.scalars(
            select(PaperTag.tag_id).where(PaperTag.paper_id.in_(part)).distinct()
        )
    }


def _named_by_searches(session: Session) -> set[int]:
    """The tags the saved searches name: among their tags (by name, any case) or by a
    ``tag:`` term (as it finds them)."""
    keys: set[str] = set()
    ids: set[int] = set()
    for view in saved_searches(session):
        keys.update(tag_key(name) for name in view.tags)
        for name in searched_tags(view.text):
            ids.update(session.scalars(select(Tag.id).where(tags_named(session, name))))
    if keys:
        ids.update(session.scalars(select(Tag.id).where(Tag.key.in_(keys))))
    return ids


def drop_tags_left(session: Session, tag_ids: Collection[int]) -> tuple[str, ...]:
    """Delete those of the tags that no paper carries now, but for the ones kept (a colour,
    a saved search's); the names of those deleted, by name."""
    if not tag_ids:
        return ()
    kept = _named_by_searches(session)
    wanted = sorted(set(tag_ids) - kept)
    unused = ~exists().where(PaperTag.tag_id == Tag.id)
    names: list[str] = []
    for part in chunks(wanted):
        left = (Tag.id.in_(part), Tag.colour.is_(None), unused)
        names.extend(session.scalars(select(Tag.name).where(*left)))
        session.execute(delete(Tag).where(*left))
    return tuple(sorted(names, key=tag_key))


def tags_gone_text(tags: Sequence[str]) -> str:
    """The sentence that names the tags deleted with papers ("" for none), as both fronts
    say it after the papers deleted: “The tag “x”, on no paper now, went with them.”"""
    if not tags:
        return ""
    shown = [f"“{name}”" for name in tags[:5]] + (
        [plural(len(tags) - 5, "other")] if len(tags) > 5 else []
    )
    noun = "tag" if len(tags) == 1 else "tags"
    return f"The {noun} {join_words(shown)}, on no paper now, went with them."
