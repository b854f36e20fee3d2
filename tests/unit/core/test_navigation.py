"""The navigation pane's counts: kept as a snapshot in the library, read back at the next
start while nothing changed, counted again after any change (refman's or another
program's); and a library refman left whole is not checked again before its first change."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import event

from refman.core import navigation
from refman.core.library import LibraryService
from refman.core.listing import ListReader
from refman.core.values import Navigation, PaperQuery, Section
from tests.helpers.fixtures import fill_library

Opened = Callable[[], LibraryService]


@pytest.fixture
def reopen(library_location: str, tmp_path: Path) -> Iterator[Opened]:
    """Opens the library (a file, or a shared library) as the window and the command line
    do (with the check record); every service opened is closed at the end."""
    opened: list[LibraryService] = []

    def open_it() -> LibraryService:
        service = LibraryService.open(library_location, tmp_path / "checked.json")
        opened.append(service)
        return service

    yield open_it
    for service in opened:
        service.close()


def _read(
    service: LibraryService, tags_since: Navigation | None = None
) -> tuple[Navigation, list[str]]:
    """The navigation as the pane reads it (after a change to tags alone: ``tags_since``),
    and the SQL statements the read ran."""
    statements: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        statements.append(statement)

    engine = service.db.engine
    event.listen(engine, "before_cursor_execute", seen)
    reader = ListReader(service.db)
    try:
        return reader.navigation(tags_since=tags_since), statements
    finally:
        reader.close()
        event.remove(engine, "before_cursor_execute", seen)


def _counted(service: LibraryService) -> Navigation:
    with service.db.reading() as session:
        return navigation.counted(session, service.db)


def _scanned(statements: list[str]) -> bool:
    return any("paper_tags" in s or "attributions" in s for s in statements)


def test_the_counts_come_back_at_the_next_start_without_a_scan(reopen: Opened) -> None:
    first = reopen()
    fill_library(first)
    counted, statements = _read(first)
    assert _scanned(statements)
    assert counted == _counted(first)
    assert counted.counts.trash > 0 and {t.name for t in counted.tags} == {"picked", "second"}
    first.close()

    second = reopen()
    shown, statements = _read(second)
    assert shown == counted
    assert not _scanned(statements), statements


def test_a_change_is_counted_again(reopen: Opened) -> None:
    first = reopen()
    fill_library(first)
    before, _ = _read(first)
    first.close()
    second = reopen()
    _read(second)
    second.tag(second.paper_ids()[:1], ["fresh"])
    after, statements = _read(second)
    assert _scanned(statements)
    assert {t.name: t.count for t in after.tags} == {
        **{t.name: t.count for t in before.tags},
        "fresh": 1,
    }
    assert after == _counted(second)


def test_after_a_change_to_tags_alone_only_what_tags_change_is_counted(reopen: Opened) -> None:
    service = reopen()
    fill_library(service)
    before, _ = _read(service)
    ids, bare = service.paper_ids(), service.paper_ids(PaperQuery(section=Section.UNTAGGED))
    service.tag([bare[0], ids[0]], ["fresh"])
    service.untag(ids[:1], [before.tags[0].name])
    after, statements = _read(service, tags_since=before)
    assert after == _counted(service)  # the same as counting it all again
    assert after.counts.untagged == before.counts.untagged - 1
    assert not any("attributions" in s for s in statements)  # the people's counts kept
    assert _read(service)[0] == after  # kept as the snapshot of this revision


def test_another_programs_change_is_counted_again(reopen: Opened, library_path: Path) -> None:
    first = reopen()
    fill_library(first)
    before, _ = _read(first)
    first.close()
    with sqlite3.connect(library_path) as conn:  # not refman: the revision stays
        conn.execute(
            "DELETE FROM paper_tags WHERE tag_id = (SELECT id FROM tags WHERE name = 'picked')"
        )
    conn.close()
    second = reopen()
    after, statements = _read(second)
    assert _scanned(statements)
    assert {t.name: t.count for t in after.tags}["picked"] == 0
    assert [t.count for t in before.tags if t.name == "picked"] != [0]


def test_a_library_refman_left_whole_is_not_checked_again_before_a_change(
    reopen: Opened,
) -> None:
    first = reopen()
    fill_library(first)  # a library never seen is checked before its first change
    first.close()
    second = reopen()
    checks: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        if "quick_check" in statement:
            checks.append(statement)

    event.listen(second.db.engine, "before_cursor_execute", seen)
    second.tag(second.paper_ids()[:1], ["fresh"])
    assert checks == []
    assert "fresh" in second.tag_names()
