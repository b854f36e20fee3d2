"""What a paper that has no year yet says in its place: its publication status, "in press",
"forthcoming", "submitted" — CSL's ``status``, as a reference gave it ("Okafor, N. (in press).
Title.", :mod:`refman.importers.undated`) or a bibliography (BibLaTeX's ``pubstate``).

Citations print it where the year goes; so do the paper list's Year column, the detail pane,
``refman list`` and ``refman show`` (:func:`year_text`), and a paper's JSON gives it as
``publication_status``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["publication_status", "year_text"]


def publication_status(extra: Mapping[str, Any] | str | None) -> str | None:
    """A paper's publication status ("in press"), or None when it has none.

    Args:
        extra: The paper's further CSL variables, as a mapping or as the JSON text the
            library keeps them in.

    Returns:
        The status as written, or None.
    """
    if isinstance(extra, str):
        if '"status"' not in extra:
            return None  # (most papers: no JSON to read)
        try:
            extra = json.loads(extra)
        except ValueError:
            return None
    status = extra.get("status") if isinstance(extra, Mapping) else None
    return status.strip() or None if isinstance(status, str) else None


def year_text(year: int | None, status: str | None, missing: str = "") -> str:
    """What stands where a paper's year is shown: the year, else its publication status ("in
    press"), else ``missing``."""
    if year is not None:
        return str(year)
    return status or missing
