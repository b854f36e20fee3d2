"""Trying a change again when another person's change got in the way of its write.

On a shared library nobody holds a lock while they read: a change may find, when it writes,
that a row it read was changed in between (:class:`~refman.common.errors.StaleWriteError`,
or SQLAlchemy's stale-data error for a note or a tag), or the server may give up one of two
transactions that wait for each other (a deadlock, a serialisation failure), or two people
may create the same tag or person at once. Such a change is rolled back whole and tried
again from the start, reading the library afresh; what the person asked for is decided on
what is in the library then, never on what was read before.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm.exc import StaleDataError

from refman.common.errors import StaleWriteError

log = logging.getLogger("refman.core")

T = TypeVar("T")

#: How often a change is tried in all before its conflict is reported.
ATTEMPTS = 4
#: SQLSTATEs of a transaction the server gave up, or of a row two changes created at once.
_RETRIED_STATES = frozenset({"40001", "40P01", "23505"})


def _retryable(exc: BaseException) -> bool:
    if isinstance(exc, StaleWriteError | StaleDataError):
        return True
    if isinstance(exc, DBAPIError):
        return getattr(exc.orig, "sqlstate", None) in _RETRIED_STATES
    cause = exc.__cause__
    return cause is not None and _retryable(cause)


def retrying(change: Callable[[], T], what: str) -> T:
    """Run ``change`` (one whole transaction), again while another change gets in its way.

    Raises:
        StaleWriteError: It still met another change on its last attempt.
    """
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return change()
        except Exception as exc:
            if not _retryable(exc):
                raise
            log.info("%s met another change (attempt %d): %s", what, attempt, exc)
            time.sleep(random.uniform(0.005, 0.03) * attempt)  # let the other one finish
            if attempt == ATTEMPTS:
                if isinstance(exc, StaleWriteError):
                    raise
                raise StaleWriteError("The library") from exc
    raise AssertionError("unreachable")
