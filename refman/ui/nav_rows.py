"""The rows of the navigation list: the library's sections, then the people followed (each
with a "new" badge while the last import of their page brought papers nobody looked at),
a row that opens the list of everyone, then the saved searches with their counts; the tag
pane's All / Any switch; and what the pane's choice asks the paper list to show."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import QPushButton, QWidget

from refman.core.saved_searches import gone_text
from refman.core.values import Navigation, SavedSearchView, Section

from refman.ui.look import link_button_style
from refman.ui.sidebar import BADGE_ROLE, KIND_ROLE, SidebarList


@dataclass(frozen=True, slots=True)
class NavFilter:
    """What the navigation pane asks the paper list to show.

    Attributes:
        section: The library section.
        person_id: Only papers attributed to (or written by) this person, or None.
        tags: Tag names the papers must all carry (or any of them: ``any_tags``).
        saved: The saved search picked, or None (counted -1: a change that moves its count
            is no new filter).
    """

    section: Section = Section.ALL
    person_id: int | None = None
    tags: tuple[str, ...] = ()
    saved: SavedSearchView | None = None
    any_tags: bool = False


def kept_shown(nav_list: SidebarList, shown: NavFilter) -> bool:
    """Select the row of what ``shown`` shows again, without a word, when the keyboard's
    frame moved onto "All people…" (a row no one selects: selecting it emptied the list's
    selection); False when the frame is elsewhere."""
    here = nav_list.currentItem()
    if here is None or here.data(KIND_ROLE) != "people":
        return False
    row = (
        nav_list.find_row("saved", shown.saved.id)
        if shown.saved is not None
        else nav_list.find_row("person", shown.person_id)
        if shown.person_id
        else nav_list.find_row("section", shown.section)
    )
    if row is not None:
        with QSignalBlocker(nav_list):
            row.setSelected(True)  # (the keyboard's frame stays on "All people…")
    return row is not None


SECTION_NAMES: dict[Section, str] = {
    Section.ALL: "All papers",
    Section.UNREAD: "Unread",
    Section.ATTENTION: "Needs attention",
    Section.UNTAGGED: "Untagged",
    Section.RECENT: "Recently added",
    Section.TRASH: "Trash",
}
#: The row that opens the People window (kind "people").
EVERYONE = "All people…"


def _people_rows(nav_list: SidebarList, people: list[tuple[int, str, int | None, int]]) -> None:
    nav_list.add_heading("People")
    for pid, name, count, new in people:
        item = nav_list.add_row("person", pid, name, count)
        if new:
            item.setData(BADGE_ROLE, f"{new:,} new")
            item.setToolTip(f"{item.toolTip()}; {new:,} new since you last looked")
    everyone = nav_list.add_row("people", "", EVERYONE, None)
    everyone.setToolTip("Every author and page owner, and names that may be one person")
    # A link, not a place: a click or Enter opens the People window; the arrow keys pass it
    # by (selecting it opened the window, and the rows below it could not be reached).
    everyone.setFlags(Qt.ItemFlag.ItemIsEnabled)


def fill_nav(
    nav_list: SidebarList, nav: Navigation | None, extra: tuple[int, str] | None
) -> tuple[int, str] | None:
    """Fill an empty navigation list; ``extra`` is an author shown while selected (returned
    as None once they are among the people followed)."""
    nav_list.add_heading("Library")
    for section, label in SECTION_NAMES.items():
        count = nav.counts.of(section) if nav is not None else None
        nav_list.add_row("section", section, label, count)
    if nav is None:
        if extra is not None:
            _people_rows(nav_list, [(*extra, None, 0)])
        return extra
    people: list[tuple[int, str, int | None, int]] = [
        (p.id, p.name, p.count, p.new) for p in nav.people
    ]
    if extra is not None and any(p[0] == extra[0] for p in people):
        extra = None
    elif extra is not None:
        people.append((*extra, nav.person_count, 0))
    if people or nav.counts.all:
        _people_rows(nav_list, people)
    _saved_rows(nav_list, nav.saved)
    return extra


def _saved_rows(nav_list: SidebarList, saved: list[SavedSearchView]) -> None:
    """The saved searches with their counts, each with its search line as its tooltip (and
    the tags it names that the library no longer holds)."""
    if saved:
        nav_list.add_heading("Saved Searches")
    for view in saved:
        item = nav_list.add_row("saved", view.id, view.name, max(view.count, 0))
        gone = f" — {gone_text(view.gone)}" if view.gone else ""
        item.setToolTip(f"{view.name}: {view.search_line() or 'every paper'}{gone}")


def match_mode_button(parent: QWidget) -> QPushButton:
    """The tag pane's switch between papers with all the tags picked and papers with any of
    them (shown while several tags are picked)."""
    button = QPushButton("Match all", parent)
    button.setObjectName("tagMatchMode")
    button.setCheckable(True)
    button.setFlat(True)
    button.setCursor(Qt.CursorShape.PointingHandCursor)
    button.setStyleSheet(link_button_style("padding: 0 6px;"))
    button.setToolTip("Papers with all the tags picked, or with any of them (click to switch)")
    button.toggled.connect(lambda on: button.setText("Match any" if on else "Match all"))
    button.setVisible(False)
    return button
