"""The rows of the navigation list: the library's sections, then the people followed (each
with a "new" badge while the last import of their page brought papers nobody looked at),
then a row that opens the list of everyone."""

from __future__ import annotations

from refman.core.values import Navigation, Section

from refman.ui.sidebar import BADGE_ROLE, SidebarList

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


def fill_nav(
    nav_list: SidebarList, nav: Navigation | None, extra: tuple[int, str] | None
) -> tuple[int, str] | None:
    """Fill an empty navigation list; ``extra`` is an author shown while selected (returned
    as None once they are among the people followed)."""
    people: list[tuple[int, str, int | None, int]] = (
        [(p.id, p.name, p.count, p.new) for p in nav.people] if nav is not None else []
    )
    if extra is not None:
        if any(p[0] == extra[0] for p in people):
            extra = None
        else:
            people.append((*extra, nav.person_count if nav is not None else None, 0))
    nav_list.add_heading("Library")
    for section, label in SECTION_NAMES.items():
        count = nav.counts.of(section) if nav is not None else None
        nav_list.add_row("section", section, label, count)
    if people or (nav is not None and nav.counts.all):
        nav_list.add_heading("People")
        for pid, name, count, new in people:
            item = nav_list.add_row("person", pid, name, count)
            if new:
                item.setData(BADGE_ROLE, f"{new} new")
                item.setToolTip(f"{item.toolTip()}; {new} new since you last looked")
        everyone = nav_list.add_row("people", "", EVERYONE, None)
        everyone.setToolTip("Every author and page owner, and names that may be one person")
    return extra
