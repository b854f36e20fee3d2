"""A paper's other citation keys (``citekey_aliases``): the keys of the entries an import
found to be the same paper (Zotero's ``brown_language_2020`` and ``brown_language_2020-1``,
a preprint and its published version), and those a bibliography lists in ``ids``. A
``\\cite`` written with one of them still finds the paper: BibLaTeX exports write them in
``ids`` (biber resolves them), and ``key:`` finds the paper by them.

A key is free or taken as BibTeX sees keys (:func:`~refman.core.citekeys.folded`): an alias
is never another paper's key or alias (that key cites the other paper), nor its own paper's
key. The aliases are part of a paper's state (:attr:`PaperState.aliases`), so an undo puts
them back with the rest.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from refman.core.citekeys import folded, key_holders, release_withdrawn
from refman.core.merged_keys import where_merged
from refman.core.paper_state import PaperState
from refman.importers.records import ParsedRecord
from refman.store.bulk import chunks
from refman.store.models import Paper
from refman.store.models_upkeep import CitekeyAlias


def read_aliases(session: Session, states: Mapping[int, PaperState]) -> None:
    """Fill in the aliases of these papers' states."""
    for paper_id, keys in aliases_of(session, list(states)).items():
        states[paper_id].aliases.extend(keys)


def key_taken_back(state: PaperState, key: object) -> None:
    """A paper's key changes to ``key``: when that is one of its other keys, its key until now
    takes that place (both still cite it, and an undo changes them back exactly)."""
    if not isinstance(key, str) or not state.citekey:
        return
    mine = [a for a in state.aliases if folded(a) != folded(key)]
    if len(mine) < len(state.aliases):
        state.aliases = [*mine, state.citekey]


def keys_free_for(record: ParsedRecord, paper_id: int, held: Mapping[str, int]) -> ParsedRecord:
    """The record without the keys another paper than ``paper_id`` holds, as it merges into
    that paper (they cite the other paper: the record brings nothing by them)."""
    if not record.citekey and not record.aliases:
        return record
    free = [k for k in record.cite_keys() if held.get(folded(k), paper_id) == paper_id]
    return replace(record, citekey=free[0] if free else None, aliases=tuple(free[1:]))


#: Other keys as a change gives them back: (folded key, key as written, paper id).
AliasRows = tuple[tuple[str, str, int], ...]


def back_to_own_keys(session: Session, paper_ids: Sequence[int]) -> AliasRows:
    """Papers back from the Trash (one merged into another is a paper of its own again): their
    keys are theirs again, no more other keys of the paper they went into (nor of another
    paper back with them). Returns the other keys taken (for an undo: :func:`give_back`)."""
    if not paper_ids or session.scalar(select(CitekeyAlias.folded).limit(1)) is None:
        return ()
    owner: dict[str, int] = {}
    for ids in chunks(sorted(set(paper_ids))):
        keyed = select(Paper.id, Paper.citekey).where(Paper.id.in_(ids), Paper.citekey.is_not(None))
        owner.update((folded(str(key)), int(pid)) for pid, key in session.execute(keyed))
    taken: list[tuple[str, str, int]] = []
    for keys in chunks(sorted(owner)):
        rows = session.execute(
            select(CitekeyAlias.folded, CitekeyAlias.key, CitekeyAlias.paper_id).where(
                CitekeyAlias.folded.in_(keys)
            )
        )
        taken.extend((str(f), str(k), int(p)) for f, k, p in rows if owner[str(f)] != p)
    for gone in chunks([f for f, _, _ in taken]):
        session.execute(delete(CitekeyAlias).where(CitekeyAlias.folded.in_(gone)))
    return tuple(taken)


def keys_back(session: Session, paper_id: int, keys: Sequence[str]) -> None:
    """A paper's other keys, its own again (a merge taken back), but those taken since."""
    give_back(session, tuple((folded(k), k, paper_id) for k in keys), [paper_id])


def give_back(session: Session, rows: AliasRows, trashed: Collection[int]) -> None:
    """Other keys :func:`back_to_own_keys` took, theirs again as the papers whose keys they
    are go back to the Trash (``trashed``); a key another paper took since stays its."""
    held = key_holders(session, [k for _, k, _ in rows], mine=trashed)
    free = [{"folded": f, "key": k, "paper_id": p} for f, k, p in rows if f not in held]
    if free:
        session.execute(insert(CitekeyAlias), free)


def citing_holders(session: Session, keys: Iterable[str]) -> dict[str, int]:
    """The paper each of these keys cites (folded): the paper that holds it, or the paper a
    holder in the Trash was merged into (its keys cite that one)."""
    held = key_holders(session, keys)
    went = where_merged(session, list(held.values()))
    return {key: went.get(pid, pid) for key, pid in held.items()}


def key_clashes(record: ParsedRecord, paper_id: int, held: Mapping[str, int]) -> list[str]:
    """What an import says of a record's keys that another paper than ``paper_id`` (the one
    the record became or joined) holds already: its paper does not take them."""
    return [
        f"Line {record.line}: “{key}” cites paper #{holder} already (its key or other key); the "
        "entry's paper was not given it."
        for key in record.cite_keys()
        if (holder := held.get(folded(key), paper_id)) != paper_id
    ]


def aliases_of(session: Session, paper_ids: Sequence[int]) -> dict[int, list[str]]:
    """The aliases of these papers, by paper (those that have any)."""
    found: dict[int, list[str]] = {}
    for part in chunks(sorted(set(paper_ids))):
        rows = session.execute(
            select(CitekeyAlias.paper_id, CitekeyAlias.key)
            .where(CitekeyAlias.paper_id.in_(part))
            .order_by(CitekeyAlias.paper_id, CitekeyAlias.folded)
        )
        for paper_id, key in rows:
            found.setdefault(paper_id, []).append(key)
    return found


def write_aliases(session: Session, states: Sequence[PaperState], written: Iterable[int]) -> None:
    """Store the aliases of papers just written (``written``: those whose stored aliases go
    first). An alias another paper holds as its key or alias is left out, and so is one that
    is its paper's own key; the states keep the aliases stored."""
    for part in chunks(sorted(set(written))):
        session.execute(delete(CitekeyAlias).where(CitekeyAlias.paper_id.in_(part)))
    if not any(s.aliases for s in states):
        return
    wanted = _wanted(states)
    holders = key_holders(session, wanted, mine={s.id for s in states})
    went = where_merged(session, list(holders.values()))
    kept: dict[int, list[str]] = {}
    for key, (alias, state) in wanted.items():
        # A key another paper holds is that paper's, unless that paper was merged into this
        # one (it waits in the Trash: the key cites the paper kept, also once it is gone).
        if key not in holders or went.get(holders[key]) == state.id:
            kept.setdefault(state.id, []).append(alias)
    for state in states:
        state.aliases = kept.get(state.id, [])
    rows = [
        {"folded": folded(alias), "key": alias, "paper_id": pid}
        for pid, aliases in kept.items()
        for alias in aliases
    ]
    if rows:
        _insert(session, rows, holders)


def _insert(session: Session, rows: list[dict[str, object]], holders: Mapping[str, int]) -> None:
    """Store other keys; those of a paper merged into their paper are theirs from now on."""
    release_withdrawn(session, (str(r["key"]) for r in rows))
    taken = sorted({str(r["folded"]) for r in rows if r["folded"] in holders})
    session.execute(delete(CitekeyAlias).where(CitekeyAlias.folded.in_(taken)))
    session.execute(insert(CitekeyAlias), rows)


def _wanted(states: Sequence[PaperState]) -> dict[str, tuple[str, PaperState]]:
    """The aliases of these states by folded key (the first paper's), but for the keys of
    papers among them (its own key, or another paper's of this change)."""
    own = {folded(s.citekey) for s in states if s.citekey}
    wanted: dict[str, tuple[str, PaperState]] = {}
    for state in states:
        for alias in state.aliases:
            if folded(alias) not in own:
                wanted.setdefault(folded(alias), (alias, state))
    return wanted
