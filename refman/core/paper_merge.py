"""Merging two papers that are one: a possible duplicate an import kept apart, or two papers
the person picks.

The paper kept is the one the person names first (the window keeps the one the library had first).
The other paper's fields fill in what the kept one lacks, by the rules an import merges by
(:func:`refman.core.merge.merge_into`: a real title over a suggested one, the more complete author
list, a missing year, venue, abstract, DOI, ...; a field edited by hand is never overwritten; a
citation key chosen by hand for the other paper, and not for the kept one, is the kept paper's from
then on); its owners, subjects and tags join the kept paper's; its notes and files move over (but a
file the kept paper holds already), and come back with it when it is restored from the Trash
(:mod:`refman.core.merged_children`); the further along of the two reading statuses and a rating
where the kept paper has none stay. The other paper then goes to the Trash, as Zotero does, marked
as possibly the same paper as the kept one (and so are the papers marked so for it). Its exact keys
and authors stay with the kept paper (:mod:`refman.core.merged_keys`): an import listing it again
finds the kept paper. Papers with different DOIs or arXiv ids are different papers: they are not
merged. Undo puts both papers back exactly, unless the kept paper was changed since.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from refman.common.errors import ConflictError, InvalidValueError
from refman.common.text import plural
from refman.core.citekey_aliases import keys_back
from refman.core.context import Context, Handler, no_paper
from refman.core.file_copies import held_copy
from refman.core.merge import PREPRINT_TYPES, add_tags, merge_into
from refman.core.merged_children import back_from_merge, children_of, moved_by_merge
from refman.core.merged_keys import (
    KeyRow,
    hand_over,
    keys_of_merged,
    put_keys,
    remember_merge,
    where_merged,
)
from refman.core.operations import (
    DryRunnable,
    Operation,
    Outcome,
    SetDuplicateFlag,
    SetTrashed,
    TrashPapers,
)
from refman.core.paper_state import BIB_FIELDS, PaperState
from refman.core.papers import set_duplicate_flag, set_trashed, trash_papers
from refman.core.reading_status import (
    SetReading,
    merged_reading,
    reading_words,
    readings,
    set_reading,
)
from refman.core.registry import Registry
from refman.core.state_io import load_states, state_keys, write_states
from refman.core.upkeep import fill_citekeys
from refman.core.values import Changes
from refman.importers.records import ParsedRecord
from refman.store.models import Paper
from refman.store.models_files import PaperFile


@dataclass(frozen=True, slots=True)
class MergeResult:
    """What a merge did (or, a dry run, would do).

    Attributes:
        kept: The paper kept.
        merged: The paper merged into it (now in the Trash); the first of them.
        added: What the kept paper gained, in words ("the abstract", "2 tags", "1 note").
        dry_run: Nothing was changed.
        others: Every paper merged into it, in the order merged (``merged`` first).
    """

    kept: int
    merged: int
    added: tuple[str, ...]
    dry_run: bool = False
    others: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class MergePapers(DryRunnable[MergeResult]):
    """Merge paper ``other`` into paper ``keep`` (see the module)."""

    keep: int
    other: int
    dry_run: bool = False  # only say what the merge would do

    @property
    def label(self) -> str:
        return "Merge papers"


@dataclass(frozen=True, slots=True)
class UnmergePapers(Operation[tuple[int, ...]]):
    """Take a merge back: the kept paper as it was (expected as the merge left it: its
    fields, links, reading status and rating), the notes, files and citation key back on the
    other paper, the other paper's trash time, the marks of possible duplicates and the
    papers merged into it as they were. Its value: the other paper's id."""

    keep: int
    other: int
    before: str
    after: str
    #: Puts the kept paper's reading status and rating back (None: the merge left them).
    reading: SetReading | None
    notes: tuple[int, ...]
    files: tuple[int, ...]
    trashed: SetTrashed | None
    flags: tuple[SetDuplicateFlag, ...]
    citekey: str | None = None  # the other paper's key when the kept one took it
    #: The papers merged into the other paper before (merged into the kept one since).
    handed: tuple[int, ...] = ()
    #: The other paper's keys as stored before, when it had been merged once already.
    earlier: tuple[KeyRow, ...] = ()
    #: The other paper's other citation keys, which the kept paper took.
    aliases: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """ "Merge papers" (Undo/Redo Merge papers)."""
        return "Merge papers"


def _states(session: Session, keep: int, other: int) -> tuple[PaperState, PaperState]:
    if keep == other:
        raise InvalidValueError(
            f"Paper #{keep} cannot be merged with itself.", "Name two different papers."
        )
    states = load_states(session, [keep, other])
    for paper_id in (keep, other):
        if paper_id not in states:
            raise no_paper(paper_id)
    return states[keep], states[other]


def _require_mergeable(keep: PaperState, other: PaperState) -> None:
    """Refuse papers that cannot be one: the kept one in the Trash, different identifiers."""
    if keep.trashed_at is not None:
        raise InvalidValueError(
            f"Paper #{keep.id} is in the Trash.",
            "Restore it first, or keep the other paper and merge this one into it.",
        )
    require_one_work(keep, other)


def require_one_work(first: PaperState, second: PaperState) -> None:
    """Refuse two papers whose DOIs or arXiv ids differ: different papers."""
    a, b = state_keys(first), state_keys(second)
    if a.conflicts(b):
        what = "DOIs" if a.doi and b.doi and a.doi != b.doi else "arXiv ids"
        raise InvalidValueError(
            f"Papers #{first.id} and #{second.id} have different {what}: different papers.",
            "Mark them “Not a duplicate” instead, or correct the identifier first.",
        )


def _as_record(state: PaperState) -> ParsedRecord:
    """A paper as a record of it, to merge by an import's rules."""
    return ParsedRecord(
        title=state.title,
        title_provisional=state.title_provisional,
        abstract=state.abstract,
        year=state.year,
        venue=state.venue,
        subjects=tuple(state.subjects),
        authors=tuple(state.names.get(k, k) for k in state.authors),
        authors_complete=state.authors_complete,
        type=state.type,
        extra=dict(state.extra),
        citekey=state.citekey,  # kept as another key of the paper it goes into
        aliases=tuple(state.aliases),
        **{name: getattr(state, name) for name in BIB_FIELDS},
    )


def _merge_state(keep: PaperState, other: PaperState) -> list[str]:
    """Merge the other paper's fields, people, subjects and tags into the kept one's state;
    what it gained in words, but for the tags (counted by :func:`describe`)."""
    record = _as_record(other)
    if keep.type not in PREPRINT_TYPES and other.type in PREPRINT_TYPES:
        record = replace(record, venue=None)  # ("arXiv" is no published paper's venue)
    added = merge_into(keep, record, None, None, list(other.authors))
    for key in other.attributions:
        if key not in keep.attributions:
            keep.attributions.append(key)
            added.append(f"attribution to {other.names.get(key, key)}")
    for key, name in other.names.items():
        keep.names.setdefault(key, name)
    add_tags(keep, list(other.tags))
    if keep.possible_duplicate_of == other.id:
        keep.possible_duplicate_of = None
    return added


@dataclass(frozen=True, slots=True)
class Gain:
    """What one paper merged into another brings: its fields in words, the citation key the
    kept paper takes from it, its notes and the files that move."""

    other: int
    added: list[str]
    citekey: str | None
    notes: tuple[int, ...]
    files: tuple[int, ...]


def take_in(ctx: Context, keep: PaperState, other: PaperState) -> Gain:
    """Merge the other paper into the kept one's state, in memory (the library is unchanged);
    what it brings.

    Raises:
        InvalidValueError: The two cannot be one paper (see :func:`_require_mergeable`).
    """
    went = where_merged(ctx.session, [other.id]).get(other.id) if other.trashed_at else None
    if went is not None:  # (a merged paper restored from the Trash is one of its own again)
        raise InvalidValueError(
            f"Paper #{other.id} was merged into #{went} already.",
            f"Merge #{went} instead, or restore #{other.id} from the Trash first.",
        )
    _require_mergeable(keep, other)
    citekey = _own_citekey(keep, other)  # (first: the other's key is then no other key)
    added = _merge_state(keep, other)
    notes, files = children_of(ctx.session, other.id)
    return Gain(other.id, added, citekey, notes, _files_to_move(ctx, keep.id, files))


def describe(ctx: Context, keep: int, gains: list[Gain], tags: int) -> tuple[str, ...]:
    """What merges brought the kept paper, in words ("the abstract", "2 tags", "1 note"): each
    field once, ``tags`` new tags, the citation key it took, its reading status and rating,
    the notes and files it gained."""
    added = list(dict.fromkeys(text for gain in gains for text in gain.added))
    added += [plural(tags, "tag")] if tags else []
    added += [f"the citation key {g.citekey}" for g in gains if g.citekey]
    found = readings(ctx.session, [keep, *(g.other for g in gains)])
    added += reading_words(found[keep], merged_reading(found, keep, [g.other for g in gains]))
    notes, files = sum(len(g.notes) for g in gains), sum(len(g.files) for g in gains)
    added += [plural(notes, "note")] if notes else []
    added += [plural(files, "file")] if files else []
    return tuple(added)


def _merged_reading(ctx: Context, keep: int, other: int) -> SetReading | None:
    """Give the kept paper the reading status and rating of a merge
    (:func:`~refman.core.reading_status.merged_reading`); what puts them back."""
    found = readings(ctx.session, [keep, other])
    wanted = SetReading(values=((keep, *merged_reading(found, keep, [other])),))
    inverse = set_reading(ctx, wanted).inverse
    return inverse if isinstance(inverse, SetReading) else None


def _write(ctx: Context, state: PaperState) -> PaperState:
    """Write a paper's state with its links; the state as the library now holds it."""
    write_states(ctx.session, Registry(ctx.session), [], [state], ctx.now, ctx.search)
    return load_states(ctx.session, [state.id])[state.id]


def _own_citekey(keep: PaperState, other: PaperState) -> str | None:
    """The other paper's key, the kept one's when chosen by hand (and not the kept one's)."""
    if "citekey" not in other.user_edited or "citekey" in keep.user_edited or not other.citekey:
        return None
    keep.aliases += [keep.citekey] if keep.citekey else []  # (its own key is cited too)
    keep.citekey, keep.user_edited = other.citekey, keep.user_edited | {"citekey"}
    return other.citekey


def _set_citekey(session: Session, paper_id: int, citekey: str | None) -> None:
    session.execute(
        update(Paper).where(Paper.id == paper_id).values(citekey=citekey, version=Paper.version + 1)
    )


def _files_to_move(ctx: Context, keep: int, files: tuple[int, ...]) -> tuple[int, ...]:
    """The other paper's files the kept paper does not hold already (the same bytes under any
    name stay with the other paper: a paper never holds one file twice)."""
    moving = []
    for row in ctx.session.scalars(select(PaperFile).where(PaperFile.id.in_(files))):
        where = ctx.files.where(row.path, row.linked)
        if (
            where is None
            or not where.is_file()
            or not held_copy(ctx.session, ctx.files, keep, where, row.size)
        ):
            moving.append(row.id)
    return tuple(sorted(moving))


def merge_papers(ctx: Context, op: MergePapers) -> Outcome[MergeResult]:
    """Merge two papers (see the module)."""
    s = ctx.session
    keep, other = _states(s, op.keep, op.other)
    before, tags = keep.copy(), len(keep.tags)
    gain = take_in(ctx, keep, other)
    added = describe(ctx, keep.id, [gain], len(keep.tags) - tags)
    if op.dry_run:
        return Outcome(MergeResult(keep.id, other.id, added, dry_run=True, others=(other.id,)))
    citekey, notes, files = gain.citekey, gain.notes, gain.files
    if citekey:
        _set_citekey(s, other.id, None)
    moved_by_merge(s, other.id, notes, files, keep.id)
    keep.modified_at = ctx.now
    earlier = keys_of_merged(s, other.id)
    authors = other.authors if other.authors_complete else None
    remember_merge(s, other.id, keep.id, state_keys(other), authors)  # (its key: keep's alias)
    after = _write(ctx, keep)
    if citekey:  # the other paper, in the Trash, gets a key of its own (back from there)
        fill_citekeys(s, [other.id])
    reading = _merged_reading(ctx, keep.id, other.id)
    flagged = s.scalars(select(Paper.id).where(Paper.possible_duplicate_of == other.id))
    flags = [
        set_duplicate_flag(ctx, SetDuplicateFlag(pid, keep.id)).inverse
        for pid in [*flagged, other.id]
        if pid != keep.id
    ]
    trashed = trash_papers(ctx, TrashPapers((other.id,))).inverse
    inverse = UnmergePapers(
        keep=keep.id,
        other=other.id,
        before=json.dumps(before.to_json()),
        after=json.dumps(after.to_json()),
        reading=reading,
        notes=notes,
        files=files,
        trashed=trashed if isinstance(trashed, SetTrashed) else None,
        flags=tuple(f for f in flags if isinstance(f, SetDuplicateFlag)),
        citekey=citekey,
        handed=hand_over(s, other.id, keep.id),
        earlier=earlier,
        aliases=tuple(other.aliases),
    )
    changes = Changes(
        papers=frozenset([keep.id, other.id]), structure=True, tags=True, notes=bool(notes)
    )
    result = MergeResult(keep.id, other.id, added, others=(other.id,))
    return Outcome(result, changes, inverse, op.label)


def _require_unchanged(keep: PaperState, op: UnmergePapers) -> None:
    """Refuse to take a merge back once the kept paper was changed since (its fields and
    links; its reading status and rating: :func:`~refman.core.reading_status.set_reading`)."""
    if not keep.same_as(PaperState.from_json(json.loads(op.after))):
        raise ConflictError(
            f"Paper #{op.keep} was changed since the merge.", "It was left as it is now."
        )


def unmerge_papers(ctx: Context, op: UnmergePapers) -> Outcome[tuple[int, ...]]:
    """Put two merged papers back as they were (refused when one is gone or changed since)."""
    s = ctx.session
    keep, _ = _states(s, op.keep, op.other)
    _require_unchanged(keep, op)
    if op.trashed is not None:
        set_trashed(ctx, op.trashed)
    for flag in op.flags:
        set_duplicate_flag(ctx, flag)
    back_from_merge(s, op.other, op.keep, op.notes, op.files)  # (but those back already)
    restored = PaperState.from_json(json.loads(op.before))
    restored.version = keep.version
    _write(ctx, restored)
    if op.reading is not None:  # (refused when the paper was marked or rated since)
        set_reading(ctx, op.reading)
    if op.citekey is not None:
        _set_citekey(s, op.other, op.citekey)
    put_keys(s, op.other, op.earlier)
    keys_back(s, op.other, op.aliases)
    hand_over(s, op.keep, op.other, op.handed)
    changes = Changes(
        papers=frozenset([op.keep, op.other]), structure=True, tags=True, notes=bool(op.notes)
    )
    return Outcome((op.other,), changes, MergePapers(op.keep, op.other), op.label)


HANDLERS: dict[type, Handler] = {MergePapers: merge_papers, UnmergePapers: unmerge_papers}
