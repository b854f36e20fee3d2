"""An import's progress told, and "cancelled?" asked, now and then as it is applied."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from refman.common.errors import CancelledError

#: Called with (records done, records in all) while an import is applied.
Progress = Callable[[int, int], None]

IMPORT_CANCELLED = "The import was cancelled; the library is unchanged."


@dataclass
class Checkpoint:
    """Tells progress and asks "cancelled?" now and then."""

    total: int
    progress: Progress | None
    cancelled: Callable[[], bool] | None

    def __call__(self, done: int) -> None:
        if self.cancelled is not None and self.cancelled():
            raise CancelledError(IMPORT_CANCELLED)
        if self.progress is not None:
            self.progress(done, self.total)
