"""Ordinal numbers in the language of the bibliography. Private to
:mod:`refman.core._citeproc_render`.

CSL looks an ordinal's suffix up in the locale, most specific term first ("ordinal-02",
then "ordinal"), and falls back to another locale only when the locale has none. citeproc-py
kept to the locales of exactly the same language tag as the first: a style's own
``<locale xml:lang="fr">`` (APA has one) hid the ``fr-FR`` locale file, so the lookup fell
through to American English and a second edition in French came out "2nd éd." (citeproc-js:
"2ᵉ éd."; German "2. Aufl."). Here every locale of the language is asked, in order, before
any other.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import citeproc.model

_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def _terms(number: int) -> list[tuple[str, bool]]:
    """The terms that can give a number's suffix, most specific first: (name, zero padded)."""
    whole = f"ordinal-{number:02}" if number < 10 else f"ordinal-{number}"
    return [(whole, False), (f"ordinal-{number % 10:02}", True), ("ordinal", False)]


def _language_first(context: Any) -> Iterator[list[Any]]:
    """The locales of the style's language (its own and the locale files), then all."""
    locales = list(context.get_root().locales)
    first = str(locales[0].get(_LANG) or "") if locales else ""
    language = first.split("-")[0]
    if language:
        yield [loc for loc in locales if str(loc.get(_LANG) or "").split("-")[0] == language]
    yield locales


def _suffix(locales: list[Any], number: int) -> str | None:
    for name, padded in _terms(number):
        for locale in locales:
            try:
                return str(locale.get_term(name, None, zero_padded=padded).single)
            except IndexError:
                continue
    return None


def _to_ordinal(number: int, context: Any) -> str:
    """citeproc-py's ``to_ordinal``, asking the style's language first."""
    for locales in _language_first(context):
        found = _suffix(locales, number)
        if found is not None:
            return f"{number}{found}"
    return str(number)


def install() -> None:
    """Look ordinals up in the style's language first (idempotent)."""
    citeproc.model.to_ordinal = _to_ordinal
