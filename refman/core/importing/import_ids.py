"""The ids an import gives: ids the library never gave (:mod:`refman.store.id_marks`), or,
when Redo makes an undone import again, the ids it gave then (:class:`GivenBack`): each
record's new paper, the people, subjects and tags it made, its pages' place in the history.
An undo step or "#93" that named one of them names the same one again; nobody else can have
received those ids.

A record that now joins a paper of the library (someone imported it meanwhile) leaves its id
unused; a paper of the undone import still waiting to be deleted for good
(:mod:`refman.core.importing.purge`) is deleted now, and its record's new paper takes its id.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from refman.core.importing.values import ImportResult, RecordRef, SourcedPage
from refman.core.state_io import delete_papers
from refman.store.bulk import first_column, id_set
from refman.store.id_marks import last_id
from refman.store.models import ImportBatch, Paper, Person, Subject, Tag
from refman.store.models_upkeep import PurgingPaper
from refman.store.search import SearchIndex

#: Per page, per record: the id of the paper the record made, or 0.
GivenIds = tuple[tuple[int, ...], ...]
#: What the kinds of rows an import makes are named by.
_NAMED = (
    ("persons", Person, Person.key),
    ("subjects", Subject, Subject.code),
    ("tags", Tag, Tag.key),
)


@dataclass(frozen=True, slots=True)
class GivenBack:
    """The ids an import gave, for its Redo to give back.

    Attributes:
        papers: Its new papers' ids, by record.
        names: The people, subjects and tags it made: (kind, ((key, id), ...)).
        batches: Its batches' ids, by page (the first is the import's number).
    """

    papers: GivenIds = ()
    names: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    batches: tuple[int, ...] = ()

    def named(self) -> dict[str, dict[str, int]]:
        """The people's, subjects' and tags' ids by kind and name."""
        return {kind: dict(pairs) for kind, pairs in self.names}


#: An import that gives back no id (all but a Redo).
NOTHING_GIVEN = GivenBack()


def given_back(
    session: Session, pages: Sequence[SourcedPage], result: ImportResult, earlier: GivenBack
) -> GivenBack:
    """What an import just gave (read in its transaction), with what it gave back
    (``earlier``: a Redo found the people and tags its undone import made still there)."""
    ids = [[0] * len(sp.page.records) for sp in pages]
    for r in result.records:
        if r.created and r.paper_id is not None:
            ids[r.ref[0]][r.ref[1]] = r.paper_id
    first = session.get(ImportBatch, result.batch_ids[0]) if result.batch_ids else None
    created = json.loads(first.created or "{}") if first is not None else {}
    named = earlier.named()
    for kind, model, name in _NAMED:
        if made := created.get(kind):
            rows = session.execute(select(name, model.id).where(model.id.in_(id_set(made))))
            named[kind] = {**named.get(kind, {}), **{str(n): int(i) for n, i in rows}}
    names = tuple((kind, tuple(pairs.items())) for kind, pairs in named.items())
    return GivenBack(tuple(map(tuple, ids)), names, tuple(result.batch_ids))


@dataclass
class PaperIds:
    """Hands out the ids of an import's new papers, in the order it makes them."""

    next_id: int
    given: GivenIds = ()
    #: Given ids a paper of the library holds (never the case but for a paper still waiting
    #: to be deleted): not given again.
    held: set[int] = field(default_factory=set)
    reused: list[int] = field(default_factory=list)

    @classmethod
    def start(cls, session: Session, given: GivenIds = ()) -> PaperIds:
        """The ids of an import that holds the import lock (imports take turns)."""
        wanted = [i for page in given for i in page if i]
        held: set[int] = set()
        if wanted:
            live = select(Paper.id).where(
                Paper.id.in_(id_set(wanted)), Paper.id.not_in(select(PurgingPaper.paper_id))
            )
            held = set(first_column(session, live))
        return cls(last_id(session, "papers") + 1, given, held)

    def new(self, ref: RecordRef) -> int:
        """The id of the new paper a record makes."""
        pid = self.given[ref[0]][ref[1]] if self.given else 0
        if pid and pid not in self.held:
            self.held.add(pid)
            self.reused.append(pid)
            return pid
        self.next_id += 1
        return self.next_id - 1

    def free(self, session: Session, search: SearchIndex) -> None:
        """Delete for good the papers still waiting to be deleted whose ids are given again
        (before the new papers are written)."""
        if self.reused:
            waiting = select(PurgingPaper.paper_id).where(
                PurgingPaper.paper_id.in_(id_set(self.reused))
            )
            delete_papers(session, search, first_column(session, waiting))
