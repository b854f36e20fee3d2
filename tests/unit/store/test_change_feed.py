"""Hearing that someone else changed the library: another program on the same file, another
person on the same shared library (the store's change feeds, on both kinds of library)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from refman.core.library import LibraryService
from refman.core.watching import change_feed
from tests.helpers.fixtures import sourced
from tests.helpers.pages import generated_page


@pytest.fixture
def other(library_location: str, library: LibraryService) -> Iterator[LibraryService]:
    """A second program on the test's library."""
    service = LibraryService.open(library_location)
    yield service
    service.close()


def _heard(feed: object, within: float = 1.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if feed.poll():  # type: ignore[attr-defined]
            return True
        time.sleep(0.02)
    return False


def test_a_change_by_another_program_is_heard_within_a_second(
    library: LibraryService, other: LibraryService
) -> None:
    feed = change_feed(library)
    try:
        assert not feed.poll()  # nothing yet
        other.import_pages([sourced(generated_page(3))])
        assert _heard(feed)
        assert not feed.poll()  # heard once
        ids = other.paper_ids()
        other.tag(ids[:1], ["heard"])
        assert _heard(feed)
    finally:
        feed.close()


def test_the_programs_own_changes_are_not_news(library: LibraryService) -> None:
    feed = change_feed(library)
    try:
        library.import_pages([sourced(generated_page(3))])
        library.tag(library.paper_ids()[:2], ["mine"])
        assert not _heard(feed, within=0.5)
    finally:
        feed.close()


def test_own_and_others_changes_together_are_news(
    library: LibraryService, other: LibraryService
) -> None:
    feed = change_feed(library)
    try:
        library.import_pages([sourced(generated_page(3))])
        other.tag(other.paper_ids()[:1], ["theirs"])
        library.tag(library.paper_ids()[:1], ["mine"])
        assert _heard(feed)
    finally:
        feed.close()


def test_a_change_while_sixteen_others_are_under_way_still_counts_and_is_heard(
    shared_library_url: str,
) -> None:
    """Every counter of the revision held by a change not yet committed: the next change waits
    for one of them, then moves the revision on and is heard like any other."""
    import psycopg

    from refman.store.connection import revision

    library = LibraryService.open(shared_library_url)
    other = LibraryService.open(shared_library_url)

    def current() -> int:
        with library.db.reading() as session:
            return revision(session)

    library.import_pages([sourced(generated_page(2))])
    start = current()
    holders = [psycopg.connect(shared_library_url.replace("+psycopg", "")) for _ in range(16)]
    feed = change_feed(library)
    try:
        for slot, conn in enumerate(holders):
            conn.execute("UPDATE library_counters SET n = n + 1 WHERE slot = %s", (slot,))
        done = threading.Thread(target=other.tag, args=(other.paper_ids()[:1], ["waited"]))
        done.start()
        done.join(0.5)
        assert done.is_alive()  # it waits for a counter
        for conn in holders:
            conn.commit()
        done.join(10)
        assert not done.is_alive()
        assert current() == start + 17
        assert _heard(feed)
        assert "waited" in {t.name for t in library.paper(library.paper_ids()[0]).tags}
    finally:
        for conn in holders:
            conn.close()
        feed.close()
        other.close()
        library.close()
