"""The changes made in the detail pane to the paper it shows — a tag put on or taken off, the
reading status or the stars, a file attached, a note added — which follow the paper to the
paper kept when someone else merged it into another meanwhile
(:class:`~refman.core.merged_edits.ChangeShownPapers`; a field typed: :mod:`refman.ui.conflicts`),
the status bar saying where the change went."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtWidgets import QMainWindow

from refman.common.text import join_words
from refman.core.merged_edits import ChangeShownPapers, Followed
from refman.core.operations import Operation, Outcome, TagPapers, UntagPapers

from refman.ui.controller import LibraryController

if TYPE_CHECKING:
    from refman.ui.detail_pane import DetailPane

T = TypeVar("T")

#: Whether the paper shown was seen in the library (not picked in the Trash): its changes
#: follow it to the paper kept by a merge made elsewhere since.
Follows = Callable[[], bool]


def seen_in_library(pane: DetailPane) -> bool:
    """Whether the pane's paper was seen in the library: not in the Trash, or kept in the
    pane though moved to the Trash elsewhere (not picked there)."""
    paper = pane.shown_paper()
    return paper is not None and (paper.trashed is None or pane.kept.paper_id == paper.id)


def moved_text(paper_id: int, kept: int, done: str, after: str = "") -> str:
    """What the status bar says of a change of a paper merged into another elsewhere
    meanwhile, made to the paper kept: "Paper #12 was merged into paper #7 elsewhere: your
    tag “ml” was put on paper #7." (``done``: "your tag “ml” was put on")."""
    said = f"Paper #{paper_id} was merged into paper #{kept} elsewhere"
    return f"{said}: {done} paper #{kept}{after}."


def change_shown(
    controller: LibraryController,
    make: Callable[[], Operation[T]],
    done: str,
    *,
    follow: bool,
    on_done: Callable[[Outcome[T]], None] | None = None,
    label: str = "Saving your change…",
) -> None:
    """Apply a change of the paper shown (built on the worker: a value it refuses is shown),
    to the paper kept when it was merged elsewhere since and ``follow``; the status bar then
    says so (``done``: what was done, "your tag “ml” was put on")."""

    def finished(outcome: Outcome[Followed[T]]) -> None:
        window = controller.window
        for seen, kept in outcome.value.moved:
            if isinstance(window, QMainWindow):
                window.statusBar().showMessage(moved_text(seen, kept, done), 20_000)
        if on_done is not None:
            on_done(Outcome(outcome.value.value, outcome.changes, outcome.inverse, outcome.label))

    controller.apply_built(lambda: ChangeShownPapers(make(), follow), finished, label=label)


def _tags(names: Sequence[str]) -> str:
    """ "your tag “ml”", "your tags “ml” and “nlp”"."""
    word = "tag" if len(names) == 1 else "tags"
    return f"your {word} {join_words(f'“{name}”' for name in names)}"


def tag_shown(pane: DetailPane, names: Sequence[str]) -> None:
    """Put tags typed in the pane on its paper (one undo step)."""
    if (paper := pane.shown_paper()) is not None and names:
        make = partial(TagPapers, (paper.id,), tuple(names))
        verb = "was" if len(names) == 1 else "were"
        done = f"{_tags(names)} {verb} put on"
        change_shown(pane.controller, make, done, follow=seen_in_library(pane))


def untag_shown(pane: DetailPane, name: str) -> None:
    """Take a tag off the pane's paper."""
    if (paper := pane.shown_paper()) is not None:
        make = partial(UntagPapers, (paper.id,), (name,))
        done = f"{_tags([name])} was taken off"
        change_shown(pane.controller, make, done, follow=seen_in_library(pane))
