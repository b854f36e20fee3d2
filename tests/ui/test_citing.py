"""Citing from the window: Copy Citation (text and HTML on the clipboard), Copy Citation Key,
Copy BibTeX, the style chosen in Preferences, and Export from the menus and a tag's menu."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from bibtexparser.entrypoint import parse_string
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
)
from pytestqt.qtbot import QtBot
from sqlalchemy import update

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord, PersonName
from refman.store.models import Paper
from tests.helpers.fixtures import settle

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.export_dialog import ExportDialog
from refman.ui.main_window import MainWindow
from refman.ui.preferences import PreferencesDialog
from refman.ui.settings import CITATION_LANGUAGE, CITATION_STYLE, EXPORT_FORMAT, WindowSettings

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


@pytest.fixture
def ids(library: LibraryService) -> list[int]:
    """Two journal articles, the first tagged "to read"."""
    records = [
        ParsedRecord(
            "Attention Is All You Need",
            False,
            "The dominant sequence transduction models are based on recurrent networks.",
            year=2017,
            venue="Advances in Neural Information Processing Systems",
            type="paper-conference",
            authors=("Ashish Vaswani", "Noam Shazeer"),
            author_names=(PersonName("Vaswani", "Ashish"), PersonName("Shazeer", "Noam")),
            authors_complete=True,
            pages="5998-6008",
        ),
        ParsedRecord(
            "Deep Residual Learning for Image Recognition",
            False,
            "Deeper neural networks are more difficult to train; we present a residual scheme.",
            year=2016,
            venue="CVPR",
            type="paper-conference",
            authors=("Kaiming He",),
            author_names=(PersonName("He", "Kaiming"),),
            authors_complete=True,
            doi="10.1109/CVPR.2016.90",
        ),
    ]
    page = ParsedPage("", PageFormat.BIBTEX, None, records)
    new = list(library.import_pages([SourcedPage(page, "refs.bib")]).new_ids)
    library.tag(new[:1], ["to read"])
    return new


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, ids: list[int], tmp_path: Path
) -> Iterator[MainWindow]:
    made = MainWindow(controller, WindowSettings(tmp_path / "settings.ini"))
    qtbot.add_widget(made)
    made.show()
    qtbot.wait_exposed(made)
    yield made


def clipboard() -> tuple[str, str]:
    data = QApplication.clipboard().mimeData()
    assert data is not None
    return data.text(), data.html()


def test_copy_citation_puts_text_and_html_in_the_chosen_style(
    qtbot: QtBot, window: MainWindow, ids: list[int]
) -> None:
    window.table.select_paper(ids[0])
    action = window.actions_by_id[ActionId.COPY_CITATION]
    assert action.isEnabled() and action.shortcut().toString() == "Ctrl+Shift+C"
    action.trigger()
    settle(window.controller)
    text, html = clipboard()
    assert text.startswith("Vaswani, A., & Shazeer, N. (2017). Attention Is All You Need.")
    assert "<i>Advances in Neural Information Processing Systems</i>" in html
    said = "Copied 1 citation to the clipboard, in the style APA (7th edition)."
    assert window.statusBar().currentMessage() == said  # (it said nothing)

    window.settings.set(CITATION_STYLE, "ieee")
    action.trigger()
    settle(window.controller)
    text, _ = clipboard()
    assert text.startswith("[1] A. Vaswani and N. Shazeer, “Attention Is All You Need,”")


def test_copy_citation_key_and_bibtex(qtbot: QtBot, window: MainWindow, ids: list[int]) -> None:
    window.table.selectAll()
    window.actions_by_id[ActionId.COPY_CITEKEY].trigger()
    settle(window.controller)
    keys = [window.controller.service.paper(i).citekey for i in ids]
    assert clipboard()[0] in (f"\\cite{{{keys[0]},{keys[1]}}}", f"\\cite{{{keys[1]},{keys[0]}}}")
    status = window.statusBar()
    assert status.currentMessage() == "Copied the citation keys of 2 papers to the clipboard."
    window.actions_by_id[ActionId.COPY_BIBTEX].trigger()
    settle(window.controller)
    entries = parse_string(clipboard()[0]).entries
    assert sorted(e.key for e in entries) == sorted(k for k in keys if k)
    assert status.currentMessage() == "Copied 2 BibTeX entries to the clipboard."


def test_the_preferences_remember_the_style(qtbot: QtBot, window: MainWindow) -> None:
    dialog = PreferencesDialog(window.settings, {"apa": "APA", "ieee": "IEEE"}, [], window)
    qtbot.add_widget(dialog)
    dialog.style_combo.setCurrentIndex(dialog.style_combo.findData("ieee"))
    dialog.accept()
    assert WindowSettings(window.settings.path).get(CITATION_STYLE) == "ieee"


def test_citations_are_copied_in_the_language_chosen_in_the_preferences(
    qtbot: QtBot, window: MainWindow, ids: list[int]
) -> None:
    def choose(dialog: QDialog) -> None:
        assert isinstance(dialog, PreferencesDialog)
        styles, languages = dialog.style_combo, dialog.language_combo
        assert languages.currentData() == "" and languages.isEnabled()
        styles.setCurrentIndex(styles.findData("nature"))  # written in British English only
        assert not languages.isEnabled()
        assert languages.toolTip() == "Nature is always written in English (UK)."
        styles.setCurrentIndex(styles.findData("ieee"))
        assert languages.isEnabled()
        languages.setCurrentIndex(languages.findData("de-DE"))
        assert languages.currentText() == "Deutsch (Deutschland) — German (Germany) (de-DE)"
        dialog.accept()

    on_next_dialog(qtbot, PreferencesDialog, choose)
    window.actions_by_id[ActionId.PREFERENCES].trigger()
    assert WindowSettings(window.settings.path).get(CITATION_LANGUAGE) == "de-DE"
    window.table.select_paper(ids[0])
    window.actions_by_id[ActionId.COPY_CITATION].trigger()
    settle(window.controller)
    text, html = clipboard()
    assert text.startswith("[1] A. Vaswani und N. Shazeer, „Attention Is All You Need“,")
    assert "S. 5998–6008" in text and "„Attention Is All You Need“" in html
    assert window.statusBar().currentMessage() == (
        "Copied 1 citation to the clipboard, in the style IEEE, in Deutsch (Deutschland) — "
        "German (Germany)."
    )


def test_copy_in_text_citation_puts_the_papers_citation_on_the_clipboard(
    qtbot: QtBot, window: MainWindow, ids: list[int]
) -> None:
    window.table.selectAll()
    action = window.actions_by_id[ActionId.COPY_IN_TEXT]
    assert action.shortcut().toString() == "Ctrl+Shift+I"
    qtbot.keyClick(
        window.table,
        Qt.Key.Key_I,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    settle(window.controller)
    text, html = clipboard()
    assert text == "(He, 2016; Vaswani & Shazeer, 2017)"
    assert html == "(He, 2016; Vaswani &#38; Shazeer, 2017)"  # (HTML, as citeproc-js writes it)
    assert window.statusBar().currentMessage() == (
        "Copied the in-text citation of 2 papers to the clipboard, in the style APA (7th edition)."
    )
    window.settings.set(CITATION_STYLE, "ieee")
    action.trigger()
    settle(window.controller)
    assert clipboard()[0] == "[1], [2]"


def on_next_dialog(qtbot: QtBot, kind: type[QDialog], act: Callable[[QDialog], None]) -> None:
    """When the next modal dialog of a kind opens, act on it (as the user would)."""

    def poll() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, kind) and dialog.isVisible():
            act(dialog)
        else:
            QTimer.singleShot(10, poll)

    QTimer.singleShot(0, poll)


def save_as(target: Path) -> Callable[[QDialog], None]:
    """Type a file name into the save dialog and press Save."""

    def act(dialog: QDialog) -> None:
        assert isinstance(dialog, QFileDialog)
        dialog.selectFile(str(target))
        dialog.accept()

    return act


def test_export_from_a_tags_menu_writes_that_tags_papers(
    qtbot: QtBot, window: MainWindow, ids: list[int], tmp_path: Path
) -> None:
    target = tmp_path / "to-read.bib"
    seen: list[str] = []

    def choose_bibtex(dialog: QDialog) -> None:
        label = dialog.findChild(QLabel, "exportWhat")
        assert label is not None
        seen.append(label.text())
        combo = dialog.findChild(QComboBox, "exportFormat")
        assert combo is not None
        combo.setCurrentIndex(combo.findData("bibtex"))
        on_next_dialog(qtbot, QFileDialog, save_as(target))
        ok = dialog.findChild(QDialogButtonBox)
        assert ok is not None
        qtbot.mouseClick(ok.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    on_next_dialog(qtbot, ExportDialog, choose_bibtex)
    menu = window.tag_pane.build_tag_menu("to read")
    export = next(a for a in menu.actions() if a.text() == "&Export Papers…")
    export.trigger()
    settle(window.controller)
    qtbot.waitUntil(target.exists)
    assert seen == ["The papers tagged “to read” (1 paper)"]
    entries = parse_string(target.read_text(encoding="utf-8")).entries
    assert [e.key for e in entries] == [window.controller.service.paper(ids[0]).citekey]
    qtbot.waitUntil(lambda: "Exported 1 paper" in window.statusBar().currentMessage())


def test_export_library_refuses_an_unwritable_place_plainly(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, shown_errors: list[str]
) -> None:
    def press_export(dialog: QDialog) -> None:
        on_next_dialog(qtbot, QFileDialog, save_as(tmp_path / "no such folder" / "all.bib"))
        dialog.accept()

    on_next_dialog(qtbot, ExportDialog, press_export)
    window.actions_by_id[ActionId.EXPORT_LIBRARY].trigger()
    settle(window.controller)
    qtbot.waitUntil(lambda: len(shown_errors) == 1)
    assert "no such folder" in shown_errors[0]
    assert not (tmp_path / "no such folder").exists()


def test_copy_bibtex_and_export_say_which_keys_the_file_holds_otherwise(
    qtbot: QtBot,
    window: MainWindow,
    ids: list[int],
    tmp_path: Path,
    shown_errors: list[str],
) -> None:
    """Two keys that differ only in case (a library from before keys were compared as BibTeX
    does): the second entry's key is made up, and the window says a \\cite would miss it."""
    service = window.controller.service
    first = str(service.paper(ids[0]).citekey)
    with service.db.transaction() as session:
        session.execute(update(Paper).where(Paper.id == ids[1]).values(citekey=first.upper()))
    window.table.select_paper(ids[1])
    window.actions_by_id[ActionId.COPY_BIBTEX].trigger()
    settle(window.controller)
    assert [e.key for e in parse_string(clipboard()[0]).entries] == [first.upper()]
    assert shown_errors == []  # (alone, the key is written as it is)

    window.table.selectAll()
    window.actions_by_id[ActionId.COPY_BIBTEX].trigger()
    settle(window.controller)
    qtbot.waitUntil(lambda: len(shown_errors) == 1)
    keys = [e.key for e in parse_string(clipboard()[0]).entries]  # (in the list's order)
    key = keys[1].removesuffix("-2")  # the second entry's key is told apart
    assert keys == [first if key == first.upper() else first.upper(), f"{key}-2"]
    paper = {first: ids[0], first.upper(): ids[1]}
    told = (
        f"Paper #{paper[key]}'s key ‘{key}’ is ‘{key}-2’ in the file (BibTeX takes it for paper "
        f"#{paper[keys[0]]}'s key, ignoring case): a \\cite of that key would not find it. "
        "Give those papers keys of their own (Citation key, in the paper's details)."
    )
    assert shown_errors == [told]

    target = tmp_path / "all.bib"

    def press_export(dialog: QDialog) -> None:
        on_next_dialog(qtbot, QFileDialog, save_as(target))
        dialog.accept()

    on_next_dialog(qtbot, ExportDialog, press_export)
    window.actions_by_id[ActionId.EXPORT_LIBRARY].trigger()
    settle(window.controller)
    qtbot.waitUntil(lambda: len(shown_errors) == 2)
    assert shown_errors[1] == told
    assert "Exported 2 papers" in window.statusBar().currentMessage()


def test_export_proposes_the_format_notes_and_folder_chosen_last(
    qtbot: QtBot, window: MainWindow, ids: list[int], tmp_path: Path
) -> None:
    """As the README says: the format is remembered for next time (it went back to the
    Preferences' format each time), with the notes choice and the folder."""
    folder = tmp_path / "thesis"
    folder.mkdir()
    proposed: list[tuple[str, bool, str]] = []

    def choose(fmt: str | None, target: Path) -> Callable[[QDialog], None]:
        def act(dialog: QDialog) -> None:
            combo = dialog.findChild(QComboBox, "exportFormat")
            notes = dialog.findChild(QCheckBox, "exportNotes")
            assert combo is not None and notes is not None
            proposed.append((str(combo.currentData()), notes.isChecked(), ""))

            def save(files: QDialog) -> None:
                assert isinstance(files, QFileDialog)
                proposed[-1] = (*proposed[-1][:2], files.selectedFiles()[0])
                save_as(target)(files)

            if fmt is not None:
                combo.setCurrentIndex(combo.findData(fmt))
                notes.setChecked(True)
            on_next_dialog(qtbot, QFileDialog, save)
            dialog.accept()

        return act

    on_next_dialog(qtbot, ExportDialog, choose("ris", folder / "mine.ris"))
    window.table.select_paper(ids[0])
    window.actions_by_id[ActionId.EXPORT_SELECTED].trigger()
    settle(window.controller)
    qtbot.waitUntil((folder / "mine.ris").exists)

    on_next_dialog(qtbot, ExportDialog, choose(None, folder / "all.ris"))
    window.actions_by_id[ActionId.EXPORT_LIBRARY].trigger()
    settle(window.controller)
    qtbot.waitUntil((folder / "all.ris").exists)
    assert proposed[1] == ("ris", True, str(folder / "library.ris"))
    assert WindowSettings(window.settings.path).get(EXPORT_FORMAT) == "ris"
