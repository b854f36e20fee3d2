"""The small dialogs of the tag pane, as plain functions that tests replace.

The tag pane calls them through its own module (``refman.ui.tag_pane.ask_tag_name``), so a
test monkeypatches them there.
"""

from __future__ import annotations

from types import EllipsisType

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QColorDialog, QDialog, QDialogButtonBox, QInputDialog, QWidget


def ask_tag_name(parent: QWidget | None, old: str) -> str | None:
    """Ask for a tag's new name (tests replace this function).

    Args:
        parent: The dialog's parent.
        old: The tag's current name.

    Returns:
        The name typed, or None when the user cancelled.
    """
    text, ok = QInputDialog.getText(
        parent,
        "Rename Tag",
        f"New name for the tag “{old}”.\n"
        "If another tag already has this name, the two tags are merged into one.",
        text=old,
    )
    return text if ok and text.strip() else None


def ask_colour(parent: QWidget | None, current: str | None) -> str | EllipsisType | None:
    """Ask for a tag colour (tests replace this function).

    Args:
        parent: The dialog's parent.
        current: The tag's colour ("#rrggbb"), or None.

    Returns:
        The colour chosen, None for "No colour", or ``...`` when the user cancelled.
    """
    dialog = QColorDialog(QColor(current or "#1e88e5"), parent)
    dialog.setWindowTitle("Tag Colour")
    dialog.setOption(QColorDialog.ColorDialogOption.DontUseNativeDialog)
    cleared: list[bool] = []
    box = dialog.findChild(QDialogButtonBox)
    if box is not None:
        button = box.addButton("No Colour", QDialogButtonBox.ButtonRole.ResetRole)

        def on_no_colour() -> None:
            cleared.append(True)
            dialog.reject()

        button.clicked.connect(on_no_colour)
    if dialog.exec() == QDialog.DialogCode.Accepted:
        return dialog.selectedColor().name()
    return None if cleared else ...
