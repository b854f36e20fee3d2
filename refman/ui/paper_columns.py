"""The paper list's columns and rows as the user sees them: headers, sort keys, the
provisional-title mark."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication

from refman.common.editor_line import names_editors
from refman.common.sequences import Distinct
from refman.core.publication_status import year_text
from refman.core.rules import stars
from refman.core.values import PaperQuery, PaperRow, SortKey

from refman.ui.look import UNREAD, muted

#: Custom role: the paper id of a row (any column).
PaperIdRole = Qt.ItemDataRole.UserRole + 1

#: The list's first query: the whole library (outside the Trash), newest first.
DEFAULT_QUERY = PaperQuery(sort=SortKey.ADDED, descending=True)

#: Marks a title that refman suggested from the abstract.
PROVISIONAL_MARK = "◇ "
PROVISIONAL_TIP = "Title suggested from the abstract — edit it in the detail pane"

PAGE = 100  # rows read together
CACHE_PAGES = 40  # pages kept; the least recently painted go first

TITLE, AUTHOR, YEAR, VENUE, ADDED, STATUS, RATING = range(7)
HEADERS = ("Title", "First author", "Year", "Venue", "Added", "Read", "Rating")
SORT_KEYS = (
    SortKey.TITLE,
    SortKey.AUTHOR,
    SortKey.YEAR,
    SortKey.VENUE,
    SortKey.ADDED,
    SortKey.STATUS,
    SortKey.RATING,
)
# Clicking a new column sorts A→Z for text, newest first for dates, unread first for the
# reading status and the best rated first.
_FIRST_ORDER = (
    Qt.SortOrder.AscendingOrder,
    Qt.SortOrder.AscendingOrder,
    Qt.SortOrder.DescendingOrder,
    Qt.SortOrder.AscendingOrder,
    Qt.SortOrder.DescendingOrder,
    Qt.SortOrder.DescendingOrder,
    Qt.SortOrder.DescendingOrder,
)
#: How the list shows a reading status (a blue dot for unread, as mail does), and in words.
STATUS_MARKS = {"unread": "•", "reading": "◐", "read": ""}
STATUS_TIPS = {"unread": "Unread", "reading": "Reading", "read": "Read"}
_STATUS_COLOUR = QColor(UNREAD)
#: The roles a cell answers.
CELL_ROLES = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.FontRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.TextAlignmentRole,
)


#: The roles only some columns answer, and those columns.
STYLED_ROLES = (
    Qt.ItemDataRole.FontRole,
    Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.TextAlignmentRole,
    Qt.ItemDataRole.ToolTipRole,
)
STYLED_COLUMNS = (TITLE, AUTHOR, STATUS)


def stand_in_look(row: PaperRow, column: int, role: int, italic: QFont) -> object:
    """A provisional title, or the page owner standing in for authors the pages did not
    give: italic (the owner also muted), with a tooltip saying so."""
    if role == Qt.ItemDataRole.FontRole:
        return italic
    if role == Qt.ItemDataRole.ToolTipRole:
        if column == TITLE:
            return PROVISIONAL_TIP
        return f"Authors not given on the page; this paper is from {row.owner}’s page"
    if role == Qt.ItemDataRole.ForegroundRole and column == AUTHOR:
        return muted(QGuiApplication.palette())
    return None


def is_stand_in(row: PaperRow, column: int) -> bool:
    """True for a cell shown in the stand-in style (see :func:`stand_in_look`)."""
    if column == TITLE:
        return row.title_provisional
    return column == AUTHOR and not row.first_author and bool(row.owner)


#: The author cell's tooltip of a book whose editors stand for the authors it names none of
#: (the whole line, which a narrow column cuts short of its "(eds.)").
EDITORS_TIP = "{line} — the book’s editors: it names no authors"


def cell_look(row: PaperRow, column: int, role: int, italic: QFont) -> object:
    """A title or author cell's font, colour and tooltip: the stand-in style
    (:func:`stand_in_look`), or the tooltip saying an edited book's author cell names its
    editors (:func:`~refman.common.editor_line.names_editors`)."""
    if is_stand_in(row, column):
        return stand_in_look(row, column, role, italic)
    if column == AUTHOR and role == Qt.ItemDataRole.ToolTipRole and names_editors(row.first_author):
        return EDITORS_TIP.format(line=row.first_author)
    return None


def status_look(status: str, role: int) -> object:
    """The reading status cell's colour, tooltip and alignment (centred)."""
    if role == Qt.ItemDataRole.ForegroundRole:
        return _STATUS_COLOUR
    if role == Qt.ItemDataRole.ToolTipRole:
        return STATUS_TIPS.get(status)
    if role == Qt.ItemDataRole.TextAlignmentRole:
        return Qt.AlignmentFlag.AlignCenter
    return None


AnyIndex = QModelIndex | QPersistentModelIndex
_ROW_FLAGS = (
    Qt.ItemFlag.ItemIsEnabled
    | Qt.ItemFlag.ItemIsSelectable
    | Qt.ItemFlag.ItemIsDragEnabled
    | Qt.ItemFlag.ItemNeverHasChildren
)
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_ROOT = QModelIndex()


def runs(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted rows as (first, last) runs of consecutive rows."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


def merged_runs(spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Spans of rows (top, bottom), in any order and overlapping or not, as sorted runs that
    neither overlap nor touch."""
    merged: list[tuple[int, int]] = []
    for top, bottom in sorted(spans):
        if merged and top <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(bottom, merged[-1][1]))
        else:
            merged.append((top, bottom))
    return tuple(merged)


def column_of(sort: SortKey) -> int:
    """The column that shows a sort key, or -1 for relevance (no column).

    Args:
        sort: A sort key.

    Returns:
        The column index, or -1.
    """
    return SORT_KEYS.index(sort) if sort in SORT_KEYS else -1


def display(row: PaperRow, column: int) -> str:
    if column == TITLE:
        return PROVISIONAL_MARK + row.title if row.title_provisional else row.title
    if column == AUTHOR:
        return row.first_author or row.owner
    if column == YEAR:
        return year_text(row.year, row.publication_status)
    if column == VENUE:
        return row.venue or ""
    if column == STATUS:
        return STATUS_MARKS.get(row.status, "")
    if column == RATING:
        return stars(row.rating)
    return row.added.date().isoformat()


def filled(
    parts: list[tuple[int, int, list[int] | None]], fetch: Callable[[int, int], list[int]]
) -> Distinct[int]:
    """The ids of runs of rows (first, last, ids when known): ``fetch(first, count)`` reads
    the ids not known. Runs of a selection do not overlap and a list shows each paper once,
    so the ids are distinct: a change to them need not make them so again."""
    out: list[int] = []
    for first, last, known in parts:
        out.extend(known if known is not None else fetch(first, last - first + 1))
    return Distinct(out)


def runs_known(
    row_runs: Sequence[tuple[int, int]], count: int, loaded: Callable[[int], PaperRow | None]
) -> list[tuple[int, int, list[int] | None]]:
    """Each run of rows (first, last) within a list of ``count`` rows, with its ids when
    every row of it was read (``loaded``: a row's paper, None when not read)."""
    out: list[tuple[int, int, list[int] | None]] = []
    for first, last in row_runs:
        last = min(last, count - 1)
        if last < first:
            continue
        rows = [loaded(r) for r in range(first, last + 1)] if last - first < 5000 else [None]
        known = [p.id for p in rows if p is not None] if None not in rows else None
        out.append((first, last, known))
    return out


def papers_in(runs: Sequence[tuple[int, int]]) -> int:
    """How many rows (papers) runs of rows (first, last) hold."""
    return sum(last - first + 1 for first, last in runs)


#: The narrowest each column beside the title becomes, in characters, when the list is too
#: narrow for them all (a date of "Added" whole, the five stars of "Rating").
_FLOORS = {AUTHOR: 9, YEAR: 4, VENUE: 6, ADDED: 11, STATUS: 3, RATING: 5}
#: The narrowest any column is, in pixels (the header's own minimum).
NARROWEST = 40
#: The columns a list too narrow even for their floors leaves out first (on screen only).
_LEFT_OUT_FIRST = (ADDED, RATING, VENUE, YEAR, STATUS, AUTHOR)
#: The share of the list's width the title keeps (when the other columns can give it up).
TITLE_SHARE = 0.35


def floor_width(column: int, char: int) -> int:
    """The narrowest a column beside the title becomes in a narrow list, in pixels."""
    return max(NARROWEST, _FLOORS.get(column, 4) * char + 12)


def fitted_widths(
    chosen: dict[int, int], width: int, char: int, title: int | None = None
) -> dict[int, int]:
    """The widths the columns beside the title show in a list ``width`` pixels wide.

    The columns are narrowed from the widths chosen, widest first, down to their floors,
    until the title (which stretches) has :data:`TITLE_SHARE` of the width — or less, the
    width the person left it (``title``) when they chose the widths: a narrow window showed
    titles four letters wide beside whole dates and author names, and a column the person
    widened was narrowed again at the very width they widened it at. When even the floors
    leave the title too little, the columns of least use are left out (Added first, then
    Rating, Venue, Year…), as a mail program's narrow message list does.

    Args:
        chosen: The widths of the columns beside the title, as the person set them.
        width: The list's width.
        char: The font's average character width.
        title: The title's width when the person last set a column's width (None: never).

    Returns:
        The width of each column of ``chosen``; 0 for a column left out.
    """
    kept = int(width * TITLE_SHARE) if title is None else min(title, int(width * TITLE_SHARE))
    room = width - kept
    shown = dict(chosen)
    for column in _LEFT_OUT_FIRST:
        if sum(floor_width(c, char) for c in shown) <= room:
            break
        shown.pop(column, None)
    excess = sum(shown.values()) - room
    for column in sorted(shown, key=shown.__getitem__, reverse=True):
        if excess <= 0:
            break
        cut = min(excess, shown[column] - floor_width(column, char))
        if cut > 0:
            shown[column] -= cut
            excess -= cut
    return {column: shown.get(column, 0) for column in chosen}
