"""The review table's model: one row per parsed record of an import plan, with the user's
choices (import or skip, merge or keep separate, typed titles)."""

from __future__ import annotations

import enum

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QApplication

from refman.common.editor_line import editor_line
from refman.common.text import squash_spaces
from refman.core.contributors import editor_names
from refman.core.importing.values import (
    ImportChoices,
    ImportPlan,
    RecordPlan,
    RecordRef,
    RecordStatus,
)
from refman.core.importing.wording import (
    duplicate_text,
    likeness_text,
    merge_text,
    page_names,
    repeat_text,
)
from refman.core.publication_status import publication_status, year_text

from refman.ui.look import MERGE, NEW, REPEAT, muted, status_dot

Index = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()


class Column(enum.IntEnum):
    """The review table's columns."""

    IMPORT = 0
    TITLE = 1
    AUTHORS = 2
    YEAR = 3
    VENUE = 4
    SUBJECTS = 5
    STATUS = 6


HEADERS = {
    Column.IMPORT: "#",
    Column.TITLE: "Title",
    Column.AUTHORS: "Authors",
    Column.YEAR: "Year",
    Column.VENUE: "Venue",
    Column.SUBJECTS: "Subjects",
    Column.STATUS: "Status",
}
#: The record's abstract (str).
ABSTRACT_ROLE = Qt.ItemDataRole.UserRole + 1
#: The row's :class:`RecordPlan`.
PLAN_ROLE = Qt.ItemDataRole.UserRole + 2
#: For a possible duplicate: True when the user keeps it as a separate paper.
KEEP_SEPARATE_ROLE = Qt.ItemDataRole.UserRole + 3

_STATUS_COLOURS = {
    RecordStatus.NEW: NEW,
    RecordStatus.MERGE: MERGE,
    RecordStatus.POSSIBLE_DUPLICATE: "#c77700",
    RecordStatus.REPEAT: REPEAT,
}
_NEEDS_TITLE_COLOUR = "#c77700"
_LEFT_OUT_COLOUR = "#bdbdbd"
_REPEAT_DETAIL = "The paper is imported once, with the details of both records."
#: The status of a row the user unchecked.
LEFT_OUT = "Left out — will not be imported"


class ReviewModel(QAbstractTableModel):
    """Rows of an :class:`ImportPlan` with checkboxes, editable titles and duplicate choices.

    The model only records the user's decisions; :meth:`record_choices` hands them over as
    :class:`ImportChoices`.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._plan: ImportPlan | None = None
        self._plans: tuple[RecordPlan, ...] = ()
        self._rows: dict[RecordRef, int] = {}
        self._skip: set[RecordRef] = set()
        self._apart: dict[RecordRef, bool] = {}  # possible duplicates: kept apart (True)
        self._titles: dict[RecordRef, str] = {}

    # -- loading and reading out -------------------------------------------------------------

    def set_plan(self, plan: ImportPlan | None, made: ImportChoices | None = None) -> None:
        """Show a plan; every record starts checked, duplicates merge (but for those worded
        apart from their look-alike: :attr:`RecordPlan.apart`), titles as suggested — but
        for the choices ``made`` before on its records (on a plan of the same pages)."""
        self.beginResetModel()
        self._plan = plan
        self._plans = plan.review_order() if plan is not None else ()
        self._rows = {p.ref: row for row, p in enumerate(self._plans)}
        made = made or ImportChoices()
        here = {p.ref: p for p in self._plans}
        self._skip = {ref for ref in made.skip if ref in here}
        duplicates = {r for r, p in here.items() if p.status is RecordStatus.POSSIBLE_DUPLICATE}
        chosen = (made.keep_separate | made.merge) & duplicates
        self._apart = {ref: ref in made.keep_separate for ref in chosen}
        self._titles = {r: t for r, t in made.titles.items() if r in here and here[r].needs_title}
        self.endResetModel()

    def plan_at(self, row: int) -> RecordPlan:
        """The plan of a row."""
        return self._plans[row]

    def record_choices(self) -> ImportChoices:
        """The user's decisions: skipped records, duplicates kept apart and typed titles."""
        duplicates = [p for p in self._plans if p.status is RecordStatus.POSSIBLE_DUPLICATE]
        return ImportChoices(
            skip=frozenset(self._skip),
            keep_separate=frozenset(p.ref for p in duplicates if self.kept_apart(p)),
            merge=frozenset(p.ref for p in duplicates if p.apart and not self.kept_apart(p)),
            titles=dict(self._titles),
        )

    def offers_choice(self, plan: RecordPlan) -> bool:
        """Whether the row's status is a merge / keep separate choice: a possible duplicate
        that is checked (an unchecked row is left out, whatever it is)."""
        return plan.status is RecordStatus.POSSIBLE_DUPLICATE and plan.ref not in self._skip

    def kept_apart(self, plan: RecordPlan) -> bool:
        """Whether a possible duplicate becomes a paper of its own, as the row says now."""
        return self._apart.get(plan.ref, plan.apart)

    def checked_count(self) -> int:
        """How many records will be imported."""
        return len(self._plans) - len(self._skip)

    def set_all_checked(self, checked: bool) -> None:
        """Check or uncheck every row."""
        self.set_rows_checked(range(len(self._plans)), checked)

    def set_rows_checked(self, rows: range | list[int], checked: bool) -> None:
        """Check or uncheck some rows."""
        for row in rows:
            ref = self._plans[row].ref
            if checked:
                self._skip.discard(ref)
            else:
                self._skip.add(ref)
        if self._plans:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._plans) - 1, Column.STATUS))

    # -- Qt model API --------------------------------------------------------------------------

    def rowCount(self, parent: Index = _ROOT) -> int:
        """One row per record."""
        return 0 if parent.isValid() else len(self._plans)

    def columnCount(self, parent: Index = _ROOT) -> int:
        """The columns of :class:`Column`."""
        return 0 if parent.isValid() else len(Column)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        """Column titles."""
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS.get(Column(section)) if 0 <= section < len(Column) else None
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        """Checkable first column; editable title (needs a title) and status (duplicate)."""
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        plan = self._plans[index.row()]
        if index.column() == Column.IMPORT:
            flags |= Qt.ItemFlag.ItemIsUserCheckable
        elif (index.column() == Column.TITLE and plan.needs_title) or (
            index.column() == Column.STATUS and self.offers_choice(plan)
        ):
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        """Cell contents."""
        if not index.isValid() or not 0 <= index.row() < len(self._plans):
            return None
        plan = self._plans[index.row()]
        column = Column(index.column())
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self._text(plan, column, tooltip=role == Qt.ItemDataRole.ToolTipRole)
        if role == Qt.ItemDataRole.EditRole:
            return self._edit_value(plan, column)
        if role in (ABSTRACT_ROLE, PLAN_ROLE, KEEP_SEPARATE_ROLE):
            return {
                ABSTRACT_ROLE: plan.record.abstract,
                PLAN_ROLE: plan,
                KEEP_SEPARATE_ROLE: self.kept_apart(plan),
            }[role]
        return self._look(plan, column, role)

    def _edit_value(self, plan: RecordPlan, column: Column) -> object:
        if column == Column.TITLE:
            return self._titles.get(plan.ref, plan.record.title)
        if column == Column.STATUS:
            return self.kept_apart(plan)
        return self._text(plan, column)

    def _look(self, plan: RecordPlan, column: Column, role: int) -> object:
        """Check boxes, status dots, italics for suggested titles, muted skipped rows."""
        if role == Qt.ItemDataRole.CheckStateRole and column == Column.IMPORT:
            skipped = plan.ref in self._skip
            return Qt.CheckState.Unchecked if skipped else Qt.CheckState.Checked
        if role == Qt.ItemDataRole.DecorationRole and column == Column.STATUS:
            if plan.ref in self._skip:
                return status_dot(_LEFT_OUT_COLOUR)
            return status_dot(
                _NEEDS_TITLE_COLOUR if plan.needs_title else _STATUS_COLOURS[plan.status]
            )
        if role == Qt.ItemDataRole.FontRole and column == Column.TITLE and self._suggested(plan):
            font = QFont()
            font.setItalic(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and plan.ref in self._skip:
            return muted(QApplication.palette() if QApplication.instance() else QPalette())
        return None

    def setData(self, index: Index, value: object, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """Record a choice: checkbox, typed title, or merge / keep separate."""
        if not index.isValid():
            return False
        plan = self._plans[index.row()]
        column = Column(index.column())
        if role == Qt.ItemDataRole.CheckStateRole and column == Column.IMPORT:
            checked = Qt.CheckState(value) == Qt.CheckState.Checked
            self.set_rows_checked([index.row()], checked)
            return True
        if role == Qt.ItemDataRole.EditRole and column == Column.TITLE and plan.needs_title:
            self._type_title(index.row(), plan, squash_spaces(str(value or "")))
            return True
        if role in (Qt.ItemDataRole.EditRole, KEEP_SEPARATE_ROLE) and column == Column.STATUS:
            return self._keep_apart(index.row(), plan, bool(value))
        return False

    def _type_title(self, row: int, plan: RecordPlan, typed: str) -> None:
        """A title typed for a record without one (repeats of it show it too)."""
        if typed and typed != plan.record.title:
            self._titles[plan.ref] = typed
        else:
            self._titles.pop(plan.ref, None)
        self._row_changed(row)
        for other_row, other in enumerate(self._plans):
            if other.target_ref == plan.ref and other.status is RecordStatus.REPEAT:
                self._row_changed(other_row)

    def _keep_apart(self, row: int, plan: RecordPlan, keep: bool) -> bool:
        """Merge a possible duplicate (False) or keep it as a paper of its own (True)."""
        if plan.status is not RecordStatus.POSSIBLE_DUPLICATE:
            return False
        self._apart[plan.ref] = keep
        self._row_changed(row)
        return True

    # -- helpers -------------------------------------------------------------------------------

    def shown_title(self, plan: RecordPlan) -> str:
        """The title a row shows: typed, the paper's it joins (merge, repeat), or the page's."""
        if plan.ref in self._titles:
            return self._titles[plan.ref]
        if plan.record.title_provisional and plan.status is RecordStatus.MERGE:
            return plan.target_title or plan.record.title
        repeated = self._repeated(plan)
        if repeated is not None:
            return self.shown_title(repeated)
        return plan.record.title

    def _suggested(self, plan: RecordPlan) -> bool:
        """True when the row shows a title suggested from the abstract."""
        if plan.record.title_provisional and plan.status is RecordStatus.MERGE:
            return not plan.target_title
        repeated = self._repeated(plan)
        if repeated is not None:
            return self._suggested(repeated)
        return plan.record.title_provisional and plan.ref not in self._titles

    def _repeated(self, plan: RecordPlan) -> RecordPlan | None:
        """For a repeat without a title of its own: the earlier record whose paper it joins."""
        if plan.record.title_provisional and plan.status is RecordStatus.REPEAT:
            row = self._rows.get(plan.target_ref) if plan.target_ref else None
            if row is not None:
                return self._plans[row]
        return None

    def empty_columns(self) -> list[Column]:
        """Columns with no text in any row (e.g. no years on an author-abstracts page)."""
        return [
            column
            for column in (Column.AUTHORS, Column.YEAR, Column.VENUE, Column.SUBJECTS)
            if not any(self._text(p, column) for p in self._plans)
        ]

    def _row_changed(self, row: int) -> None:
        self.dataChanged.emit(self.index(row, 0), self.index(row, Column.STATUS))

    def _text(self, plan: RecordPlan, column: Column, *, tooltip: bool = False) -> str | None:
        if column == Column.IMPORT:
            return None if tooltip else str(self._rows[plan.ref] + 1)
        if column == Column.TITLE:
            return self._title_text(plan, tooltip)
        if column == Column.STATUS:
            return self._status_text(plan, tooltip)
        record = plan.record
        if column == Column.AUTHORS:
            names = ", ".join(record.authors)
            if not names:  # an edited book: its editors, marked so
                return editor_line(editor_names(record.extra), every=True)
            return names if record.authors_complete else f"{names} et al."
        if column == Column.YEAR:
            return year_text(record.year, publication_status(record.extra))
        if column == Column.VENUE:
            return record.venue or ""
        return " ".join(record.subjects)

    def _title_text(self, plan: RecordPlan, tooltip: bool) -> str:
        title = self.shown_title(plan)
        if tooltip and plan.needs_title and plan.ref not in self._titles:
            return f"{title}\n(suggested from the abstract; double-click to type a title)"
        return title

    def _status_text(self, plan: RecordPlan, tooltip: bool) -> str:
        text = self.status_text(plan)
        if not tooltip:
            return text
        if plan.ref in self._skip:
            return f"{text}\nCheck the row to import the record."
        if plan.status is RecordStatus.POSSIBLE_DUPLICATE:
            return f"{text}\n{self._duplicate_detail(plan)}"
        if plan.status is RecordStatus.REPEAT:
            return f"{text}\n{_REPEAT_DETAIL}"
        return text

    def _duplicate_detail(self, plan: RecordPlan) -> str:
        """How alike a possible duplicate is to what, and what the choice does."""
        choose = "Choose whether to merge it or keep it as a separate paper."
        likeness = likeness_text(plan)
        if not likeness:
            return choose
        if plan.target_id is not None:
            what = "The paper in the library"
        else:
            row = self._rows.get(plan.target_ref) if plan.target_ref else None
            what = f"Row {row + 1} of this import" if row is not None else "A paper of this import"
            if plan.target_ref and self._plan and plan.target_ref[0] != plan.ref[0]:
                names = page_names([(p.owner, p.source) for p in self._plan.pages])
                what += f" (on {names[plan.target_ref[0]]})"
        return f"{what} is {likeness}.\n{choose}"

    def status_text(self, plan: RecordPlan) -> str:
        """The Status column's text for a record (its tooltip adds the details)."""
        if plan.ref in self._skip:
            return LEFT_OUT
        if plan.status is RecordStatus.MERGE:
            return merge_text(plan)
        if plan.status is RecordStatus.POSSIBLE_DUPLICATE:
            return duplicate_text(plan, self.kept_apart(plan))
        if plan.status is RecordStatus.REPEAT:
            row = self._rows.get(plan.target_ref) if plan.target_ref else None
            title = self.shown_title(self._plans[row]) if row is not None else ""
            return repeat_text(self._plan, plan, row, title)
        if plan.needs_title:
            return "New — title typed by you" if plan.ref in self._titles else "Needs a title"
        return "New"
