"""Edits that wait in their field, not saved: the person closed the question of an edit that
met someone else's (:func:`refman.ui.conflicts.resolve_fields`), to decide later; or the
library could not take the edit (its server out of reach, a file locked or full:
:func:`refman.ui.conflicts.save_field`), which is saved as any typing once it can.

The field shows the text typed, marked, over the other person's value now stored (what saving
it is based on from then on): Enter saves the typed text, Esc takes theirs, and moving to
another paper saves it as any typing is saved. A line under the title says which fields wait
and what the other person wrote. When the pane has moved on to another paper meanwhile, it asks
to show that paper again and puts the text back once it is shown: nothing typed is lost.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QLabel, QWidget

from refman.common.text import join_words
from refman.core.rules import FIELD_LABELS

from refman.ui.look import ATTENTION, plain_label, scaled_font

if TYPE_CHECKING:
    from refman.ui.detail_pane import DetailPane

#: Keeps an edit not saved in its field: (paper id, field, the text typed, their value, and
#: whether it is held because the library could not take it: their value is then the stored).
Hold = Callable[[int, str, str, str, bool], None]


def _label(name: str) -> str:
    return f"the {FIELD_LABELS.get(name, name.replace('_', ' '))}"


def held_line(held: dict[str, str], unsaved: AbstractSet[str] = frozenset()) -> str:
    """The line that says which fields hold typing not saved (``held``: their value by field
    name, in the pane's order; ``unsaved``: those the library could not take); "" when none
    does."""
    changes = [
        f"{_label(name)} to " + (f"“{theirs}”" if theirs else "nothing")
        for name, theirs in held.items()
        if name not in unsaved
    ]
    said = []
    if changes:
        said.append(
            f"Not saved: someone else changed {join_words(changes)} while you were editing. "
            "Enter in the field saves yours; Esc takes theirs."
        )
    if kept := [_label(name) for name in held if name in unsaved]:
        said.append(
            f"Not saved: the library could not take your change to {join_words(kept)}. "
            "Enter in the field saves it; Esc takes back what is saved."
        )
    return " ".join(said)


class HeldEdits(QObject):
    """Puts edits the person decided later about back in their fields, and says so.

    Attributes:
        note: The line under the title (hidden while no field holds an edit).
    """

    def __init__(self, pane: DetailPane, parent: QWidget) -> None:
        super().__init__(pane)
        self.pane = pane
        #: Edits waiting for their paper to be shown: (typed, theirs, unsaved) by field, by
        #: paper id.
        self._waiting: dict[int, dict[str, tuple[str, str, bool]]] = {}
        self.note: QLabel = plain_label("", parent)
        self.note.setObjectName("heldEditsNote")
        self.note.setFont(scaled_font(self.note.font(), 0.9))
        self.note.setStyleSheet(f"QLabel {{ color: {ATTENTION}; }}")
        self.note.hide()

    def watch(self) -> None:
        """Follow the pane's fields (once they are built)."""
        for field in self.pane.editable_fields().values():
            field.held_changed.connect(self.on_field_held_changed)

    def hold(
        self, paper_id: int, name: str, typed: str, theirs: str, unsaved: bool = False
    ) -> None:
        """Keep ``typed`` in the field ``name`` of the paper, not saved, over ``theirs`` (the
        value stored, ``unsaved``: the library could not take the edit); a paper no longer
        shown is asked for again and gets it once shown."""
        self._waiting.setdefault(paper_id, {})[name] = (typed, theirs, unsaved)
        shown = self.pane.shown_paper()
        if self.pane.current_paper() != paper_id:  # moved on: the paper is asked for again
            self.pane.paper_link_activated.emit(paper_id)
        elif shown is not None and shown.id == paper_id:
            self.put_back(paper_id)
        # (else the paper is being read: it gets the edit once shown)

    def put_back(self, paper_id: int) -> None:
        """Put the edits waiting for this paper (now shown) in their fields."""
        fields = self.pane.editable_fields()
        for name, (typed, theirs, unsaved) in self._waiting.pop(paper_id, {}).items():
            if name in fields:  # (a type chosen in a list holds no typing)
                fields[name].hold(typed, theirs, unsaved)

    @Slot()
    def on_field_held_changed(self) -> None:
        """Say which fields hold an edit not saved (or hide)."""
        fields = self.pane.editable_fields()
        held = {n: f for n, f in fields.items() if f.held is not None}
        line = held_line(
            {n: str(f.held) for n, f in held.items()}, {n for n, f in held.items() if f.unsaved}
        )
        self.note.setText(line)
        self.note.setVisible(bool(line))
