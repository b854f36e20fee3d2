"""Saved searches (smart collections): a search line and a tag filter kept under a name,
listed in the sidebar with their live counts; saving, editing, renaming and deleting one
are undoable changes of the library (and travel with it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from refman.common.errors import ConflictError, InvalidValueError, NotFoundError
from refman.common.identifiers import row_id
from refman.common.text import squash_spaces
from refman.core import queries
from refman.core.context import Context, Handler
from refman.core.operations import Operation, Outcome
from refman.core.reading import load_tag_names
from refman.core.rules import clean_tag_names, tag_key, typed_text
from refman.core.search_syntax import SearchFilter, with_tag_renamed
from refman.core.tag_names import require_tags, unknown_searched
from refman.core.values import Changes, PaperQuery, SavedSearchView
from refman.store.id_marks import new_ids
from refman.store.models import SavedSearch
from refman.store.search import SearchIndex
from refman.store.search_terms import without_open_quote

#: The longest name a saved search may have.
NAME_MAX = 200


def _clean_name(name: str) -> str:
    cleaned = squash_spaces(typed_text(name))
    if not cleaned:
        raise InvalidValueError("A saved search needs a name.", "Type a name for it.")
    if len(cleaned) > NAME_MAX:
        raise InvalidValueError(
            f"That name is longer than {NAME_MAX} characters.", "Choose a shorter name."
        )
    return cleaned


@dataclass(frozen=True, slots=True)
class SaveSearch(Operation[SavedSearchView]):
    """Keep a search under a name; with ``replace_id``, change that saved search instead
    (its name, its search, or both). The value is the search as saved."""

    name: str
    text: str = ""
    tags: tuple[str, ...] = ()
    any_tags: bool = False
    replace_id: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", _clean_name(self.name))
        object.__setattr__(self, "text", self.text.strip())
        object.__setattr__(self, "tags", tuple(clean_tag_names(self.tags)))

    @property
    def label(self) -> str:
        """ "Save search “to read this week”" or "Change saved search “…”"."""
        verb = "Change saved search" if self.replace_id is not None else "Save search"
        return f"{verb} “{self.name}”"


@dataclass(frozen=True, slots=True)
class DeleteSavedSearch(Operation[None]):
    """Delete a saved search (the papers it finds are not touched)."""

    search_id: int

    @property
    def label(self) -> str:
        """ "Delete saved search"."""
        return "Delete saved search"


@dataclass(frozen=True, slots=True)
class RestoreSavedSearch(Operation[None]):
    """Put back a deleted or changed saved search exactly (an undo)."""

    view: SavedSearchView
    label_text: str = ""

    @property
    def label(self) -> str:
        """The label of the change it takes back."""
        return self.label_text


def _view(row: SavedSearch, count: int = -1) -> SavedSearchView:
    return SavedSearchView(
        row.id, row.name, row.text, tuple(json.loads(row.tags or "[]")), row.any_tags, count
    )


def _with_gone(session: Session, views: list[SavedSearchView]) -> list[SavedSearchView]:
    """The views, each with the tags it names that the library no longer holds: among its
    tags, and in the ``tag:`` terms of its words."""
    if not any(v.tags or "tag:" in v.text.lower() for v in views):
        return views
    held = {tag_key(name) for name in load_tag_names(session)}
    return [
        replace(
            v,
            gone=tuple(
                dict.fromkeys(
                    [t for t in v.tags if tag_key(t) not in held]
                    + unknown_searched(session, v.text)
                )
            ),
        )
        for v in views
    ]


def gone_text(gone: tuple[str, ...]) -> str:
    """Why a saved search naming deleted tags finds no paper by them: "its tag “x” is no
    longer in the library"."""
    names = ", ".join(f"“{name}”" for name in gone)
    if len(gone) == 1:
        return f"its tag {names} is no longer in the library"
    return f"its tags {names} are no longer in the library"


def within_saved(saved: SavedSearchView, query: PaperQuery | None = None) -> PaperQuery:
    """The query of what a saved search finds, narrowed by ``query`` (what is typed, the
    tags picked): its words and the search field's or command line's, its tags as the tag
    pane names them, as its count counts them (the tag "Ökonomie", not "Okonomie" too, as
    ``tag:ökonomie`` would). Where either side takes any of its tags, the saved search's
    are a filter of their own, so that both sides hold."""
    query = query or PaperQuery()
    text = f"{without_open_quote(saved.text)} {query.text}".strip()
    if not saved.tags:
        return replace(query, text=text)
    if not query.tags:
        return replace(query, text=text, tags=saved.tags, any_tags=saved.any_tags)
    if not (saved.any_tags or query.any_tags):
        return replace(query, text=text, tags=tuple(dict.fromkeys((*saved.tags, *query.tags))))
    each = tuple(SearchFilter("tagged", t) for t in saved.tags)
    either = (SearchFilter("any", options=each),) if saved.any_tags else each
    return replace(query, text=text, filters=(*query.filters, *either))


def saved_searches(session: Session, search: SearchIndex | None = None) -> list[SavedSearchView]:
    """Every saved search by name (each with the tags it names that are gone), with its count
    when ``search`` is given."""
    rows = session.execute(select(SavedSearch).order_by(SavedSearch.key)).scalars().all()
    views = _with_gone(session, [_view(row) for row in rows])
    if search is None:
        return views
    return [replace(v, count=queries.count(session, within_saved(v), search)) for v in views]


def find_saved(session: Session, name_or_id: str, *, by_id: bool = True) -> SavedSearchView:
    """A saved search by its name (any case) or, when no search has that name and
    ``by_id``, its id (saving a search named "2" must not change search #2).

    Raises:
        NotFoundError: There is none.
    """
    key = squash_spaces(name_or_id).casefold()
    stmt = select(SavedSearch).where(SavedSearch.key == key)
    row = session.execute(stmt).scalar_one_or_none()
    if row is None and by_id and (number := row_id(name_or_id)) is not None:
        row = session.get(SavedSearch, number)
    if row is None:
        raise NotFoundError(
            f"There is no saved search “{name_or_id}”.", "Use “refman searches” to see them."
        )
    return _with_gone(session, [_view(row)])[0]


#: A saved search's id, text and tags (what a renamed tag changes of it).
Setting = tuple[int, str, tuple[str, ...]]


def naming_tag(session: Session, old: str, new: str) -> tuple[Setting, ...]:
    """The saved searches that name the tag ``old`` (among their tags or in a ``tag:`` term
    of their search), each as it reads with ``new`` in its place."""
    found: list[Setting] = []
    for view in map(_view, session.execute(select(SavedSearch)).scalars()):
        named = [new if tag_key(t) == tag_key(old) else t for t in view.tags]
        tags = tuple(dict.fromkeys(named))  # (a tag merged into one the search names too)
        text = with_tag_renamed(view.text, old, new)
        if (text, tags) != (view.text, view.tags):
            found.append((view.id, text, tags))
    return tuple(found)


def set_searches(session: Session, settings: tuple[Setting, ...]) -> list[Setting]:
    """Give saved searches these texts and tags; what they were before (those still there)."""
    before: list[Setting] = []
    for search_id, text, tags in settings:
        row = session.get(SavedSearch, search_id)
        if row is None:
            continue
        old = _view(row)
        before.append((old.id, old.text, old.tags))
        _write(session, replace(old, text=text, tags=tags), new=False)
    return before


def _write(session: Session, view: SavedSearchView, *, new: bool) -> None:
    values = {
        "name": view.name,
        "key": view.name.casefold(),
        "text": view.text,
        "tags": json.dumps(list(view.tags), ensure_ascii=False),
        "any_tags": view.any_tags,
    }
    clash = session.execute(
        select(SavedSearch.id).where(SavedSearch.key == values["key"], SavedSearch.id != view.id)
    ).first()
    if clash is not None:
        raise ConflictError(
            f"There is already a saved search named “{view.name}”.", "Choose another name."
        )
    if new:
        session.execute(insert(SavedSearch), [{"id": view.id, **values}])
    else:
        session.execute(
            update(SavedSearch)
            .where(SavedSearch.id == view.id)
            .values(**values, version=SavedSearch.version + 1)
        )


def _require_tags(session: Session, names: list[str] | tuple[str, ...], text: str = "") -> None:
    """Refuse a tag typed that the library does not hold (it would find nothing, ever), among
    the tags or as a ``tag:`` term of the search line ``text``: a value refused, not
    something shown that is gone."""
    try:
        require_tags(session, names, text)
    except NotFoundError as missing:
        raise InvalidValueError(missing.message, missing.hint, missing.window_hint) from None


def save_search(ctx: Context, op: SaveSearch) -> Outcome[SavedSearchView]:
    """Save or change a saved search; the inverse deletes it or puts the old one back.

    Raises:
        InvalidValueError: It names a tag the library does not hold (one it named before,
            since deleted, may stay).
        NotFoundError: The search to change was deleted.
    """
    s = ctx.session
    if op.replace_id is not None:
        old = s.get(SavedSearch, op.replace_id)
        if old is None:
            raise NotFoundError("That saved search was deleted.", "Save the search again.")
        before = _view(old)
        # (a tag it names that was deleted since may stay: it can still be renamed, changed)
        _require_tags(
            s,
            [t for t in op.tags if tag_key(t) not in map(tag_key, before.tags)],
            op.text if op.text != before.text else "",  # (its tag: terms: when typed anew)
        )
        view = SavedSearchView(before.id, op.name, op.text, op.tags, op.any_tags)
        _write(s, view, new=False)
        inverse: Operation[None] = RestoreSavedSearch(before, op.label)
    else:
        _require_tags(s, op.tags, op.text)
        (new_id,) = new_ids(s, "saved_searches", 1)
        view = SavedSearchView(new_id, op.name, op.text, op.tags, op.any_tags)
        _write(s, view, new=True)
        inverse = DeleteSavedSearch(view.id)
    return Outcome(view, Changes(searches=True), inverse, op.label)


def delete_saved_search(ctx: Context, op: DeleteSavedSearch) -> Outcome[None]:
    """Delete a saved search; the inverse puts it back."""
    row = ctx.session.get(SavedSearch, op.search_id)
    if row is None:
        raise NotFoundError("That saved search was deleted already.", "Nothing was changed.")
    before = _view(row)
    ctx.session.execute(delete(SavedSearch).where(SavedSearch.id == op.search_id))
    label = f"Delete saved search “{before.name}”"
    return Outcome(None, Changes(searches=True), RestoreSavedSearch(before, label), label)


def restore_saved_search(ctx: Context, op: RestoreSavedSearch) -> Outcome[None]:
    """Put a saved search back as it was (created again when it was deleted)."""
    row = ctx.session.get(SavedSearch, op.view.id)
    now = _view(row) if row is not None else None
    _write(ctx.session, op.view, new=now is None)
    if now is None:
        inverse: Operation[None] = DeleteSavedSearch(op.view.id)
    else:
        inverse = RestoreSavedSearch(now, op.label)
    return Outcome(None, Changes(searches=True), inverse, op.label)


HANDLERS: dict[type, Handler] = {
    SaveSearch: save_search,
    DeleteSavedSearch: delete_saved_search,
    RestoreSavedSearch: restore_saved_search,
}
