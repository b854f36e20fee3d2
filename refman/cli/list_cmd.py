"""The reading commands: ``refman list``, ``search``, ``show`` and ``tags``."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import Any, TextIO

from refman.cli.output import paper_text, paper_to_json, tag_to_json, terminal_width, write_json
from refman.cli.tables import paper_table, tag_table
from refman.common.errors import InvalidValueError
from refman.common.text import plural
from refman.core.library import LibraryService
from refman.core.queries import SEARCH_CUT, search_is_cut
from refman.core.rules import clean_tag_names
from refman.core.saved_searches import gone_text, within_saved
from refman.core.search_syntax import searches_nothing
from refman.core.values import PaperDetail, PaperQuery, PaperRow, Section, SortKey

__all__ = ["query_of", "run_list", "run_show", "run_tags"]

_DETAIL_CHUNK = 500


def query_of(args: argparse.Namespace) -> PaperQuery:
    """The paper query that ``list`` / ``search`` options describe.

    Without ``--sort`` the order is relevance, which the service turns into "newest first"
    when there is no search text.
    """
    sort = SortKey(args.sort) if args.sort else SortKey.RELEVANCE
    text = args.search or ""
    if isinstance(args.search, list):  # refman search WORD...: the words in the order typed
        text = " ".join([*args.search, *getattr(args, "query_words", [])])
    return PaperQuery(
        text=text,
        tags=clean_tag_names(args.tags),
        section=Section(args.section),
        person_id=getattr(args, "person", None),
        sort=sort,
        descending=bool(args.desc),
        everything=bool(getattr(args, "everything", False)),
    )


def _check_search(args: argparse.Namespace, query: PaperQuery) -> None:
    """Refuse ``refman search`` without words; say when a search leaves words out."""
    if isinstance(args.search, list) and searches_nothing(query.text):
        raise InvalidValueError("Nothing to search for.", 'Give words: refman search "graph nets"')
    if search_is_cut(query.text):
        sys.stderr.write(f"refman: {SEARCH_CUT}; the rest were left out.\n")


def _narrowed(service: LibraryService, query: PaperQuery, name: str) -> PaperQuery:
    """The query within what a saved search finds (:func:`within_saved`): its words and
    tags, and the command line's too."""
    saved = service.saved_search(name)
    if saved.gone:  # (a deleted tag: what the search finds by it is nothing)
        sys.stderr.write(f"refman: the saved search “{saved.name}”: {gone_text(saved.gone)}.\n")
    return within_saved(saved, query)


def _listed(args: argparse.Namespace, service: LibraryService) -> PaperQuery:
    """The query of ``list`` / ``search``, checked, within the saved search asked for.

    Raises:
        NotFoundError: ``--person`` names no person (never did, or merged into another), or
            ``--tag`` no tag.
    """
    query = query_of(args)
    _check_search(args, query)
    if query.person_id is not None and service.person(query.person_id) is None:
        raise service.no_person(query.person_id)
    service.require_tags(query.tags, query.text)  # a mistyped tag is not a list of no papers
    if getattr(args, "saved", None):
        query = _narrowed(service, query, args.saved)
    return query


def _summary(shown: int, offset: int, total: int, searched: bool) -> str:
    if not total:
        return "No paper matches." if searched else "No papers."
    of = f"{shown} of {plural(total, 'paper')}"
    if not offset:
        return of
    if not shown:  # --offset past the end
        return f"{of} (--offset {offset}: the last is number {total})"
    last = offset + shown
    return f"{of} (number {last})" if shown == 1 else f"{of} (numbers {offset + 1}–{last})"


def _with_snippets(
    service: LibraryService, query: PaperQuery, details: list[PaperDetail]
) -> list[dict[str, Any]]:
    """The papers as JSON; in an Everything search, each with ``snippet``: where in its
    files the search found it (``{"file", "text", "missing"}``), or null."""
    papers = [paper_to_json(detail) for detail in details]
    if query.everything:
        for paper in papers:
            found = service.snippet(paper["id"], query.text)
            paper["snippet"] = (
                {"file": found.file, "text": found.text, "missing": found.missing}
                if found
                else None
            )
    return papers


def _snippet_lines(service: LibraryService, query: PaperQuery, rows: list[PaperRow]) -> list[str]:
    """Under the table of an Everything search: where in their files the papers matched."""
    if not query.everything:
        return []
    found = ((row.id, service.snippet(row.id, query.text)) for row in rows)
    return [f"  #{pid} in {f.where}: “{f.text}”" for pid, f in found if f is not None]


def run_list(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman list`` (and ``refman search``): a table, or a JSON array of papers."""
    query = _listed(args, service)
    total = service.count(query)
    offset = args.offset or 0
    limit = args.limit if args.limit is not None else max(0, total - offset)
    rows = service.papers(query, offset, limit) if limit else []
    if args.json:
        ids = [row.id for row in rows]
        details = []
        for start in range(0, len(ids), _DETAIL_CHUNK):
            details.extend(service.details(ids[start : start + _DETAIL_CHUNK]))
        write_json(out, _with_snippets(service, query, details))
        return 0
    lines = paper_table(rows, terminal_width()) + _snippet_lines(service, query, rows)
    unfiltered = not (query.text or query.tags or query.filters or query.person_id)
    if not total and unfiltered and query.section is Section.ALL:
        lines.append(
            "The library is empty. Import an author page or a bibliography with "
            '"refman import FILE".'
        )
    lines.append(
        _summary(len(rows), offset, total, not unfiltered) + _in_trash(service, query, total)
    )
    out.write("".join(line + "\n" for line in lines))
    return 0


def _in_trash(service: LibraryService, query: PaperQuery, total: int) -> str:
    """Where a search or a tag finds no paper in the library (``total``: none): how many
    papers of the Trash it finds, as the window's list says ("" for none)."""
    if total or query.section is not Section.ALL or not (query.text.strip() or query.tags):
        return ""
    found = service.count(replace(query, section=Section.TRASH))
    if not found:
        return ""
    does, them = ("does", "it") if found == 1 else ("do", "them")
    return f" {plural(found, 'paper')} in the Trash {does} (add --section trash to see {them})."


def run_show(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman show ID``."""
    detail = service.paper(args.id)
    if args.json:
        write_json(out, paper_to_json(detail))
    else:
        lines = paper_text(detail, terminal_width(), shared=service.db.shared)
        out.write("".join(line + "\n" for line in lines))
    return 0


def run_tags(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman tags``: every tag with its paper count."""
    tags = service.tags()
    if args.json:
        write_json(out, [tag_to_json(tag) for tag in tags])
        return 0
    lines = tag_table(tags) or ['No tags yet. Tag a paper with "refman tag ID TAG".']
    out.write("".join(line + "\n" for line in lines))
    return 0
