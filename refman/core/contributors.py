"""The people of a paper besides its authors, as imported with it (CSL name variables kept
in the paper's further fields): the editors of an edited book or of a chapter's book, shown
by the detail pane and ``refman show`` and given in a paper's JSON as ``editors``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from refman.core.export.common import names

__all__ = ["editor_names"]


def editor_names(extra: Mapping[str, Any]) -> list[str]:
    """A paper's editors as people write their names ("Luca Rossi"), in order; [] when none
    were imported."""
    return [person.display for person in names(extra, "editor")]
