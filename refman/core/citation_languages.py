"""The languages citations are written in: the CSL locales citeproc-py ships ("de-DE": "und",
"Hrsg.", "S."; "fr-FR": "et", "éd.", "p."), as Zotero's *Language* of a bibliography.

A style is written in its own default language (Nature: British English) unless one is
chosen; a language chosen replaces it, and titles are then left as written, not put in
English title case (as citeproc-js, Zotero's engine, does). The list comes from
citeproc-py's ``locales.json``, read without loading citeproc-py (it loads lxml).

This module is Qt-free.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.util import find_spec
from pathlib import Path

from refman.common.errors import InvalidValueError

__all__ = ["check_language", "language_name", "languages"]


@cache
def _locales() -> tuple[dict[str, str], dict[str, str]]:
    """citeproc-py's locales: (locale id → "native name (English name)", language → its
    primary locale id, "de" → "de-DE")."""
    spec = find_spec("citeproc")
    if spec is None or not spec.submodule_search_locations:  # pragma: no cover - a dependency
        return {}, {}
    folder = Path(next(iter(spec.submodule_search_locations))) / "data" / "locales"
    data = json.loads((folder / "locales.json").read_text("utf-8"))
    names: dict[str, str] = {}
    for locale, (native, english) in sorted(data["language-names"].items()):
        if (folder / f"locales-{locale}.xml").is_file():
            names[locale] = native if native == english else f"{native} — {english}"
    primary = {k: v for k, v in data["primary-dialects"].items() if v in names}
    return names, primary


def languages() -> dict[str, str]:
    """The languages a citation can be written in: locale id → its name in itself and in
    English, "de-DE" → "Deutsch (Deutschland) — German (Germany)", sorted by id."""
    return dict(_locales()[0])


def language_name(locale: str) -> str:
    """The name of a locale id of :func:`languages` (the id itself for another)."""
    return _locales()[0].get(locale, locale)


def check_language(text: str) -> str:
    """The locale id of a language as a person writes it: an id in any case, with "-" or "_"
    ("de-de", "pt_BR"), a language alone for its main country ("de": "de-DE"), or the
    language's name in English or in itself ("German", "Deutsch", "français").

    Raises:
        InvalidValueError: citeproc-py has no such language (the hint lists the ids).
    """
    names, primary = _locales()
    wanted = text.strip().replace("_", "-").casefold()
    by_id = {locale.casefold(): locale for locale in names}
    if wanted in by_id:
        return by_id[wanted]
    if wanted in primary:
        return primary[wanted]
    spoken = _by_name(names, primary)
    if wanted in spoken:
        return spoken[wanted]
    raise InvalidValueError(
        f"Citations cannot be written in “{text.strip()}”: refman knows no such language.",
        "Name it by its id (de-DE, fr-FR, pt-BR…), its language alone (de, fr) or its name"
        " (German, Deutsch); “refman styles --languages” lists them.",
    )


def _by_name(names: dict[str, str], primary: dict[str, str]) -> dict[str, str]:
    """Locale ids by name, in any case: a whole name, English or native ("german (austria)"),
    and a language's name without its country for its main locale ("german": "de-DE")."""
    found: dict[str, str] = {}
    for locale, name in names.items():
        main = primary.get(locale.split("-")[0], locale)
        for whole in name.split(" — "):
            found[whole.casefold()] = locale
            found.setdefault(whole.split(" (")[0].casefold(), main)
    return found
