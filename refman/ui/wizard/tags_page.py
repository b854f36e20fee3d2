"""The wizard's tags page: tags to put on every imported paper."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence

from PySide6.QtCore import QStringListModel, Qt, Slot
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from refman.common.errors import InvalidValueError
from refman.core.importing.values import ImportChoices, SourcedPage
from refman.core.rules import clean_tag_names, split_tags, tag_key

from refman.ui.controller import LibraryController
from refman.ui.look import ERROR, heading_label, plain_label, set_muted
from refman.ui.tag_chips import TagCompleter


class TagsEdit(QLineEdit):
    """The field of tags typed by hand. Enter takes the tag typed: it completes it from the
    list of tags when that list is open, else it closes the tag with a comma, ready for the
    next one; Enter here never presses the wizard's Import button."""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter takes the tag typed (see the class)."""
        completer = self.completer()
        popup = completer.popup() if completer is not None else None
        completing = popup is not None and popup.isVisible()
        if event.key() not in (Qt.Key.Key_Return, Qt.Key.Key_Enter) or completing:
            super().keyPressEvent(event)  # (the open list completes the tag on Enter)
            return
        tags = split_tags(self.text())
        self.setText(", ".join(tags) + ", " if tags else "")
        event.accept()


class TagsPage(QWizardPage):
    """Suggests the page owners' names as tags, offers subject tags and free tags.

    The page's one output is :meth:`tag_choices`. It is the commit page: its button runs the
    import (Enter does too, but in the tags field, where it takes the tag typed). The focus
    starts on the page's first choice and Tab goes down the page.
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
        self._keywords: list[str] = []
        self._build()

    def _build(self) -> None:
        self.owners_box = QVBoxLayout()
        self.owners_box.setSpacing(4)
        self.no_owner_label = plain_label("The pages do not name their owners.")
        self.subject_check = QCheckBox("Also tag each paper with its arXiv subjects")
        self.subject_check.setObjectName("subjectTagsCheck")
        self.subjects_hint = plain_label()
        set_muted(self.subjects_hint)
        self.tags_edit = TagsEdit()
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
        self._offer_subjects(pages)
        self._keywords = list(
            dict.fromkeys(t for p in pages for r in p.page.records for t in r.tags)
        )
        self.completer_model.setStringList([t.name for t in self.controller.service.tags()])
        self.on_choice_changed()
        self._order_focus()

    def _offer_subjects(self, pages: Sequence[SourcedPage]) -> None:
        """Offer the pages' arXiv subjects as tags (when they list any)."""
        subjects = list(dict.fromkeys(s for p in pages for r in p.page.records for s in r.subjects))
        self.subject_check.setEnabled(bool(subjects))
        if subjects:
            shown = ", ".join(subjects[:8]) + (", …" if len(subjects) > 8 else "")
            self.subjects_hint.setText(f"Subjects on these pages: {shown}")
        else:
            self.subject_check.setChecked(False)
            self.subjects_hint.setText("These pages list no arXiv subjects.")

    def _order_focus(self) -> None:
        """Tab goes down the page (the owners' boxes are made after the rest), and the focus
        starts on the first choice that can take it."""
        chain = [*self.owner_checks, self.subject_check, self.tags_edit]
        for before, after in itertools.pairwise(chain):
            QWidget.setTabOrder(before, after)
        next(w for w in chain if w.isEnabled()).setFocus(Qt.FocusReason.TabFocusReason)

    # -- slots ----------------------------------------------------------------------------------

    def isComplete(self) -> bool:
        """Import is possible unless a tag typed cannot be one (the page says why)."""
        return not self._refusal()

    def _refusal(self) -> str:
        """Why a tag typed cannot be one (too long), or ""."""
        try:
            clean_tag_names(self._tags())
        except InvalidValueError as error:
            return f"{error.message} {error.hint}".strip()
        return ""

    @Slot()
    def on_choice_changed(self) -> None:
        """Say which tags each paper will get (and the keywords of a bibliography's entries:
        each becomes a tag of its entry's paper), or why a tag typed cannot be one."""
        refusal = self._refusal()
        if bool(refusal) != bool(self.preview.property("refused")):
            self.preview.setProperty("refused", bool(refusal))
            self.preview.setStyleSheet(f"color: {ERROR};" if refusal else "")
            self.completeChanged.emit()  # (Import waits for a tag that can be one)
        if refusal:
            self.preview.setText(f"✗  {refusal} Nothing can be imported with it.")
            return
        tags = self._tags()
        extra = " and its arXiv subjects" if self.subject_check.isChecked() else ""
        if tags:
            text = f"Each imported paper will be tagged: {', '.join(tags)}{extra}."
        elif extra:
            text = "Each imported paper will be tagged with its arXiv subjects."
        else:
            text = "No tag will go on every paper." if self._keywords else "No tags will be added."
        if self._keywords:
            shown = ", ".join(self._keywords[:8]) + (", …" if len(self._keywords) > 8 else "")
            text += f"\nThe entries' own keywords become tags of their papers: {shown}."
        self.preview.setText(text)
