"""Tag operations: tag and untag papers, rename, merge, recolour and delete tags.

Each intent (:class:`TagPapers`, :class:`RenameTag`, ...) becomes a precise
:class:`TagChange` — which tags to create, which links to add or remove — that
:func:`apply_tag_change` carries out. What it actually did (a link that was there already is
not "added") reversed is the inverse, another :class:`TagChange`; so an undo removes exactly
the links the change added and leaves alone what others changed meanwhile.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from sqlalchemy import Integer, delete, insert, literal, select
from sqlalchemy.orm import Session

from refman.common.errors import InvalidValueError
from refman.common.sequences import as_set, ids_of, unique
from refman.core.context import Context, Handler, require_papers
from refman.core.gone_subjects import forget_merged_tag, name_went, remember_merged_tag
from refman.core.operations import (
    DeleteTag,
    Links,
    Outcome,
    RenameTag,
    SetTagColour,
    TagChange,
    TagPapers,
    UntagPapers,
)
from refman.core.rules import tag_key
from refman.core.saved_searches import naming_tag, set_searches
from refman.core.tag_names import no_tag
from refman.core.values import Changes
from refman.store.bulk import UNSYNCHRONIZED, first_column, id_set
from refman.store.models import PaperTag, Tag

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


class _Tags:
    """The tags of one transaction, looked up by name in any case."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, name: str) -> Tag | None:
        return self.session.execute(
            select(Tag).where(Tag.key == tag_key(name))
        ).scalar_one_or_none()

    def require(self, name: str) -> Tag:
        tag = self.get(name)
        if tag is None:
            raise no_tag(name, went=name_went(self.session, name))
        return tag

    def links(self, tag: Tag, ids: Collection[int] | None = None) -> list[int]:
        """The papers carrying ``tag`` (among ``ids`` when given), in id order."""
        stmt = select(PaperTag.paper_id).where(PaperTag.tag_id == tag.id)
        if ids is not None:
            stmt = stmt.where(PaperTag.paper_id.in_(id_set(ids)))
        return first_column(self.session, stmt.order_by(PaperTag.paper_id))


@dataclass
class _Done:
    """What a tag change actually did, to build its inverse."""

    created: list[tuple[str, str | None, int | None]] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)
    recoloured: list[tuple[str, str | None]] = field(default_factory=list)
    added: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    removed: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    deleted: list[tuple[str, str | None, int | None]] = field(default_factory=list)
    #: Papers whose tags read differently (a renamed tag), besides those gaining or losing one.
    relabelled: set[int] = field(default_factory=set)
    #: The saved searches changed, as they were (id, text, tags).
    searches: list[tuple[int, str, tuple[str, ...]]] = field(default_factory=list)

    def papers(self) -> AbstractSet[int]:
        # In parts when many: one set of a million ids would hold Python's lock (and the
        # window) for up to a tenth of a second while it grows.
        return ids_of(*(ids for _, ids in (*self.added, *self.removed)), self.relabelled)

    def inverse(self) -> TagChange | None:
        did = (self.created, self.renamed, self.recoloured, self.added, self.removed, self.deleted)
        if not any(did) and not self.searches:
            return None
        return TagChange(
            create=tuple(self.deleted),
            rename=tuple((new, old) for old, new in reversed(self.renamed)),
            recolour=tuple(self.recoloured),
            add=tuple(self.removed),
            remove=tuple(self.added),
            drop_unused=tuple(name for name, _, _ in self.created),
            searches=tuple(self.searches),
        )


def _create(tags: _Tags, done: _Done, change: TagChange) -> None:
    for name, colour, tag_id in change.create:
        if tags.get(name) is None:
            free = tag_id is not None and tags.session.get(Tag, tag_id) is None
            tag = Tag(id=tag_id if free else None, name=name, key=tag_key(name), colour=colour)
            tags.session.add(tag)
            tags.session.flush()
            if free:  # (a tag given its id back by an undo of its merge is merged no more)
                forget_merged_tag(tags.session, tag.id)
            done.created.append((name, colour, tag.id))


def _rename(tags: _Tags, done: _Done, change: TagChange) -> None:
    for old, new in change.rename:
        tag = tags.require(old)
        other = tags.get(new)
        if other is not None and other.id != tag.id:
            raise InvalidValueError(f"There is a tag “{new}” already.")
        done.renamed.append((tag.name, new))
        done.relabelled.update(tags.links(tag))
        tag.name, tag.key = new, tag_key(new)
        tags.session.flush()


def _recolour(tags: _Tags, done: _Done, change: TagChange) -> None:
    for name, colour in change.recolour:
        tag = tags.require(name)
        if tag.colour != colour:
            done.recoloured.append((tag.name, tag.colour))
            tag.colour = colour


def _add(tags: _Tags, done: _Done, links: Links) -> None:
    created = {name for name, _, _ in done.created}
    for name, ids in links:
        wanted = unique(ids)  # made distinct once: the checks and statements below reuse it
        require_papers(tags.session, wanted)
        tag = tags.require(name)
        have = set() if tag.name in created else as_set(tags.links(tag, wanted))
        new = unique(i for i in wanted if i not in have) if have else wanted
        if new:
            # One statement from the ids' JSON array, sorted by SQLite: no row of a million
            # links is built in Python (they took 200 MB and five seconds at a million papers).
            values = id_set(new)
            links_of = values.add_columns(literal(tag.id, Integer)).order_by(
                values.selected_columns[0]
            )
            tags.session.execute(insert(PaperTag).from_select(["paper_id", "tag_id"], links_of))
            done.added.append((tag.name, new))


def _remove(tags: _Tags, done: _Done, links: Links) -> None:
    for name, ids in links:
        tag = tags.get(name)
        if tag is None:
            continue
        have = tuple(tags.links(tag, ids))
        if have:
            carried = PaperTag.paper_id.in_(id_set(have))
            tags.session.execute(
                delete(PaperTag).where(PaperTag.tag_id == tag.id, carried),
                execution_options=UNSYNCHRONIZED,  # nothing loaded needs refreshing
            )
            done.removed.append((tag.name, have))


def _delete(tags: _Tags, done: _Done, change: TagChange) -> None:
    for name in (*change.delete, *change.drop_unused):
        tag = tags.get(name)
        if tag is None:
            continue
        carriers = tuple(tags.links(tag))
        if carriers and name not in change.delete:
            continue  # still in use: only an unused tag is dropped
        if carriers:
            done.removed.append((tag.name, carriers))
        done.deleted.append((tag.name, tag.colour, tag.id))
        tags.session.execute(delete(Tag).where(Tag.id == tag.id))


def apply_tag_change(ctx: Context, change: TagChange, label: str = "") -> Outcome[tuple[int, ...]]:
    """Carry out a tag change; its inverse names exactly what it did. Its value: the papers
    that gained or lost a tag (what an undo shows selected).

    Raises:
        NotFoundError: A paper or tag it names does not exist.
        InvalidValueError: A rename would take the name of another tag.
    """
    tags = _Tags(ctx.session)
    done = _Done()
    _create(tags, done, change)
    _rename(tags, done, change)
    _recolour(tags, done, change)
    _add(tags, done, change.add)
    _remove(tags, done, change.remove)
    _delete(tags, done, change)
    done.searches = set_searches(ctx.session, change.searches)
    papers = done.papers()  # tags_fts follows the tags table by itself (triggers)
    inverse = done.inverse()
    changes = Changes()
    if inverse is not None:
        changes = Changes(papers=papers, tags=True, searches=bool(done.searches))
    gained_or_lost = ids_of(*(ids for _, ids in (*done.added, *done.removed)))
    return Outcome(tuple(gained_or_lost), changes, inverse, label)


def tag_papers(ctx: Context, op: TagPapers) -> Outcome[tuple[int, ...]]:
    """Put tags on papers (creating the tags that are new; a paper the library lacks fails
    the whole change, tags made before included). A name typed in another case is the
    library's tag, and named so in the label."""
    tags = _Tags(ctx.session)
    names = tuple(tag.name if (tag := tags.get(name)) else name for name in op.names)
    change = TagChange(
        create=tuple((name, None, None) for name in names),
        add=tuple((name, op.paper_ids) for name in names),
    )
    return apply_tag_change(ctx, change, op.label_naming(names))


def untag_papers(ctx: Context, op: UntagPapers) -> Outcome[tuple[int, ...]]:
    """Take tags off papers."""
    require_papers(ctx.session, op.paper_ids)
    change = TagChange(remove=tuple((name, op.paper_ids) for name in op.names))
    return apply_tag_change(ctx, change, op.label)


def _of_tags(outcome: Outcome[tuple[int, ...]]) -> Outcome[None]:
    """A change to the tags themselves: no papers to show."""
    return Outcome(None, outcome.changes, outcome.inverse, outcome.label)


def rename_tag(ctx: Context, op: RenameTag) -> Outcome[None]:
    """Rename a tag, or merge it into the tag that already has the new name."""
    tags = _Tags(ctx.session)
    tag = tags.require(op.old)
    other = tags.get(op.new)
    if other is None or other.id == tag.id:
        if tag.name == op.new:
            return Outcome(None)
        follow = naming_tag(ctx.session, tag.name, op.new)
        change = TagChange(rename=((tag.name, op.new),), searches=follow)
        return _of_tags(apply_tag_change(ctx, change, f"Rename tag “{tag.name}” to “{op.new}”"))
    carriers = tuple(tags.links(tag))
    follow = naming_tag(ctx.session, tag.name, other.name)
    change = TagChange(add=((other.name, carriers),), delete=(tag.name,), searches=follow)
    merged, into, key = tag.id, other.id, tag.key
    done = apply_tag_change(ctx, change, f"Merge tag “{tag.name}” into “{other.name}”")
    remember_merged_tag(ctx.session, merged, into, key)  # (a window filtered by it follows)
    return _of_tags(done)


def set_tag_colour(ctx: Context, op: SetTagColour) -> Outcome[None]:
    """Give a tag a colour.

    Raises:
        InvalidValueError: The colour is not of the form #rrggbb.
    """
    if op.colour is not None and not _COLOUR.match(op.colour):
        raise InvalidValueError(f"“{op.colour}” is not a colour.", "Use the form #1e88e5.")
    tag = _Tags(ctx.session).require(op.name)
    change = TagChange(recolour=((tag.name, op.colour),))
    return _of_tags(apply_tag_change(ctx, change, f"Set colour of tag “{tag.name}”"))


def delete_tag(ctx: Context, op: DeleteTag) -> Outcome[None]:
    """Delete a tag from every paper."""
    tag = _Tags(ctx.session).require(op.name)
    label = f"Delete tag “{tag.name}”"
    return _of_tags(apply_tag_change(ctx, TagChange(delete=(tag.name,)), label))


HANDLERS: dict[type, Handler] = {
    TagPapers: tag_papers,
    UntagPapers: untag_papers,
    RenameTag: rename_tag,
    SetTagColour: set_tag_colour,
    DeleteTag: delete_tag,
    TagChange: apply_tag_change,
}
