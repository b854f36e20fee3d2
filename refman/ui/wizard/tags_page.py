"""The wizard's tags page: tags to put on every imported paper."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from PySide6.QtCore import QStringListModel, Qt, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from refman.core.importing.values import ImportChoices, SourcedPage
from refman.core.rules import split_tags, tag_key

from refman.ui.controller import LibraryController
from refman.ui.look import heading_label, plain_label, set_muted
from refman.ui.tag_chips import TagCompleter


class TagsPage(QWizardPage):
    """Suggests the page owners' names as tags, offers subject tags and free tags.

    The page's one output is :meth:`tag_choices`. It is the commit page: its button runs the
    import.
    """

    def __init__(
        self,
        controller: LibraryController,
        pages: Callable[[], Sequence[SourcedPage]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("tagsPage")
        self.setTitle("Tag the imported papers")
        self.setSubTitle("Tags go on every paper of this import, new or merged. All are optional.")
        self.setCommitPage(True)
        self.setButtonText(QWizard.WizardButton.CommitButton, "Import")
        self.controller = controller
        self._pages_source = pages
        self.owner_checks: list[QCheckBox] = []
        self._build()

    def _build(self) -> None:
        self.owners_box = QVBoxLayout()
        self.owners_box.setSpacing(4)
        self.no_owner_label = plain_label("The pages do not name their owners.")
        self.subject_check = QCheckBox("Also tag each paper with its arXiv subjects")
        self.subject_check.setObjectName("subjectTagsCheck")
        self.subjects_hint = plain_label()
        set_muted(self.subjects_hint)
        self.tags_edit = QLineEdit()
        self.tags_edit.setObjectName("tagsEdit")
        self.tags_edit.setPlaceholderText("Comma-separated, e.g. to read, systems")
        self.tags_edit.setClearButtonEnabled(True)
        self.completer_model = QStringListModel(self)
        completer = TagCompleter(self.completer_model, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.tags_edit.setCompleter(completer)
        self.preview = plain_label()
        self.preview.setObjectName("tagsPreview")

        layout = QVBoxLayout(self)
        layout.addWidget(heading_label("Page owners"))
        layout.addLayout(self.owners_box)
        layout.addWidget(self.no_owner_label)
        layout.addSpacing(10)
        layout.addWidget(heading_label("Subjects"))
        layout.addWidget(self.subject_check)
        layout.addWidget(self.subjects_hint)
        layout.addSpacing(10)
        layout.addWidget(heading_label("Other tags"))
        form = QFormLayout()
        form.addRow("Tags:", self.tags_edit)
        layout.addLayout(form)
        layout.addSpacing(16)
        layout.addWidget(self.preview)
        layout.addStretch(1)
        self.subject_check.toggled.connect(self.on_choice_changed)
        self.tags_edit.textChanged.connect(self.on_choice_changed)

    # -- the page's one output ----------------------------------------------------------------

    def tag_choices(self, choices: ImportChoices) -> ImportChoices:
        """Return ``choices`` with this page's tags and subject option.

        Args:
            choices: The choices made so far (records to skip, titles, ...).

        Returns:
            The same choices with ``tags`` and ``subject_tags`` set.
        """
        return dataclasses.replace(
            choices, tags=tuple(self._tags()), subject_tags=self.subject_check.isChecked()
        )

    def _tags(self) -> list[str]:
        wanted = [str(c.property("tag")) for c in self.owner_checks if c.isChecked()]
        wanted += split_tags(self.tags_edit.text())
        unique: dict[str, str] = {}
        for tag in wanted:  # an owner's name may hold a comma: no splitting here
            unique.setdefault(tag_key(tag), tag)
        return list(unique.values())

    # -- QWizardPage ----------------------------------------------------------------------------

    def initializePage(self) -> None:
        """Offer the owners of the pages being imported and the existing tags."""
        pages = list(self._pages_source())
        was_checked = {str(c.property("tag")) for c in self.owner_checks if c.isChecked()}
        for check in self.owner_checks:
            self.owners_box.removeWidget(check)
            check.deleteLater()
        self.owner_checks = []
        for owner in dict.fromkeys(p.page.owner for p in pages if p.page.owner):
            check = QCheckBox(f"Tag with “{owner}”")
            check.setObjectName("ownerTagCheck")
            check.setProperty("tag", owner)
            check.setChecked(owner in was_checked)
            check.toggled.connect(self.on_choice_changed)
            self.owners_box.addWidget(check)
            self.owner_checks.append(check)
        self.no_owner_label.setVisible(not self.owner_checks)
        subjects = list(dict.fromkeys(s for p in pages for r in p.page.records for s in r.subjects))
        self.subject_check.setEnabled(bool(subjects))
        if subjects:
            shown = ", ".join(subjects[:8]) + (", …" if len(subjects) > 8 else "")
            self.subjects_hint.setText(f"Subjects on these pages: {shown}")
        else:
            self.subject_check.setChecked(False)
            self.subjects_hint.setText("These pages list no arXiv subjects.")
        self.completer_model.setStringList([t.name for t in self.controller.service.tags()])
        self.on_choice_changed()

    # -- slots ----------------------------------------------------------------------------------

    @Slot()
    def on_choice_changed(self) -> None:
        """Say which tags each paper will get."""
        tags = self._tags()
        extra = " and its arXiv subjects" if self.subject_check.isChecked() else ""
        if tags:
            self.preview.setText(f"Each imported paper will be tagged: {', '.join(tags)}{extra}.")
        elif extra:
            self.preview.setText("Each imported paper will be tagged with its arXiv subjects.")
        else:
            self.preview.setText("No tags will be added.")
