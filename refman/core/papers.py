"""Paper operations: edit fields by hand, trash and restore, the duplicate flag, Empty Trash.

A field edit goes the same way an import goes: the paper's state is read, changed, and
written back by :func:`~refman.core.state_io.write_states`, which derives the sort keys, the
author line and the match keys — one write path for every change to a paper.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime
from functools import partial
from itertools import chain

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from refman.common.errors import (
    ConflictError,
    EditConflictError,
    InvalidValueError,
    RefmanError,
)
from refman.common.sequences import ids_of
from refman.common.text import join_words, plural
from refman.core.attachments import stored_files_of
from refman.core.citekey_aliases import AliasRows, back_to_own_keys, give_back, key_taken_back
from refman.core.citekeys import folded, key_holders, release_withdrawn
from refman.core.context import Context, Handler, no_paper, require_papers
from refman.core.merged_children import ChildMove, take_back
from refman.core.merged_children import give_back as give_children_back
from refman.core.operations import (
    EditPaper,
    EmptyTrash,
    FieldValues,
    Outcome,
    RestorePapers,
    SetDuplicateFlag,
    SetPaperFields,
    SetTrashed,
    TrashPapers,
)
from refman.core.paper_state import PaperState
from refman.core.registry import Registry
from refman.core.state_io import delete_papers, load_states, write_states
from refman.core.tags_left import carried_tags, drop_tags_left
from refman.core.values import Changes, Emptied
from refman.store.bulk import UNSYNCHRONIZED, datetime_reader, id_set, row_stream
from refman.store.connection import lock_imports
from refman.store.models import Paper
from refman.store.models_upkeep import is_live, trashed_ids


def _state(session: Session, paper_id: int) -> PaperState:
    state = load_states(session, [paper_id]).get(paper_id)
    if state is None:
        raise no_paper(paper_id)
    return state


def _write(ctx: Context, state: PaperState) -> Changes:
    # Fields only: the paper's people, subjects and tags stay as they are.
    write_states(ctx.session, Registry(ctx.session), [], [state], ctx.now, ctx.search, links=False)
    return Changes(papers=frozenset([state.id]))


def _require_free_citekey(
    session: Session, paper_id: int, values: Mapping[str, object], error: type[RefmanError]
) -> None:
    """A citation key must be the key (or other key) of one paper only; a paper an undone
    import withdrew gives it up.

    Raises:
        RefmanError: Of type ``error``: another paper has the key.
    """
    key = values.get("citekey")
    if not isinstance(key, str):
        return
    lock_imports(session)  # (an import giving the key to another paper as it runs goes first)
    holder = key_holders(session, [key], mine={paper_id}).get(folded(key))
    if holder is None:
        release_withdrawn(session, [key])
        return
    other = session.execute(select(Paper.title, Paper.citekey).where(Paper.id == holder)).one()
    if other.citekey == key:
        said = f"“{key}” is already the citation key of paper #{holder} “{other.title}”."
    elif other.citekey and folded(other.citekey) == folded(key):
        said = (
            f"“{key}” differs only in case from “{other.citekey}”, the citation key of paper "
            f"#{holder} “{other.title}”: BibTeX takes them for one key."
        )
    else:
        said = f"“{key}” also cites paper #{holder} “{other.title}”: a key it had before."
    raise error(said, "Choose another key.")


def _values(state: PaperState, names: tuple[str, ...]) -> FieldValues:
    return tuple((name, getattr(state, name)) for name in names)


def _require_unchanged_since(
    state: PaperState, op: EditPaper, wanted: dict[str, str | int | None]
) -> None:
    """Refuse an edit of a field someone else changed after the person saw it (with both
    values: the person chooses)."""
    seen = dict(op.based_on)
    clashes = tuple(
        (name, seen[name], value, getattr(state, name))
        for name, value in wanted.items()
        if name in seen and getattr(state, name) not in (seen[name], value)
    )
    if clashes:
        names = join_words([name.replace("_", " ") for name, *_ in clashes])
        raise EditConflictError(
            f"The {names} of paper #{state.id} changed since you began editing.",
            "Choose, field by field, which value to keep.",
            clashes,
        )


def edit_paper(ctx: Context, op: EditPaper) -> Outcome[None]:
    """Edit fields by hand.

    A field given is the user's from then on, even when its value stays (clearing a year the
    paper never had says "no year": an import must not fill it in). An edit that changes
    neither a value nor whose a field is changes nothing, and leaves nothing to undo.
    """
    state = _state(ctx.session, op.paper_id)
    wanted = {
        name: value
        for name, value in op.edits.items()
        if value != getattr(state, name)
        or name not in state.user_edited
        or (name == "title" and state.title_provisional)
    }
    if not wanted:
        return Outcome(None)
    _require_unchanged_since(state, op, wanted)
    _require_free_citekey(ctx.session, state.id, wanted, InvalidValueError)
    inverse = SetPaperFields(
        paper_id=state.id,
        values=_values(state, tuple(wanted)),
        title_provisional=state.title_provisional,
        user_edited=frozenset(state.user_edited),
        modified=state.modified_at,
        expect=tuple(wanted.items()),
    )
    key_taken_back(state, wanted.get("citekey"))
    for name, value in wanted.items():
        setattr(state, name, value)
    if "title" in wanted:
        state.title_provisional = False
    state.user_edited |= set(wanted)
    state.modified_at = ctx.now
    return Outcome(None, _write(ctx, state), inverse, op.label)


def set_paper_fields(ctx: Context, op: SetPaperFields) -> Outcome[None]:
    """Put fields back exactly, unless the paper was changed elsewhere.

    Raises:
        NotFoundError: The paper is no longer in the library.
        ConflictError: A field no longer has the value the operation expects.
    """
    state = _state(ctx.session, op.paper_id)
    for name, value in op.expect:
        if getattr(state, name) != value:
            raise ConflictError(
                f"The {name} of paper #{state.id} was changed elsewhere since.",
                "It was left as it is now.",
            )
    _require_free_citekey(ctx.session, state.id, dict(op.values), ConflictError)
    names = tuple(name for name, _ in op.values)
    inverse = SetPaperFields(
        paper_id=state.id,
        values=_values(state, names),
        title_provisional=state.title_provisional,
        user_edited=frozenset(state.user_edited),
        modified=state.modified_at,
        expect=op.values,
    )
    key_taken_back(state, dict(op.values).get("citekey"))
    for name, value in op.values:
        setattr(state, name, value)
    state.title_provisional = op.title_provisional
    state.user_edited = set(op.user_edited)
    state.modified_at = op.modified or ctx.now
    return Outcome(None, _write(ctx, state), inverse)


#: Papers grouped by a trash time (None: not in the Trash), as :class:`SetTrashed` holds them.
TimeGroups = dict[datetime | None, list[int]]
#: Papers moved from one trash time to another: (time before, time after, the papers).
Move = tuple[datetime | None, datetime | None, Sequence[int]]


def _trash_groups(session: Session, ids: Collection[int]) -> TimeGroups:
    """These papers grouped by when they went to the Trash (None: not there); a paper the
    library does not hold is in no group. One statement however many papers, read a row at a
    time: no row, dict entry or pair per paper is kept, only the ids (a hundred thousand
    papers took 30 MB of transient pairs and dicts)."""
    statement = select(Paper.trashed_at, Paper.id).where(
        Paper.id.in_(id_set(ids)), is_live(Paper.id)
    )
    by_text: dict[object, list[int]] = {}
    for text, paper_id in row_stream(session, statement):
        group = by_text.get(text)
        if group is None:
            group = by_text[text] = []
        group.append(paper_id)
    read = datetime_reader(session)
    groups: TimeGroups = {}
    for text, group in by_text.items():
        groups.setdefault(read(text) if text is not None else None, []).extend(group)
    return groups


def _require(groups: TimeGroups, ids: Collection[int]) -> None:
    """Raise for the first of ``ids`` the library does not hold."""
    if sum(map(len, groups.values())) >= len(ids):
        return  # every paper was found
    held = set(chain.from_iterable(groups.values()))
    for paper_id in ids:
        if paper_id not in held:
            raise no_paper(paper_id)


def _keys_and_children_moved(
    session: Session, done: list[Move], aliases: AliasRows, children: Sequence[ChildMove]
) -> tuple[AliasRows, tuple[ChildMove, ...]]:
    """Papers out of the Trash have their keys to themselves again, and the notes and files
    their merges moved back (returned: the other keys and the notes and files that took);
    ``aliases`` and ``children`` are given back as papers go back in."""
    out = [pid for _, new, ids in done if new is None for pid in ids]
    taken, back = back_to_own_keys(session, out), take_back(session, out)
    if aliases or children:
        going = [pid for old, _, ids in done if old is None for pid in ids]
        if aliases:
            give_back(session, aliases, going)
        give_children_back(session, children, set(going))
    return taken, back


def _move(
    ctx: Context,
    moves: Iterable[Move],
    label: str = "",
    aliases: AliasRows = (),
    children: Sequence[ChildMove] = (),
) -> Outcome[tuple[int, ...]]:
    """Move papers between trash times; the inverse moves them back, expecting them where
    they were put (keys, notes and files too: :func:`_keys_and_children_moved`)."""
    done = [(old, new, ids) for old, new, ids in moves if old != new and ids]
    if not done:
        return Outcome(())
    taken, back = _keys_and_children_moved(ctx.session, done, aliases, children)
    after = _grouped((new, ids) for _, new, ids in done)
    for when, ids in after:
        # Nothing in the session needs refreshing, and synchronizing would fetch every row.
        ctx.session.execute(
            update(Paper)
            .where(Paper.id.in_(id_set(ids)))
            .values(trashed_at=when, version=Paper.version + 1),
            execution_options=UNSYNCHRONIZED,
        )
    inverse = SetTrashed(
        times=_grouped((old, ids) for old, _, ids in done),
        expect=after,
        aliases=taken,
        children=back,
    )
    changed = tuple(chain.from_iterable(ids for _, _, ids in done))
    # (the papers that gave notes or files back, or took them, changed too)
    others = {m[2] for m in (*back, *children)}
    changes = Changes(papers=ids_of(changed, others), structure=True, tags=True, notes=bool(others))
    return Outcome(changed, changes, inverse, label)


def _grouped(
    parts: Iterable[tuple[datetime | None, Sequence[int]]],
) -> tuple[tuple[datetime | None, tuple[int, ...]], ...]:
    """Papers' trash times as each time and its papers, one entry per time."""
    grouped: TimeGroups = {}
    for when, ids in parts:
        grouped.setdefault(when, []).extend(ids)
    return tuple((when, tuple(ids)) for when, ids in grouped.items())


def trash_papers(ctx: Context, op: TrashPapers) -> Outcome[tuple[int, ...]]:
    """Move papers to the Trash (papers already there keep their time)."""
    groups = _trash_groups(ctx.session, op.paper_ids)
    _require(groups, op.paper_ids)
    return _move(ctx, [(None, ctx.now, groups.get(None, ()))], op.label)


def restore_papers(ctx: Context, op: RestorePapers) -> Outcome[tuple[int, ...]]:
    """Bring papers back from the Trash."""
    groups = _trash_groups(ctx.session, op.paper_ids)
    _require(groups, op.paper_ids)
    return _move(ctx, [(when, None, ids) for when, ids in groups.items()], op.label)


def set_trashed(ctx: Context, op: SetTrashed) -> Outcome[tuple[int, ...]]:
    """Put trash times back, unless a paper was trashed or restored elsewhere since.

    Raises:
        NotFoundError: A paper is no longer in the library.
        ConflictError: A paper's trash time is not the expected one.
    """
    wanted = [pid for _, ids in op.times for pid in ids]
    groups = _trash_groups(ctx.session, wanted)
    _require(groups, wanted)
    now = {pid: when for when, ids in groups.items() for pid in ids}
    for when, ids in op.expect:
        for pid in ids:
            if now[pid] != when:
                where = "restored" if when is not None else "moved to the Trash"
                raise ConflictError(
                    f"Paper #{pid} was {where} elsewhere since.", "It was left as it is now."
                )
    moves: dict[tuple[datetime | None, datetime | None], list[int]] = {}
    for when, ids in op.times:
        for pid in ids:
            moves.setdefault((now[pid], when), []).append(pid)
    return _move(
        ctx,
        [(old, new, ids) for (old, new), ids in moves.items()],
        aliases=op.aliases,
        children=op.children,
    )


def set_duplicate_flag(ctx: Context, op: SetDuplicateFlag) -> Outcome[None]:
    """Set or clear the paper a paper may duplicate."""
    require_papers(ctx.session, [op.paper_id])
    before = ctx.session.scalar(select(Paper.possible_duplicate_of).where(Paper.id == op.paper_id))
    if before == op.other:
        return Outcome(None)
    ctx.session.execute(
        update(Paper)
        .where(Paper.id == op.paper_id)
        .values(possible_duplicate_of=op.other, version=Paper.version + 1)
    )
    changes = Changes(papers=frozenset([op.paper_id]), structure=True)
    return Outcome(None, changes, SetDuplicateFlag(op.paper_id, before), op.label)


def empty_trash(ctx: Context, op: EmptyTrash) -> Outcome[Emptied]:
    """Delete the papers in the Trash (those named: *Delete Permanently*) for good, with the
    tags no paper carries any more (:mod:`~refman.core.tags_left`), and (once that is
    committed) their stored files and the files removed from papers since the last time. It
    cannot be undone: the history goes.

    Raises:
        NotFoundError: A paper named is not in the library.
        InvalidValueError: A paper named is not in the Trash (nothing is deleted).
    """
    if op.paper_ids:
        ids = list(_trashed_among(ctx.session, op.paper_ids))
    else:
        ids = list(ctx.session.execute(trashed_ids()).scalars())
    stored = stored_files_of(ctx.session, ids)
    ctx.files.writable(stored, "deleted")  # refused while nothing changed, not left behind
    carried = carried_tags(ctx.session, ids)
    delete_papers(ctx.session, ctx.search, ids)
    tags = drop_tags_left(ctx.session, carried)
    ctx.after_commit.extend(partial(ctx.files.delete, path) for path in stored)
    ctx.after_commit.append(ctx.files.delete_set_aside)
    changes = Changes(structure=True, tags=True) if ids else Changes()
    label = f"Delete {plural(len(ids), 'paper')} permanently" if op.paper_ids else "Empty Trash"
    return Outcome(Emptied(tuple(ids), tags), changes, None, label, irreversible=bool(ids))


def _trashed_among(session: Session, paper_ids: tuple[int, ...]) -> tuple[int, ...]:
    """The papers named, every one of them in the Trash."""
    groups = _trash_groups(session, paper_ids)
    _require(groups, paper_ids)
    if out := sorted(groups.get(None, ())):
        shown = join_words([f"#{i}" for i in out[:5]] + (["others"] if len(out) > 5 else []))
        raise InvalidValueError(
            f"{shown} {'is' if len(out) == 1 else 'are'} not in the Trash: only papers in the "
            "Trash are deleted for good.",
            "Move them to the Trash first.",
        )
    return paper_ids


HANDLERS: dict[type, Handler] = {
    EditPaper: edit_paper,
    SetPaperFields: set_paper_fields,
    TrashPapers: trash_papers,
    RestorePapers: restore_papers,
    SetTrashed: set_trashed,
    SetDuplicateFlag: set_duplicate_flag,
    EmptyTrash: empty_trash,
}
