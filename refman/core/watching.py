"""Changes made elsewhere to a library (another program, another person): the window's
question, answered by the store's change feeds (:mod:`refman.store.changes`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from refman.store.changes import ChangeFeed

if TYPE_CHECKING:
    from refman.core.library import LibraryService


def change_feed(service: LibraryService) -> ChangeFeed:
    """A feed of the changes others make to the service's library; close it when done."""
    return service.db.watch()


__all__ = ["ChangeFeed", "change_feed"]
