"""A paper's tags as rounded chips, each removable, plus a field to add tags.

Chips take the tag's colour when it has one. The add field completes existing tag names;
Enter adds the tags typed (several at once when separated by commas, as in the import wizard).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QStringListModel,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QCompleter,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QToolButton,
    QWidget,
)

from refman.core.rules import split_tags
from refman.core.values import TagView

from refman.ui.field_undo import UndoPassing
from refman.ui.flow_layout import FlowLayout
from refman.ui.look import mix, plain_label, subtle_fill
from refman.ui.read_only import mark_changing

_MAX_LABEL = 200  # longer tag names are elided (the full name is the tooltip)


class TagCompleter(QCompleter):
    """Completes the tag after the last comma of a line edit, keeping the tags before it."""

    def splitPath(self, path: str) -> list[str]:
        """Complete only what follows the last comma."""
        return [path.rsplit(",", 1)[-1].strip()]

    def pathFromIndex(self, index: QModelIndex | QPersistentModelIndex) -> str:
        """Replace the last tag typed with the completion."""
        widget = self.widget()
        text = widget.text() if isinstance(widget, QLineEdit) else ""
        head = text.rsplit(",", 1)[0] + ", " if "," in text else ""
        return head + str(index.data())


def _text_on(background: QColor) -> QColor:
    """Black or white, whichever reads better on a background."""
    luminance = 0.299 * background.redF() + 0.587 * background.greenF() + 0.114 * background.blueF()
    return QColor("#1b1b1b") if luminance > 0.6 else QColor("#ffffff")


class TagChip(QFrame):
    """One tag: its name on a rounded background and a × button that removes it.

    Signals:
        remove_requested(str): The × was clicked; the argument is the tag name.
    """

    remove_requested = Signal(str)

    def __init__(
        self,
        name: str,
        colour: str | None,
        parent: QWidget | None = None,
        *,
        text: str | None = None,
        from_what: str = "this paper",
    ) -> None:
        super().__init__(parent)
        self.setObjectName("tagChip")
        self.name = name
        palette = self.palette()
        if colour:
            background = QColor(colour)
            border = background.darker(112)
        else:
            background = subtle_fill(palette)
            border = mix(background, palette.color(QPalette.ColorRole.WindowText), 0.12)
        foreground = _text_on(background)
        self.label = plain_label("", self, wrap=False)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        metrics = self.label.fontMetrics()
        shown = text or name
        self.label.setText(metrics.elidedText(shown, Qt.TextElideMode.ElideRight, _MAX_LABEL))
        if self.label.text() != shown:
            self.setToolTip(shown)
        self.remove_button = QToolButton(self)
        self.remove_button.setObjectName(f"removeTag_{name}")
        self.remove_button.setText("×")
        self.remove_button.setToolTip(f"Remove the tag “{name}” from {from_what}")
        self.remove_button.setAccessibleName(f"Remove tag {name}")
        self.remove_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.remove_button.setAutoRaise(True)
        self.remove_button.clicked.connect(self.on_remove_button_clicked)
        mark_changing(self.remove_button)
        self.setStyleSheet(
            f"QFrame#tagChip {{ background: {background.name()}; border: 1px solid "
            f"{border.name()}; border-radius: 11px; }}"
            f"QLabel {{ color: {foreground.name()}; background: transparent; }}"
            f"QToolButton {{ color: {foreground.name()}; border: none; background: transparent;"
            " padding: 0px 2px; font-weight: bold; }"
            "QToolButton:hover, QToolButton:focus"
            f" {{ background: {mix(background, foreground, 0.18).name()};"
            " border-radius: 8px; }"
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 2, 4, 2)
        layout.setSpacing(2)
        layout.addWidget(self.label)
        layout.addWidget(self.remove_button)
        self.setFixedHeight(24)

    @Slot()
    def on_remove_button_clicked(self) -> None:
        """Ask for the tag to be removed."""
        self.remove_requested.emit(self.name)


class TagChips(QWidget):
    """The tags of one paper, and a field to add some.

    Enter adds what was typed; picking a completion (Enter or a click in the list) adds that
    tag. Either way the tags arrive in one signal, once, and the field is emptied.

    Signals:
        tags_added(list): Tag names typed or picked (tidied, at least one).
        tag_removed(str): The user clicked a chip's ×.
    """

    tags_added = Signal(list)
    tag_removed = Signal(str)

    def __init__(self, parent: QWidget | None = None, *, from_what: str = "this paper") -> None:
        super().__init__(parent)
        self.setObjectName("tagChips")
        self._flow = FlowLayout(self, h_gap=6, v_gap=6)
        self._from_what = from_what  # what a chip's × takes the tag off
        self._shown: tuple[tuple[str, str | None, str], ...] | None = None
        self._chips: dict[str, TagChip] = {}
        self._names = QStringListModel(self)
        self.completer = TagCompleter(self._names, self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.field = QLineEdit(self)
        self.field.setObjectName("addTagField")
        self.field.setPlaceholderText("Add tag…")
        self.field.setToolTip("Type a tag name and press Enter; separate several with commas")
        self.field.setAccessibleName("Add tag")
        self.field.setClearButtonEnabled(False)
        self.field.setMinimumWidth(130)
        self.field.setMaximumWidth(220)
        self.field.setFixedHeight(24)
        self.field.setStyleSheet(
            "QLineEdit { border: 1px dashed palette(mid); border-radius: 11px;"
            " padding: 0 8px; background: transparent; }"
            "QLineEdit:focus { border: 1px solid palette(highlight); background: palette(base); }"
            "QLineEdit:disabled { border-color: palette(midlight); color: palette(mid); }"
        )
        self.field.setCompleter(self.completer)
        self._undo_passing = UndoPassing(self)
        self.field.installEventFilter(self._undo_passing)
        self.field.returnPressed.connect(self.on_field_return_pressed)
        mark_changing(self.field)  # disabled, not merely read-only, in a library only readable
        self.completer.activated.connect(self.on_completer_activated)
        self._flow.addWidget(self.field)

    def set_tags(self, tags: Sequence[TagView], of: int | None = None) -> None:
        """Show a paper's tags (in the order given); or, with ``of`` (how many papers are
        selected), the tags of several papers, those only some of them carry with how many
        ("ml (2 of 4)": each tag's ``count``)."""
        wanted = tuple(
            (
                t.name,
                t.colour,
                t.name if of is None or t.count >= of else f"{t.name} ({t.count} of {of})",
            )
            for t in tags
        )
        if wanted == self._shown:
            return
        self._shown = wanted
        field_item = self._flow.takeAt(self._flow.count() - 1)
        del field_item
        self._flow.clear()
        self._chips = {}
        for name, colour, text in wanted:
            chip = TagChip(name, colour, self, text=text, from_what=self._from_what)
            chip.remove_requested.connect(self.tag_removed)
            self._chips[name] = chip
            self._flow.addWidget(chip)
        self._flow.addWidget(self.field)
        self.updateGeometry()

    def set_known_tags(self, names: Sequence[str]) -> None:
        """The names the add field completes."""
        self._names.setStringList(list(names))

    def tag_names(self) -> list[str]:
        """The names of the chips shown."""
        return list(self._chips)

    def chip_texts(self) -> list[str]:
        """What the chips shown say."""
        return [chip.label.text() for chip in self._chips.values()]

    def remove_button(self, name: str) -> QToolButton | None:
        """The × button of a tag's chip, if the tag is shown."""
        chip = self._chips.get(name)
        return chip.remove_button if chip is not None else None

    def _add(self, text: str) -> None:
        names = split_tags(text)
        if names:
            self.tags_added.emit(names)

    @Slot()
    def on_field_return_pressed(self) -> None:
        """Enter adds the tags typed, unless it picks a completion (``activated`` adds that)."""
        popup = self.completer.popup()
        if popup is not None and popup.isVisible() and popup.currentIndex().isValid():
            return
        text = self.field.text()
        self.field.clear()
        if popup is not None:  # (the suggestions of what was typed are done with)
            popup.hide()
        self._add(text)

    @Slot(str)
    def on_completer_activated(self, text: str) -> None:
        """Picking a completion adds it (with any tags typed before it)."""
        self._add(text)
        # The line edit writes the completion into itself after this slot; empty it after.
        QTimer.singleShot(0, self.field, self.field.clear)
