"""``refman people``, ``person``, ``merge-people`` and ``not-same``: the people of a library.

JSON keys (stable; listed in the README):

* a person: ``id``, ``name``, ``papers``, ``pages`` (pages imported for them), ``new``
  (papers the last import of their page added, not looked at since);
* a person's page: the person's keys, and ``imports`` (``batch``, ``import``, ``source``,
  ``imported_at``, ``records``), ``coauthors`` (``id``, ``name``, ``shared``), ``variants``;
* a variant: ``first`` and ``second`` (people), ``overlap`` (papers and co-authors in common);
* what ``merge-people`` and ``not-same`` changed: ``changed``, ``unchanged`` (papers), and
  ``kept`` and ``merged``, or ``people`` (people's ids).
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from refman.cli.output import change_to_json, truncate, write_json
from refman.common.identifiers import MAX_ROW_ID
from refman.common.text import plural
from refman.core.importing.wording import day_text
from refman.core.library import LibraryService
from refman.core.people import PEOPLE_SHOWN
from refman.core.values import NameVariant, PersonPage, PersonView

#: The keys of a person in JSON, in output order.
PERSON_KEYS = ("id", "name", "papers", "pages", "new")


def person_to_json(person: PersonView) -> dict[str, Any]:
    """A person as JSON (:data:`PERSON_KEYS`)."""
    return {
        "id": person.id,
        "name": person.name,
        "papers": person.count,
        "pages": person.pages,
        "new": person.new,
    }


def variant_to_json(variant: NameVariant) -> dict[str, Any]:
    """Two spellings that may be one person, as JSON."""
    return {
        "first": person_to_json(variant.first),
        "second": person_to_json(variant.second),
        "overlap": variant.overlap,
    }


def page_to_json(page: PersonPage) -> dict[str, Any]:
    """A person's page as JSON."""
    return {
        **person_to_json(page.person),
        "imports": [
            {
                "batch": p.batch_id,
                "import": p.import_id,
                "source": p.source,
                "imported_at": p.imported_at.isoformat(),
                "records": p.parsed,
            }
            for p in page.pages
        ],
        "coauthors": [{"id": c.id, "name": c.name, "shared": c.shared} for c in page.coauthors],
        "variants": [variant_to_json(v) for v in page.variants],
    }


def _person_line(person: PersonView, width: int) -> str:
    extras = []
    if person.pages:
        extras.append(plural(person.pages, "page"))
    if person.new:
        extras.append(f"{person.new} new")
    said = f"  ({', '.join(extras)})" if extras else ""
    return f"{person.id:>7}  {person.count:>6}  {truncate(person.name, width)}{said}"


def _variant_line(variant: NameVariant) -> str:
    a, b = variant.first, variant.second
    return (
        f"“{b.name}” (#{b.id}, {plural(b.count, 'paper')}) may be “{a.name}” "
        f"(#{a.id}, {plural(a.count, 'paper')}): {variant.overlap} in common — "
        f"refman merge-people {a.id} {b.id}"
    )


def _print_variants(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    variants = service.name_variants()
    if args.json:
        write_json(out, [variant_to_json(v) for v in variants])
        return 0
    lines = [_variant_line(v) for v in variants] or ["No names look like one person's."]
    out.write("".join(line + "\n" for line in lines))
    return 0


def _people_lines(args: argparse.Namespace, people: list[PersonView], total: int) -> list[str]:
    named = f" named like “{args.name}”" if args.name else ""
    if not people:
        return [f"No people{named} in this library."]
    lines = [f"{'ID':>7}  {'PAPERS':>6}  NAME", *(_person_line(p, 60) for p in people)]
    if total > len(people):
        asked = "--limit" if args.name else "a NAME or --limit"
        lines.append(f"… and {total - len(people):,} more{named} (give {asked}).")
    return lines


def run_people(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman people [NAME] [--variants]``."""
    if args.variants:
        return _print_variants(args, service, out)
    # The table shows the first PEOPLE_SHOWN; JSON, for a program, everyone (unless --limit).
    limit = args.limit or (MAX_ROW_ID if args.json else PEOPLE_SHOWN)
    people, total = service.people_named(args.name, limit)
    if args.json:
        write_json(out, [person_to_json(p) for p in people])
    else:
        out.write("".join(line + "\n" for line in _people_lines(args, people, total)))
    return 0


def _page_lines(page: PersonPage) -> list[str]:
    p = page.person
    lines = [f"#{p.id}  {p.name}", "", f"Papers:     {p.count}  (refman list --person {p.id})"]
    if p.new:
        lines.append(f"New:        {p.new} from the last import of their page")
    lines += ["", "Pages imported"]
    lines += [
        f"  {day_text(i.imported_at)}  {i.source}  ({plural(i.parsed, 'record')})"
        for i in page.pages
    ] or ["  —"]
    lines += ["", "Co-authors"]
    lines += [f"  {c.shared:>4}  {c.name}  (#{c.id})" for c in page.coauthors] or ["  —"]
    if page.variants:
        lines += ["", "May be the same person"]
        lines += [f"  {_variant_line(v)}" for v in page.variants]
    return lines


def run_person(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman person ID``."""
    page = service.person_page(args.id)
    if page is None:
        raise service.no_person(args.id)
    if args.json:
        write_json(out, page_to_json(page))
    else:
        out.write("".join(line + "\n" for line in _page_lines(page)))
    return 0


def run_merge_people(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman merge-people KEEP OTHER`` (``--json``: the papers whose authors it
    changed, with ``kept`` and ``merged``, the two people)."""
    outcome = service.merge_people(args.keep, args.other)
    if args.json:
        own = {"kept": args.keep, "merged": args.other}
        write_json(out, change_to_json(outcome.changes.papers, **own))
        return 0
    out.write(f"{outcome.label}: one person now (#{args.keep}).\n")
    return 0


def run_not_same(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman not-same FIRST SECOND`` (``--json``: no paper changed, with ``people``,
    the two people)."""
    outcome = service.tell_apart(args.first, args.second)
    if args.json:
        write_json(out, change_to_json(outcome.changes.papers, people=[args.first, args.second]))
        return 0
    out.write(f"{outcome.label} (#{args.first} and #{args.second}): never proposed as one again.\n")
    return 0
