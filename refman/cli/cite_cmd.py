"""``refman cite``: papers' bibliography entries in a citation style (or ``\\cite{…}``), and
``refman styles``: the citation styles refman has."""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from refman.cli.output import write_json
from refman.cli.selecting import add_selection_options, filtered, selected_ids
from refman.common.errors import RefmanError
from refman.core.citation_languages import check_language, language_name, languages
from refman.core.citations import (
    DEFAULT_STYLE,
    FORMATS,
    SHORT_NAMES,
    STYLES,
    check_format,
    check_style,
    citation_keys,
    paper_entries,
    style_language,
)
from refman.core.context import no_paper
from refman.core.library import LibraryService
from refman.core.values import PaperDetail

__all__ = [
    "CITE_DESCRIPTION",
    "CITE_EPILOG",
    "STYLES_DESCRIPTION",
    "add_cite_arguments",
    "add_styles_arguments",
    "run_cite",
    "run_styles",
]

_STYLE_LIST = textwrap.fill(
    "styles: "
    + ", ".join(STYLES)
    + " (see refman styles; "
    + ", ".join(SHORT_NAMES)
    + " are short for the longer ids)",
    90,
    break_on_hyphens=False,
)
CITE_DESCRIPTION = """\
Print the bibliography entries of papers in a citation style, as Zotero would format them:
plain text (one entry per line) or HTML (italics kept, for word processors). The papers are
those given by id, or those that --search, --tag and --section select (in list order).
Numbered styles such as IEEE number the papers in the order given; the others sort them as
the style says. With --in-text it prints the papers' in-text citation instead, as Zotero's
Copy Citation does: "(Doe & Roe, 2023; Smith et al., 2020)", "[1–3]". Each style writes in
its own language (American English for most, British
for Nature) unless --language names another; a style written for one language (Nature, ACM)
keeps it, as in Zotero."""
CITE_EPILOG = f"""\
{_STYLE_LIST}

--json prints one object per paper, in bibliography order: "id" (the paper's id),
"citekey", "text" (the entry as plain text) and, with --format html, "html" (its
<div class="csl-entry"> element). With --keys it prints "id" and "citekey" only. With
--in-text it prints one object: "ids" (the papers cited, in order), "text" and, with
--format html, "html".

examples:
  refman cite 12                          paper #12 in APA (the default style)
  refman cite 12 15 17 --style ieee       three papers, numbered [1] to [3]
  refman cite 12 --style nature --format html > refs.html
  refman cite 12 15 --language de         in German ("und", "Hrsg."; see refman styles --languages)
  refman cite 12 15 --in-text             (Jiang et al., 2024; Smith et al., 2020)
  refman cite 12 15 --keys                \\cite{{jiang2024megascale,smith2020study}}
  refman cite --tag thesis --style ieee    the papers tagged "thesis"
  refman cite 12 --json
"""
STYLES_DESCRIPTION = """\
List the citation styles refman cite and Copy Citation can use, or with --languages the
languages they can write in (refman cite --language, the Preferences' citation language)."""


def add_cite_arguments(p: argparse.ArgumentParser, paper_id: Callable[[str], int]) -> None:
    """The arguments of ``refman cite`` (``paper_id`` parses an id argument)."""
    p.add_argument(
        "ids", nargs="*", type=paper_id, metavar="ID", help="a paper's id (see refman list)"
    )
    add_selection_options(p, "cites")
    p.add_argument(
        "--style",
        default=DEFAULT_STYLE,
        metavar="STYLE",
        help=f"the citation style (default: {DEFAULT_STYLE}; see refman styles)",
    )
    p.add_argument(
        "--language",
        metavar="LANG",
        help="the language to write in: de-DE, fr, German… (default: the style's own;"
        " see refman styles --languages)",
    )
    either = p.add_mutually_exclusive_group()  # (keys have no format)
    either.add_argument(
        "--format", choices=FORMATS, default="text", help="text (the default) or html"
    )
    either.add_argument(
        "--keys", action="store_true", help="print \\cite{…} with the papers' citation keys"
    )
    p.add_argument(
        "--in-text",
        action="store_true",
        help="print the papers' in-text citation, (Doe & Roe, 2023) or [1]",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object per paper")


def add_styles_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``refman styles``."""
    p.add_argument(
        "--languages", action="store_true", help="list the languages citations can be written in"
    )
    p.add_argument("--json", action="store_true", help='print [{"id", "name"}, …] as JSON')


def _details(service: LibraryService, ids: Sequence[int]) -> list[PaperDetail]:
    """The papers, in the order given.

    Raises:
        NotFoundError: One of them does not exist.
    """
    details = service.details(ids)
    missing = set(ids) - {detail.id for detail in details}
    if missing:
        raise no_paper(min(missing))
    return details


def _json_entries(
    details: Sequence[PaperDetail], style: str, fmt: str, language: str | None
) -> list[dict[str, Any]]:
    """``cite --json``: one object per paper in bibliography order (see the epilog)."""
    entries = paper_entries(details, style, "text", language)
    html = (
        {d.id: e.strip() for d, e in paper_entries(details, style, fmt, language)}
        if fmt == "html"
        else {}
    )
    objects: list[dict[str, Any]] = []
    for detail, entry in entries:
        obj: dict[str, Any] = {"id": detail.id, "citekey": detail.citekey, "text": entry.rstrip()}
        if html:
            obj["html"] = html[detail.id]
        objects.append(obj)
    return objects


def run_cite(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman cite ID...`` (or ``--search``, ``--tag``, ``--section``)."""
    style, fmt = check_style(args.style), check_format(args.format)
    language = _language(args.language, style)
    if not args.ids and not filtered(args):
        raise RefmanError(
            "Name the papers to cite: their ids, or --search, --tag or --section.",
            'See "refman cite --help".',
        )
    ids = selected_ids(args, service, "cite")
    if not ids:
        raise RefmanError("No paper to cite: the search, tags or section select none.")
    if args.in_text and args.keys:
        raise RefmanError("--in-text and --keys cannot go together: choose one.")
    if args.in_text:
        return _in_text(service, ids, (style, fmt, language), args.json, out)
    if not args.keys and not args.json:
        text = service.cite(ids, style, fmt, language)
        out.write(text if text.endswith("\n") else text + "\n")
        return 0
    details = _details(service, ids)
    if not args.keys:
        write_json(out, _json_entries(details, style, fmt, language))
    elif args.json:
        write_json(out, [{"id": d.id, "citekey": d.citekey} for d in details])
    else:
        out.write(citation_keys(details) + "\n")
    return 0


def _language(typed: str | None, style: str) -> str | None:
    """The language asked for, checked; a style written in one language says it keeps it."""
    language = None if typed is None else check_language(typed)
    own = style_language(style)
    if language is not None and own is not None and own != language:
        sys.stderr.write(
            f"refman: The style {STYLES[style]} is always written in {language_name(own)};"
            " --language does not change it.\n"
        )
    return language


def _in_text(
    service: LibraryService,
    ids: Sequence[int],
    how: tuple[str, str, str | None],
    as_json: bool,
    out: TextIO,
) -> int:
    """``refman cite --in-text``: one citation of the papers (``how``: style, format,
    language), or its JSON object (see the epilog)."""
    style, fmt, language = how
    text = service.cite(ids, style, fmt, language, in_text=True)
    if not as_json:
        out.write(text + "\n")
        return 0
    obj: dict[str, Any] = {"ids": list(dict.fromkeys(ids))}
    obj["text"] = (
        text if fmt == "text" else service.cite(ids, style, "text", language, in_text=True)
    )
    if fmt == "html":
        obj["html"] = text
    write_json(out, obj)
    return 0


def run_styles(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``refman styles`` or ``refman styles --languages`` (no library needed)."""
    listed = languages() if args.languages else STYLES
    if args.json:
        write_json(out, [{"id": key, "name": name} for key, name in listed.items()])
        return 0
    width = max(len(key) for key in listed)
    out.write("".join(f"{key:<{width}}  {name}\n" for key, name in listed.items()))
    return 0
