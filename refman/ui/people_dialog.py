"""The People window: every author and page owner with their papers, and the names that may
be one person's.

Typing narrows the list at every key (accents and case ignored; a newer key stops the read
of the older one), the first person found selected; a double-click or Enter shows the
person's papers and page in the main window, and Down goes from the field to the list.
Below, spellings that may be the same person are listed with Same person and Not the same;
both can be undone. Everything is read off the GUI thread, again after every change.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, Signal, Slot
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from refman.common.text import plural
from refman.core.people import PEOPLE_SHOWN
from refman.core.people_ops import MergePeople, TellApart
from refman.core.values import Changes, NameVariant, PersonView

from refman.ui.controller import LibraryController
from refman.ui.look import heading_label, plain_label, set_muted, table_cell
from refman.ui.outage import DialogOutage
from refman.ui.read_only import mark_changing

#: The table's columns.
COLUMNS = ("Name", "Papers", "Pages", "New")


def variant_text(variant: NameVariant) -> str:
    """ "“Z. Jiang” (2 papers) and “Zhuo Jiang” (5 papers): 3 in common"."""
    a, b = variant.first, variant.second
    return (
        f"“{b.name}” ({plural(b.count, 'paper')}) and “{a.name}” "
        f"({plural(a.count, 'paper')}): {variant.overlap} in common"
    )


class PeopleDialog(QDialog):
    """Everyone with papers in the library, and proposals of one person under two names.

    Signals:
        person_chosen(int): Show this person's papers and page in the main window.
        people_merged(int, int): Two spellings were made one person: the one kept, then the
            one merged into them.
    """

    person_chosen = Signal(int)
    people_merged = Signal(int, int)

    def __init__(self, controller: LibraryController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("peopleDialog")
        self.setWindowTitle("People")
        self.controller = controller
        self.variants: list[NameVariant] = []
        self._reads = controller.lists.channel(self)
        self._build()
        controller.changed.connect(self.on_changed)
        self.resize(620, 640)
        self.refresh()

    def _build(self) -> None:
        self.filter = QLineEdit(self)
        self.filter.setObjectName("peopleFilter")
        self.filter.setPlaceholderText("Find a person")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._ask_people)
        self.filter.installEventFilter(self)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("peopleTable")
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.doubleClicked.connect(self.on_double_clicked)
        self.count = plain_label("", self)
        self.count.setObjectName("peopleCount")
        set_muted(self.count)
        self.show_button = QPushButton("Show Papers", self)
        self.show_button.setObjectName("showPerson")
        self.show_button.setDefault(True)
        self.show_button.clicked.connect(self.choose_current)

        self.variant_list = QListWidget(self)
        self.variant_list.setObjectName("variantList")
        self.variant_list.setMaximumHeight(120)
        self.merge_button = QPushButton("Same Person", self)
        self.merge_button.setObjectName("mergePeople")
        self.merge_button.setToolTip("Make the two one person (the one with more papers stays)")
        self.apart_button = QPushButton("Not the Same", self)
        self.apart_button.setObjectName("notSamePeople")
        self.apart_button.setToolTip("Never propose these two as one person again")
        mark_changing(self.merge_button, self.apart_button)
        self.merge_button.clicked.connect(self.merge_selected)
        self.apart_button.clicked.connect(self.tell_apart_selected)
        self.variant_list.itemSelectionChanged.connect(self._enable)

        buttons = QHBoxLayout()
        buttons.addWidget(self.count, 1)
        buttons.addWidget(self.show_button)
        variant_buttons = QHBoxLayout()
        variant_buttons.addStretch(1)
        variant_buttons.addWidget(self.merge_button)
        variant_buttons.addWidget(self.apart_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.variant_heading = heading_label("May be the same person", self)
        layout.addWidget(self.variant_heading)
        layout.addWidget(self.variant_list)
        layout.addLayout(variant_buttons)
        self.outage = DialogOutage(self, layout)
        self._enable()

    # -- reading ----------------------------------------------------------------------------

    def refresh(self) -> None:
        """Read the people and the proposals again (off the GUI thread)."""
        self._ask_people()
        self._reads.ask(lambda reader: reader.name_variants(), self._show_variants)

    @Slot()
    def _ask_people(self) -> None:
        """Read the people named like the filter (a read still running for an older text
        is stopped)."""
        text = self.filter.text()
        self._reads.new_generation()
        self._reads.ask(lambda reader: reader.everyone(text), self._show_people)

    def _show_people(self, found: tuple[list[PersonView], int]) -> None:
        people, total = found
        keep = self.current_person()
        self.table.setRowCount(len(people))
        for row, p in enumerate(people):
            self.table.setItem(row, 0, table_cell(p.name, p.id))
            self.table.setItem(row, 1, table_cell(f"{p.count:,}", p.id, number=True))
            self.table.setItem(
                row, 2, table_cell(f"{p.pages:,}" if p.pages else "", p.id, number=True)
            )
            self.table.setItem(
                row, 3, table_cell(f"{p.new:,} new" if p.new else "", p.id, number=True)
            )
            if p.id == keep:
                self.table.selectRow(row)
        if people and self.current_person() is None:
            self.table.selectRow(0)  # (Enter in the field shows the first person found)
        if self.filter.text().strip():
            shown = f" (the {len(people):,} with most papers)" if total > len(people) else ""
            self.count.setText(f"{plural(total, 'person', 'people')} named like this{shown}")
        elif total > len(people):
            self.count.setText(
                f"The {min(len(people), PEOPLE_SHOWN):,} with most papers of {total:,} people; "
                "type a name to find anyone"
            )
        else:
            self.count.setText(plural(total, "person", "people"))
        self._enable()

    def _show_variants(self, variants: list[NameVariant]) -> None:
        self.variants = variants
        self.variant_list.clear()
        for variant in variants:
            QListWidgetItem(variant_text(variant), self.variant_list)
        if variants:
            self.variant_list.setCurrentRow(0)
        self.variant_heading.setText(
            f"May be the same person ({len(variants)})" if variants else "May be the same person"
        )
        self.variant_list.setVisible(bool(variants))
        self._enable()

    def _enable(self) -> None:
        self.show_button.setEnabled(self.current_person() is not None)
        chosen = self.variant_list.currentRow() >= 0 and bool(self.variants)
        self.merge_button.setEnabled(chosen)
        self.apart_button.setEnabled(chosen)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Down in the search field goes on to the list (as in the main window)."""
        if (
            watched is self.filter
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Down
            and self.table.rowCount()
        ):
            self.table.setFocus(Qt.FocusReason.TabFocusReason)
            return True
        return super().eventFilter(watched, event)

    # -- acting -----------------------------------------------------------------------------

    def _person_at(self, row: int) -> int | None:
        item = self.table.item(row, 0)
        value = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return int(value) if value is not None else None

    def current_person(self) -> int | None:
        """The id of the selected person, or None."""
        rows = self.table.selectionModel().selectedRows()
        return self._person_at(rows[0].row()) if rows else None

    @Slot()
    def choose_current(self) -> None:
        """Show the selected person in the main window."""
        pid = self.current_person()
        if pid is not None:
            self.person_chosen.emit(pid)

    @Slot(QModelIndex)
    def on_double_clicked(self, index: QModelIndex) -> None:
        """A double-click shows the person."""
        pid = self._person_at(index.row())
        if pid is not None:
            self.person_chosen.emit(pid)

    def _selected_variant(self) -> NameVariant | None:
        row = self.variant_list.currentRow()
        return self.variants[row] if 0 <= row < len(self.variants) else None

    @Slot()
    def merge_selected(self) -> None:
        """Make the selected proposal one person (Undo splits them again)."""
        v = self._selected_variant()
        if v is not None:
            op = MergePeople(v.first.id, v.second.id, v.first.name, v.second.name)
            kept, merged = v.first.id, v.second.id
            self.controller.apply(op, lambda _outcome: self.people_merged.emit(kept, merged))

    @Slot()
    def tell_apart_selected(self) -> None:
        """Never propose the selected two as one person again (Undo proposes them again)."""
        v = self._selected_variant()
        if v is not None:
            self.controller.apply(TellApart(v.first.id, v.second.id))

    @Slot(object)
    def on_changed(self, changes: Changes) -> None:
        """Read everything again after a change that may move the counts."""
        if changes.people or changes.structure:
            self.refresh()
