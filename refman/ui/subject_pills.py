"""A paper's arXiv subjects as rounded pills, named in full ("Machine Learning (cs.LG)")."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from refman.core.subjects import subject_label

from refman.ui.flow_layout import FlowLayout
from refman.ui.look import plain_label

#: Widest a pill's text may be (px), so the pane fits a narrow column.
SUBJECT_WIDTH = 230


class SubjectPills(QWidget):
    """The subjects of one paper, wrapped like words."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("subjects")
        self._flow = FlowLayout(self, h_gap=6, v_gap=4)
        self._pills: list[QLabel] = []
        self.setStyleSheet(
            "QLabel#subject { border: 1px solid palette(mid); border-radius: 10px;"
            " padding: 2px 8px; }"
        )

    def set_subjects(self, codes: Sequence[str]) -> None:
        """Show these subject codes."""
        self._flow.clear()
        self._pills = []
        for code in codes:
            label = subject_label(code)
            pill = plain_label(label, self, wrap=False)
            pill.setObjectName("subject")
            pill.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
            # A long name ("Distributed, Parallel, and Cluster Computing (cs.DC)") must not
            # make the pane wider than its column: shorten it, the tooltip says it whole.
            pill.setAccessibleName(label)
            pill.setToolTip(label)
            pill.setText(
                pill.fontMetrics().elidedText(label, Qt.TextElideMode.ElideMiddle, SUBJECT_WIDTH)
            )
            self._flow.addWidget(pill)
            self._pills.append(pill)

    def texts(self) -> list[str]:
        """The subjects shown, in full (for tests and accessibility)."""
        return [pill.accessibleName() for pill in self._pills]
