"""A logged warning fails the test that logged it (qutebrowser's ``logfail`` is the model).

refman logs WARNING and above only when something went wrong: a test that triggers one by
accident hides a problem. A test that means to (a damaged library, an internal error the
command line must report) says so with ``@pytest.mark.logs_warnings("refman.cli", ...)``,
naming the loggers it expects to warn.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


class _Collector(logging.Handler):
    """Keeps every WARNING+ record logged during one test."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _expected(record: logging.LogRecord, allowed: tuple[str, ...]) -> bool:
    return any(record.name == name or record.name.startswith(name + ".") for name in allowed)


@pytest.fixture(autouse=True)
def _fail_on_logged_warnings(request: pytest.FixtureRequest) -> Iterator[None]:
    collector = _Collector()
    root = logging.getLogger()
    root.addHandler(collector)
    try:
        yield
    finally:
        root.removeHandler(collector)
    marker = request.node.get_closest_marker("logs_warnings")
    allowed = tuple(marker.args) if marker is not None else ()
    if marker is not None and not allowed:
        return  # any logger may warn
    unexpected = [r for r in collector.records if not _expected(r, allowed)]
    if unexpected:
        lines = "\n".join(f"  {r.levelname} {r.name}: {r.getMessage()}" for r in unexpected)
        pytest.fail(f"the test logged warnings it did not expect:\n{lines}", pytrace=False)
