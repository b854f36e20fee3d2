"""citeproc-py ignores ``text-case="title"`` on a ``<label>``: it title-cases only text it
knows to be English, and asks a label without its language, so APA's editor label, which
the style writes in title case ("(Ed.)"), came out as the locale's term ("(ed.)"). A label
is a term of the style's locale; here it is cased as the style says in every language, as
citeproc-js does (French: "(Éd.)", while titles are left as written in a language other than
English). Private to :mod:`refman.core._citeproc_render`.
"""

from __future__ import annotations

from typing import Any

from citeproc.model import Label


def _markup(self: Any, text: Any) -> Any:
    if not text:
        return None
    return self.wrap(self.format(self.case(self.strip_periods(text), "en")))


def install() -> None:
    """Case labels as the style says, in every language (idempotent)."""
    Label.markup = _markup
