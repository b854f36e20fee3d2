"""A column type: a small set of names stored as one text (a paper's fields edited by hand)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Dialect, String, TypeDecorator


class NameSet(TypeDecorator[frozenset[str]]):
    """A small set of names stored as one comma-separated text ("title,year").

    The names themselves never hold a comma (they are field names).
    """

    impl = String(100)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> str:
        """Store the names sorted, comma-separated."""
        return ",".join(sorted(value or ()))

    def process_result_value(self, value: Any, dialect: Dialect) -> frozenset[str]:
        """Read the names back as a frozenset."""
        return frozenset(name for name in (value or "").split(",") if name)
