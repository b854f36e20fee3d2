"""The window's three panes side by side, the paper list first in line for the width.

Qt's splitter takes a smaller window's width from the list alone (the pane that stretches)
down to its narrowest, while the other panes keep theirs: at 800 × 500 an empty detail pane
was wider than the list. Here the panes keep the widths the person gave them (dragging a
handle, or the first placement) and a narrower window takes width from the detail pane
first, down to its narrowest, then from the navigation pane, and only then from the list; a
wider window gives the list the room, and the other panes their chosen widths back first.
The chosen widths are what the window remembers (:meth:`PaneSplitter.saveState`).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QByteArray, QDataStream, QIODevice, Qt, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QSplitter, QWidget

#: The panes' places in the splitter, and the order in which they give up width.
NAVIGATION, LIST, DETAIL = range(3)
_GIVING_WAY = (DETAIL, NAVIGATION, LIST)


def shared_out(wanted: Sequence[int], narrowest: Sequence[int], width: int) -> list[int]:
    """The widths of the three panes in ``width`` pixels.

    Args:
        wanted: The widths the person gave the panes.
        narrowest: How narrow each pane may become.
        width: The width to share out (the handles left out).

    Returns:
        The list gets what is left over; when there is too little, the detail pane gives way
        first, then the navigation pane, then the list (none below its narrowest).
    """
    sizes = [max(w, n) for w, n in zip(wanted, narrowest, strict=True)]
    missing = sum(sizes) - width
    if missing <= 0:
        sizes[LIST] -= missing
        return sizes
    for pane in _GIVING_WAY:
        cut = min(missing, sizes[pane] - narrowest[pane])
        if cut > 0:
            sizes[pane] -= cut
            missing -= cut
    return sizes


def _sizes_in(state: QByteArray) -> list[int] | None:
    """The pane widths a splitter's saved state holds (None when it cannot be read)."""
    stream = QDataStream(state, QIODevice.OpenModeFlag.ReadOnly)
    stream.readInt32()  # Qt's mark of a splitter's state
    stream.readInt32()  # its version
    count = stream.readInt32()
    sizes = [stream.readInt32() for _ in range(max(0, min(count, 16)))]
    ok = stream.status() == QDataStream.Status.Ok and count == len(sizes)
    return sizes if ok else None


def _with_sizes(state: QByteArray, held: int, sizes: Sequence[int]) -> QByteArray:
    """A splitter's saved state holding ``held`` pane widths, with others (the rest kept)."""
    head = 4 + 4 + 4 + 4 * held
    out = QByteArray()
    stream = QDataStream(out, QIODevice.OpenModeFlag.WriteOnly)
    stream.writeRawData(state.data()[:8])
    stream.writeInt32(len(sizes))
    for size in sizes:
        stream.writeInt32(size)
    stream.writeRawData(state.data()[head:])
    return out


class PaneSplitter(QSplitter):
    """The navigation pane, the list and the detail pane, the list first in line for width."""

    def __init__(self, panes: Sequence[QWidget], parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setObjectName("mainSplitter")
        self.setChildrenCollapsible(False)
        for pane in panes:
            self.addWidget(pane)
        self.setStretchFactor(LIST, 1)
        #: The widths the person gave the panes (None until they are placed).
        self.wanted: list[int] | None = None
        self.splitterMoved.connect(self.on_splitter_moved)

    def place(self, sizes: Sequence[int]) -> None:
        """Give the panes these widths (as the splitter shares them out), as if the person
        chose them."""
        self.setSizes(list(sizes))
        self.wanted = self.sizes() if self.isVisible() else list(sizes)

    def _panes(self) -> list[QWidget]:
        return [pane for i in range(self.count()) if (pane := self.widget(i)) is not None]

    def _all_shown(self) -> bool:
        return all(not pane.isHidden() for pane in self._panes())

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Share the new width out: the detail pane gives way first, the list last."""
        super().resizeEvent(event)
        if self.wanted is None or not self._all_shown():
            return  # (a pane hidden from the View menu: Qt's own sharing)
        narrowest = [max(p.minimumWidth(), p.minimumSizeHint().width()) for p in self._panes()]
        sizes = shared_out(self.wanted, narrowest, sum(self.sizes()))
        if sizes != self.sizes():
            self.setSizes(sizes)

    @Slot(int, int)
    def on_splitter_moved(self, _pos: int, _index: int) -> None:
        """The person dragged a handle: the widths now are the ones they want."""
        if self._all_shown():
            self.wanted = self.sizes()

    def saveState(self) -> QByteArray:
        """The splitter's state with the widths the person gave the panes (not those a
        smaller window squeezed them to)."""
        state = super().saveState()
        held = _sizes_in(state)
        if self.wanted is None or held is None:
            return state
        return _with_sizes(state, len(held), self.wanted)

    def restoreState(self, state: QByteArray | bytes | bytearray | memoryview) -> bool:
        """Put back a state saved by :meth:`saveState`; its widths are the ones wanted."""
        restored = super().restoreState(state)
        if restored:
            sizes = _sizes_in(QByteArray(state))
            self.wanted = sizes if sizes is not None and len(sizes) == self.count() else None
        return restored
