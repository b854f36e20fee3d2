"""What the main window remembers between sessions: its geometry and toolbars, the panes'
widths and whether they are shown, the list's columns (those hidden too) and sort, the
section, person or saved search, tags and paper shown, and the library open."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from refman.core.values import Section, SortKey

from refman.ui.actions import ActionId
from refman.ui.column_menu import hidden_columns, hidden_names
from refman.ui.settings import Place

if TYPE_CHECKING:
    from refman.ui.main_window import MainWindow

#: The View menu's pane toggles, by the name the settings keep them under.
PANE_ACTIONS = {
    "tags": ActionId.SHOW_TAG_PANE,
    "list": ActionId.SHOW_LIST_PANE,
    "detail": ActionId.SHOW_DETAIL_PANE,
}


def restore_window(window: MainWindow) -> bool:
    """Put the window back as the settings remember it.

    Returns:
        True when the panes' widths were remembered (else the first show shares them out).
    """
    settings = window.settings
    if (geometry := settings.geometry()) is not None:
        window.restoreGeometry(geometry)
    if (state := settings.window_state()) is not None:
        window.restoreState(state)
    placed = False
    if (sizes := settings.splitter()) is not None:
        placed = window.splitter.restoreState(sizes)
    widths = window.table.widths
    for column in hidden_columns(settings.hidden_columns()):
        widths.set_hidden(column, True)
    if (header := settings.header()) is not None:
        window.table.restore_header_state(header)
        widths.title = settings.title_width()
    for name, action_id in PANE_ACTIONS.items():
        window.actions_by_id[action_id].setChecked(settings.pane_visible(name))
    place = settings.place(window.controller.service.location)  # (this library's own)
    if place.sort in {key.value for key in SortKey} - {SortKey.RELEVANCE.value}:  # (or none)
        window.model.sort_first(SortKey(place.sort), place.descending)
    if place.somewhere():
        window.tag_pane.when_read(lambda: go_back(window, place))  # (sections, tags read)
    return placed


def go_back(window: MainWindow, place: Place) -> None:
    """Show the section, the person or the saved search, the tags and the paper the window
    showed when it closed; what is not in the library any more is left out (All papers, no
    paper)."""
    pane = window.tag_pane
    if place.saved is not None and window.saved.show(place.saved):
        pass  # its papers (a saved search deleted since: the section kept, All papers)
    elif place.person is not None:
        pane.select_person(place.person)
    elif place.section in {section.value for section in Section}:
        pane.select_section(Section(place.section))
    if place.tags:
        pane.select_tags(place.tags)
    if (paper := place.paper) is not None:
        window.model.when_read(lambda: _select(window, paper))


def _select(window: MainWindow, paper_id: int) -> None:
    window.table.select_paper(paper_id)  # (a paper the list does not show: none)


def save_window(window: MainWindow) -> None:
    """Remember the window's geometry, panes and columns (the widths the person chose, not
    those a small window forced), where it was and the list's sort (this library's), and
    the library open."""
    actions = window.actions_by_id
    window.settings.save(
        geometry=window.saveGeometry(),
        window_state=window.saveState(),
        splitter=window.splitter.saveState(),
        header=window.table.header_state(),
        panes={name: actions[a].isChecked() for name, a in PANE_ACTIONS.items()},
        library=window.controller.service.location,
        title_width=window.table.widths.title,
        place=_place(window),
        hidden_columns=hidden_names(window.table.widths.hidden),
    )


def _place(window: MainWindow) -> Place:
    nav = window.tag_pane.current_filter()
    saved = nav.saved.id if nav.saved is not None else None
    query = window.current_query()
    paper = window.table.current_id()
    place = Place(nav.section.value, nav.person_id, nav.tags, paper, saved)
    return replace(place, sort=query.sort.value, descending=query.descending)
