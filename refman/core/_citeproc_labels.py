"""citeproc-py ignores ``text-case="title"`` on a ``<label>``: it title-cases only text it
knows to be English, and asks a label without its language, so APA's editor label, which
the style writes in title case ("(Ed.)"), came out as the locale's term ("(ed.)"). A label
is a term of the style's locale; here it is cased in that locale's language, as citeproc-js
does. Private to :mod:`refman.core._citeproc_render`.
"""

from __future__ import annotations

from typing import Any

from citeproc.model import Label


def _markup(self: Any, text: Any) -> Any:
    if not text:
        return None
    language = str(self.get_root().get("default-locale") or "en")[:2]
    return self.wrap(self.format(self.case(self.strip_periods(text), language)))


def install() -> None:
    """Case labels in their locale's language (idempotent)."""
    Label.markup = _markup
