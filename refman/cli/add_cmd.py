"""``refman add TITLE``: a paper added by hand (:mod:`refman.core.new_papers`), the way the
window's *New Paper…* adds it."""

from __future__ import annotations

import argparse
from typing import TextIO

from refman.cli.edit_cmd import EDIT_OPTIONS
from refman.cli.output import change_to_json, write_json
from refman.core.library import LibraryService
from refman.core.new_papers import Added, typed_page, typed_record

__all__ = ["ADD_FIELDS", "run_add"]

#: ``refman add`` options and the fields they give: ``refman edit``'s (the title is the
#: command's argument).
ADD_FIELDS = {option: name for option, name in EDIT_OPTIONS.items() if name != "title"}


def run_add(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman add TITLE [--author A] [--year Y] … [--tag T]`` (``--json``: ``changed``,
    ``unchanged``, then ``id``, the paper's, ``created``, whether it is new, and
    ``resembles``, the id of a paper it may be, or null)."""
    given = {name: getattr(args, option) or "" for option, name in ADD_FIELDS.items()}
    record = typed_record(args.title, args.author, given, args.tags)
    added = Added.of(record, service.import_pages([typed_page(record)]))
    if args.json:
        like = added.resembles[0] if added.resembles else None
        changed = [added.paper_id] if added.created or added.updated else []
        own = {"id": added.paper_id, "created": added.created, "resembles": like}
        write_json(out, change_to_json(changed, [added.paper_id], **own))
        return 0
    out.write(added.text() + "\n")
    return 0
