"""Checks on sets of ids."""

from __future__ import annotations

from refman.common.sequences import PartedIds


def is_parted(ids: object) -> bool:
    """Whether ids are kept in parts (a function: mypy would narrow an isinstance check, and
    then take a comparison with a plain set for one that cannot be true)."""
    return isinstance(ids, PartedIds)
