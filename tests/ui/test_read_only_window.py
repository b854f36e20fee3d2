"""A shared library opened by a user who may only read it: the window browses and searches,
says why nothing can be changed, and offers no way to change anything."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page
from tests.helpers.panes import make_window
from tests.helpers.postgres import reading_role

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow


@pytest.fixture
def reader(shared_library_url: str) -> str:
    """A shared library with papers, a note and a tag, as a reading user sees it."""
    with closing(LibraryService.open(shared_library_url)) as owner:
        owner.import_pages([sourced(generated_page(4))])
        first = owner.paper_ids()[0]
        owner.add_note(first, "the owner's note")
        owner.tag([first], ["read me"])
    return reading_role(shared_library_url, "refman_window_reader")


@pytest.fixture
def window(qtbot: QtBot, reader: str, tmp_path: Path) -> Iterator[MainWindow]:
    service = LibraryService.open(reader)
    controller = LibraryController(service)
    made = make_window(qtbot, controller, tmp_path / "settings.ini")
    yield made
    made.close()
    settle(controller)
    controller.shutdown()
    service.close()


@pytest.mark.logs_warnings("refman.ui")
def test_a_reader_browses_but_every_change_is_disabled_with_the_reason(
    qtbot: QtBot, window: MainWindow
) -> None:
    reason = "may only read this shared library"
    assert reason in window.banner.label.text() and window.banner.isVisible()
    assert "ask the library's owner to let your database user edit it" in window.banner.label.text()
    # a shared library's backups are its server's: none is offered
    assert not window.banner.restore_button.isVisible()
    assert not window.actions_by_id[ActionId.RESTORE_BACKUP].isEnabled()
    for action in (ActionId.IMPORT, ActionId.DELETE, ActionId.RENAME_TAG, ActionId.UNDO):
        assert not window.actions_by_id[action].isEnabled()
        assert reason in window.actions_by_id[action].toolTip()
    service = window.controller.service
    window.go_to_paper(next(p for p in service.paper_ids() if service.paper(p).notes))
    settle(window.controller)
    pane = window.detail_pane
    assert pane.title_edit.isReadOnly() and reason in pane.title_edit.toolTip()
    assert pane.year_field.isReadOnly() and pane.venue_field.isReadOnly()
    assert not pane.add_note_button.isEnabled()
    tag_field = pane.tag_chips.field  # disabled like the other changing controls
    assert not tag_field.isEnabled() and reason in tag_field.toolTip()
    (card,) = pane.notes.cards.values()
    assert card.editor.isReadOnly() and not card.delete_button.isEnabled()
    assert card.text() == "the owner's note"
    # who did what, on a shared library
    assert "Added and last changed by postgres" in pane.provenance.text()
    assert card.status.text().endswith("by postgres")
    # searching still works
    qtbot.keyClicks(window.search_box, "zzzz")
    settle(window.controller)
    assert window.model.rowCount() == 0
