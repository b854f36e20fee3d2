"""Citing from the window: Copy Citation, Copy Citation Key, Copy BibTeX, and Export.

The texts are made by the library service (off the GUI thread, through the window's runner)
from the papers selected; the clipboard gets a citation as both plain text and HTML, so a word
processor keeps its italics. Exports are written to a temporary file beside the chosen one and
renamed, so a failure never leaves half a file.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from PySide6.QtCore import QMimeData, QObject, QPoint, Qt, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from refman.common.text import plural
from refman.core.citation_languages import language_name
from refman.core.citations import STYLES, style_language
from refman.core.export import (
    ExportFormat,
    ExportText,
    KeyChange,
    key_changes_text,
    write_export,
)
from refman.core.values import PaperQuery

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.export_dialog import ExportDialog, Format
from refman.ui.messages import show_error
from refman.ui.paper_table import PaperTable
from refman.ui.preferences import PreferencesDialog
from refman.ui.settings import (
    CITATION_LANGUAGE,
    CITATION_STYLE,
    EXPORT_FOLDER,
    EXPORT_FORMAT,
    EXPORT_NOTES,
    WindowSettings,
)
from refman.ui.window_chrome import LIST_MENU, build_menu

log = logging.getLogger("refman.ui")


def export_formats() -> list[Format]:
    """The formats Export offers, as the dialogs show them."""
    return [Format(f.value, f.label, f.suffix) for f in ExportFormat]


def citation_styles() -> Mapping[str, str]:
    """The citation styles refman ships (id -> name)."""
    return STYLES


def safe_file_name(text: str) -> str:
    """A file name made of a tag name or a word ("to read" -> "to-read")."""
    return re.sub(r"[^\w.-]+", "-", text).strip("-.") or "papers"


def put_on_clipboard(text: str, html: str | None = None) -> None:
    """Put text (and its HTML rendering) on the system clipboard."""
    clipboard = QApplication.clipboard()
    if html is None:
        clipboard.setText(text)
        return
    data = QMimeData()
    data.setText(text)
    data.setHtml(html)
    clipboard.setMimeData(data)


def release_clipboard() -> None:
    """Leave only plain text on the clipboard (when the application quits).

    Qt for Python crashes at exit when the clipboard still holds a QMimeData made in Python
    (seen with PySide6 6.11); text set by Qt itself is safe, and stays pasteable.
    """
    clipboard = QApplication.clipboard()
    data = clipboard.mimeData()
    if data is not None and data.formats():
        clipboard.setText(data.text())


def _copied(tell: Callable[[str], None], said: str) -> Callable[..., None]:
    """Put a text (and its HTML) on the clipboard, then ``tell`` what was copied."""

    def done(text: str, html: str | None = None) -> None:
        put_on_clipboard(text, html)
        tell(said)

    return done


def copy_citation(
    controller: LibraryController,
    ids: Sequence[int],
    style: str,
    tell: Callable[[str], None],
    language: str | None = None,
    *,
    in_text: bool = False,
) -> None:
    """Copy the bibliography entries of papers in a citation style (text and HTML), or with
    ``in_text`` their in-text citation, in the style's language or ``language``; ``tell``
    says so once they are on the clipboard."""
    if not ids:
        return
    service = controller.service
    what = "the in-text citation of " + plural(len(ids), "paper") if in_text else None
    copied = f"Copied {what or plural(len(ids), 'citation')} to the clipboard"
    written = language if language and not style_language(style) else None
    in_language = f", in {language_name(written)}" if written else ""
    done = _copied(tell, f"{copied}, in the style {STYLES.get(style, style)}{in_language}.")
    controller.runner.submit(
        lambda _p, _c: (
            service.cite(ids, style, "text", language, in_text=in_text),
            service.cite(ids, style, "html", language, in_text=in_text),
        ),
        lambda texts: done(*texts),
        label="Formatting the citations…",
    )


def copy_citation_keys(
    controller: LibraryController,
    ids: Sequence[int],
    tell: Callable[[str], None],
) -> None:
    """Copy ``\\cite{a,b}`` for papers; ``tell`` says so once it is on the clipboard."""
    if not ids:
        return
    service = controller.service
    keys = "the citation key" if len(ids) == 1 else "the citation keys"
    controller.runner.submit(
        lambda _p, _c: service.cite_keys(ids),
        _copied(tell, f"Copied {keys} of {plural(len(ids), 'paper')} to the clipboard."),
        label="Reading the citation keys…",
    )


#: What the window says to do about a key written otherwise.
KEY_HINT = "Give those papers keys of their own (Citation key, in the paper's details)."


def warn_of_key_changes(warn: Callable[[str], None], changes: Sequence[KeyChange]) -> None:
    """Say which papers' keys a ``.bib`` text holds otherwise (nothing when none)."""
    if changes:
        warn(f"{key_changes_text(changes)} {KEY_HINT}")


def copy_bibtex(
    controller: LibraryController,
    ids: Sequence[int],
    warn: Callable[[str], None],
    tell: Callable[[str], None],
) -> None:
    """Copy the BibTeX entries of papers; ``warn`` says which keys they hold otherwise,
    ``tell`` that they are on the clipboard."""
    if not ids:
        return
    service = controller.service
    entries = plural(len(ids), "BibTeX entry", "BibTeX entries")
    copied = _copied(tell, f"Copied {entries} to the clipboard.")

    def done(export: ExportText) -> None:
        copied(export.text)
        warn_of_key_changes(warn, export.key_changes)

    controller.runner.submit(
        lambda _p, _c: service.export_text(ids, "bibtex"), done, label="Writing BibTeX…"
    )


def export_to_file(
    controller: LibraryController,
    tell: Callable[[str], None],
    ids: Sequence[int],
    fmt: str,
    path: Path,
    *,
    warn: Callable[[str], None],
    with_notes: bool = False,
) -> None:
    """Export papers to a file, off the GUI thread; ``tell`` says where when it is done,
    ``warn`` which papers' keys the file holds otherwise."""
    service = controller.service

    def work(_progress: object, _cancelled: object) -> tuple[KeyChange, ...]:
        export = service.export_text(ids, fmt, with_notes=with_notes)
        write_export(path, export.text)
        return export.key_changes

    def done(changes: tuple[KeyChange, ...]) -> None:
        log.info("exported %d papers to %s", len(ids), path)
        tell(f"Exported {plural(len(ids), 'paper')} to “{path.name}”.")
        warn_of_key_changes(warn, changes)

    controller.runner.submit(work, done, label=f"Exporting {plural(len(ids), 'paper')}…")


#: The actions that act on the selected papers.
SELECTION_ACTIONS = (
    ActionId.COPY_CITATION,
    ActionId.COPY_IN_TEXT,
    ActionId.COPY_CITEKEY,
    ActionId.COPY_BIBTEX,
    ActionId.EXPORT_SELECTED,
)


class CitingActions(QObject):
    """Connects the window's citing and export actions to the papers they act on.

    The window gives the actions, the selected papers and the current tag (for a tag's
    Export); this object asks where and how, and runs the work.
    """

    def __init__(
        self,
        window: QWidget,
        controller: LibraryController,
        settings: WindowSettings,
        actions: dict[ActionId, QAction],
        table: PaperTable,
        menu_tag: Callable[[], str | None],
        tell: Callable[[str], None],
    ) -> None:
        super().__init__(window)
        self.window = window
        self.controller = controller
        self.settings = settings
        self.actions_by_id = actions
        self.table = table
        self.with_selected = table.with_selected_ids
        self.menu_tag = menu_tag
        self.tell = tell
        table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        table.customContextMenuRequested.connect(self.on_table_context_menu)
        actions[ActionId.EXPORT_TAG].triggered.connect(self.on_export_tag)
        actions[ActionId.COPY_CITATION].triggered.connect(self.on_copy_citation)
        actions[ActionId.COPY_IN_TEXT].triggered.connect(self.on_copy_in_text)
        actions[ActionId.COPY_CITEKEY].triggered.connect(self.on_copy_citekey)
        actions[ActionId.COPY_BIBTEX].triggered.connect(self.on_copy_bibtex)
        actions[ActionId.EXPORT_SELECTED].triggered.connect(self.on_export_selected)
        actions[ActionId.EXPORT_LIBRARY].triggered.connect(self.on_export_library)
        actions[ActionId.PREFERENCES].triggered.connect(self.on_preferences)

    def enable(self, selected: bool) -> None:
        """Copy and Export Selected need selected papers."""
        for action_id in SELECTION_ACTIONS:
            self.actions_by_id[action_id].setEnabled(selected)

    @Slot(QPoint)
    def on_table_context_menu(self, pos: QPoint) -> None:
        """Cite, copy, export or trash the selected papers."""
        if not self.table.has_selection():
            return
        menu = build_menu(self.table, self.actions_by_id, LIST_MENU)
        menu.setObjectName("paperMenu")
        menu.popup(self.table.viewport().mapToGlobal(pos))

    @Slot()
    def on_export_tag(self) -> None:
        """Export the papers of the tag whose menu is open."""
        name = self.menu_tag()
        if name is not None:
            self.export_tag(name)

    @Slot()
    def on_copy_citation(self) -> None:
        """Copy the selected papers' bibliography entries in the style of the preferences."""
        self._copy_citation(in_text=False)

    @Slot()
    def on_copy_in_text(self) -> None:
        """Copy the selected papers' in-text citation in the style of the preferences."""
        self._copy_citation(in_text=True)

    def _copy_citation(self, *, in_text: bool) -> None:
        style = self.settings.get(CITATION_STYLE)
        language = self.settings.get(CITATION_LANGUAGE) or None
        self.with_selected(
            lambda ids: copy_citation(
                self.controller, ids, style, self.tell, language, in_text=in_text
            )
        )

    @Slot()
    def on_copy_citekey(self) -> None:
        """Copy ``\\cite{…}`` for the selected papers."""
        self.with_selected(lambda ids: copy_citation_keys(self.controller, ids, self.tell))

    @Slot()
    def on_copy_bibtex(self) -> None:
        """Copy the selected papers' BibTeX entries."""
        self.with_selected(lambda ids: copy_bibtex(self.controller, ids, self.warn, self.tell))

    @Slot()
    def on_export_selected(self) -> None:
        """Export the selected papers."""
        self.with_selected(
            lambda ids: self.export(ids, plural(len(ids), "selected paper"), "selection")
        )

    @Slot()
    def on_export_library(self) -> None:
        """Export every paper of the library (outside the Trash)."""
        ids = self.controller.service.paper_ids()
        self.export(ids, f"Every paper of the library ({plural(len(ids), 'paper')})", "library")

    def export_tag(self, name: str) -> None:
        """Export the papers carrying a tag."""
        ids = self.controller.service.paper_ids(PaperQuery(tags=(name,)))
        self.export(ids, f"The papers tagged “{name}” ({plural(len(ids), 'paper')})", name)

    def export(self, ids: Sequence[int], what: str, suggested: str) -> None:
        """Ask for the format and the file, then export."""
        if not ids:
            self.tell("There are no papers to export.")
            return
        dialog = ExportDialog(
            what,
            export_formats(),
            self.settings.get(EXPORT_FORMAT),
            self.settings.get(EXPORT_NOTES),
            self.window,
        )
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        folder, name = self.settings.get(EXPORT_FOLDER), safe_file_name(suggested)
        choice = dialog.choice(str(Path(folder) / name) if folder else name)
        if choice is None:
            return
        self.settings.set(EXPORT_FORMAT, choice.format)  # what Export… proposes next time
        self.settings.set(EXPORT_NOTES, choice.with_notes)
        self.settings.set(EXPORT_FOLDER, str(choice.path.parent))
        export_to_file(
            self.controller,
            self.tell,
            ids,
            choice.format,
            choice.path,
            with_notes=choice.with_notes,
            warn=self.warn,
        )

    def warn(self, text: str) -> None:
        """Tell of a problem the person may want to act on (a message beside the window)."""
        show_error(self.window, text, "Citation keys")

    @Slot()
    def on_preferences(self) -> None:
        """Open the Preferences dialog."""
        PreferencesDialog(self.settings, citation_styles(), export_formats(), self.window).exec()
