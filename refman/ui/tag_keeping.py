"""The navigation pane's filter kept when its lists are read again: the tags picked stay
picked (by name, and by id when renamed elsewhere), a tag or person merged elsewhere into
another is followed there, and one the library no longer holds is said (the list would show
every paper again, read as if it were still filtered)."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from PySide6.QtCore import QSignalBlocker

from refman.core.gone_subjects import GoneSubjects
from refman.core.rules import tag_key
from refman.core.values import Navigation, TagView

from refman.ui.sidebar import TagList


def picked_ids(nav: Navigation | None, picked: Iterable[str]) -> dict[int, str]:
    """The ids and names of the tags picked (a tag renamed elsewhere keeps its id)."""
    keys = {tag_key(name) for name in picked}
    return {t.id: t.name for t in nav.tags if tag_key(t.name) in keys} if nav is not None else {}


def fill_tags(
    tag_list: TagList, tags: list[TagView], keep: Collection[str], held: Collection[int]
) -> None:
    """List the tags, picking those of a name in ``keep`` (tag keys) or an id in ``held``."""
    with QSignalBlocker(tag_list):
        tag_list.clear()
        for tag in tags:
            item = tag_list.add_row("tag", tag.name, tag.name, tag.count, tag.colour)
            if tag_key(tag.name) in keep or tag.id in held:
                item.setSelected(True)
    tag_list.viewport().update()


def followed_tags(gone: GoneSubjects) -> set[str]:
    """The keys of the tags the filter's merged tags went into (picked in their place)."""
    return {tag_key(went) for _tag, went in gone.tags if went is not None}


def gone_text(gone: GoneSubjects, tags: dict[int, str], person: str | None) -> str:
    """What the window says of the filter's tags and person gone (merged or deleted, here or
    elsewhere): where they went (the list shows that), or that they are gone (the list no
    longer filters by them); "" when nothing is gone. ``tags``: the names of the tags
    picked, by id; ``person``: the name of the person shown."""
    said = []
    for tag_id, went in gone.tags:
        name = tags.get(tag_id, "")
        if went is not None:
            shows = f"the list shows the papers tagged “{went}”"
            said.append(f"The tag “{name}” was merged into “{went}”: {shows}.")
        else:
            said.append(f"The tag “{name}” was deleted: the list is no longer filtered by it.")
    who = person or "The person shown"
    if gone.person_went is not None:
        kept = gone.person_went[1]
        said.append(f"{who} was merged into {kept}: the list shows {kept}’s papers.")
    elif gone.person_gone:
        said.append(f"{who} is no longer in the library: the list is no longer filtered by them.")
    return " ".join(said)
