"""What a drag of papers carries, and what a drop of papers gives.

A drag whose rows were all read carries their ids (:data:`PAPER_IDS_MIME`, a JSON array,
readable by any window). A drag of rows not read yet — Ctrl+A on a whole library, then a
drag — must start at once, so it carries a ticket instead (:data:`PAPER_SELECTION_MIME`):
the list worker reads the ids off the GUI thread while the person drags, and a drop hands
them on when they are there (at once if they already are). A ticket lives in this process
only; the newest drag's ticket is the one kept. When the list is read again before the ids
are (a change made elsewhere meanwhile), the rows dragged may show other papers now: the
ids never come, and the drop changes nothing.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import count
from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QDrag

from refman.ui.paper_columns import papers_in

if TYPE_CHECKING:  # (the list starts its drags here)
    from refman.ui.paper_table import PaperTable

log = logging.getLogger(__name__)

PAPER_IDS_MIME = "application/x-refman-paper-ids"
PAPER_SELECTION_MIME = "application/x-refman-paper-selection"

_numbers = count(1)


@dataclass(eq=False)
class Ticket:
    """The ids of a dragged selection, once the list worker has read them."""

    number: int
    papers: int
    ids: Sequence[int] | None = None
    _waiting: list[Callable[[Sequence[int]], None]] = field(default_factory=list)

    def give(self, ids: Sequence[int]) -> None:
        """The ids are read: hand them to every drop waiting for them."""
        self.ids = ids
        waiting, self._waiting = self._waiting, []
        for use in waiting:
            use(ids)

    def when_read(self, use: Callable[[Sequence[int]], None]) -> None:
        """Call ``use`` with the ids: now when they are read, else once they are."""
        if self.ids is not None:
            use(self.ids)
        else:
            self._waiting.append(use)


_latest: Ticket | None = None


def ids_mime(paper_ids: Sequence[int]) -> QMimeData:
    """Drag data carrying papers' ids (a tag or another list accepts it)."""
    data = QMimeData()
    data.setData(PAPER_IDS_MIME, json.dumps(paper_ids).encode("utf-8"))
    return data


def ticket_mime(papers: int, ask: Callable[[Callable[[Sequence[int]], None]], None]) -> QMimeData:
    """Drag data for a selection whose ids are still to be read.

    Args:
        papers: How many papers are selected.
        ask: Starts reading the ids off the GUI thread; calls its argument with them.
    """
    global _latest
    ticket = _latest = Ticket(next(_numbers), papers)
    data = QMimeData()
    payload = {"ticket": ticket.number, "papers": papers}
    data.setData(PAPER_SELECTION_MIME, json.dumps(payload).encode("utf-8"))
    ask(ticket.give)
    return data


def carries_papers(data: QMimeData | None) -> bool:
    """True when a drag carries papers (ids, or a selection of this process)."""
    return data is not None and (data.hasFormat(PAPER_IDS_MIME) or _ticket_of(data) is not None)


def when_dropped(data: QMimeData | None, use: Callable[[Sequence[int]], None]) -> bool:
    """Give the dropped papers' ids to ``use``: at once, or once the list worker has read
    them (a dragged selection of a whole library).

    Returns:
        False when the drop carries no papers (nothing will be called).
    """
    if data is None:
        return False
    ticket = _ticket_of(data)
    if ticket is not None:
        ticket.when_read(lambda ids: use(ids) if ids else None)
        return True
    ids = paper_ids_from_mime(data)
    if ids:
        use(ids)
    return bool(ids)


def paper_ids_from_mime(data: QMimeData | None) -> list[int]:
    """The paper ids a drag carries as ids, or [] when it carries none (or something else).

    Args:
        data: The drag's QMimeData.

    Returns:
        The ids, in the order dragged.
    """
    if data is None or not data.hasFormat(PAPER_IDS_MIME):
        return []
    try:
        raw = json.loads(bytes(data.data(PAPER_IDS_MIME).data()).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        log.info("ignored a drop with unreadable paper ids")
        return []
    if not isinstance(raw, list):
        return []
    return [int(i) for i in raw if isinstance(i, int) and not isinstance(i, bool)]


def _ticket_of(data: QMimeData) -> Ticket | None:
    """The ticket a drag of this process carries (the newest drag's), or None."""
    if not data.hasFormat(PAPER_SELECTION_MIME) or _latest is None:
        return None
    try:
        payload = json.loads(bytes(data.data(PAPER_SELECTION_MIME).data()).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(payload, dict) or payload.get("ticket") != _latest.number:
        return None  # another process's drag, or an older one of this
    return _latest


def start_drag(table: PaperTable, supported_actions: Qt.DropAction) -> None:
    """Drag the list's selected papers, read from the selection's row runs (Qt's own drag
    lists every selected cell and draws them all: seconds for a whole library). Rows not
    read yet are not read here: the drag starts at once with a ticket, and the list worker
    reads their ids while the person drags."""
    model = table.paper_model
    selected = table.selected_runs()
    ids = model.run_ids(selected, read=False)
    papers = papers_in(selected)
    if not papers:
        return
    if len(ids) == papers:
        data = ids_mime(ids)
    else:
        data = ticket_mime(papers, lambda give: model.ask_run_ids(selected, give))
    drag = QDrag(table)
    drag.setMimeData(data)
    drag.exec(supported_actions, table.defaultDropAction())


__all__ = [
    "PAPER_IDS_MIME",
    "PAPER_SELECTION_MIME",
    "Ticket",
    "carries_papers",
    "ids_mime",
    "paper_ids_from_mime",
    "start_drag",
    "ticket_mime",
    "when_dropped",
]
