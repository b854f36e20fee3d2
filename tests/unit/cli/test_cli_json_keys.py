"""Every key that a command's ``--json`` prints is listed in the README, and every key list
of the README is printed: a script can be written from the README alone."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from refman.cli.output import PAPER_KEYS
from tests.helpers.cli import Cli, runner
from tests.helpers.fixtures import REPO
from tests.helpers.pages import abstracts_page, publication_page
from tests.helpers.pdfs import make_pdf

README = (REPO / "README.md").read_text(encoding="utf-8")
#: The key lists the README writes as ``{"a", "b", …}``.
GROUPS = [
    tuple(re.findall(r'"([a-z_]+)"', found))
    for found in re.findall(r'\{("[a-z_]+"(?:,\s*"[a-z_]+")*)\}', README)
]
#: The keys the README names in its text (`held`, `imports`, "html", …).
NAMED = set(re.findall(r"[`\"]([a-z_]+)[`\"]", README))
#: Two papers (authors, abstract) of an abstracts page that share distinctive words; Zhuo
#: Jiang, an author, may be Z. Jiang, the page's owner.
RELATED_PAPERS = [
    (
        "Zhuo Jiang, Mira Okafor",
        "We schedule pipeline parallel training across straggling accelerators and recover "
        "the throughput lost to them.",
    ),
    (
        "Mira Okafor, Lars Berg",
        "Straggling accelerators slow pipeline parallel training; we overlap its checkpoint "
        "writes with computation.",
    ),
]
#: Values that are maps of the data's own names (rows per table), not objects.
MAPS = {"rows", "copied", "lost"}


def _objects(value: Any) -> Iterator[tuple[str, ...]]:
    """The key tuple of every JSON object in ``value``, nested ones too."""
    if isinstance(value, dict):
        yield tuple(value)
        for key, inner in value.items():
            if key not in MAPS:
                yield from _objects(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _objects(inner)


def _documented(keys: tuple[str, ...]) -> tuple[str, ...] | None:
    """The README's key list these keys are (the paper's keys, written out in its text,
    are one too), perhaps with keys named in the README's text before or after it."""
    for group in sorted([*GROUPS, PAPER_KEYS], key=len, reverse=True):  # the longest that fits
        for start in range(len(keys) - len(group) + 1):
            if keys[start : start + len(group)] == group:
                extra = keys[:start] + keys[start + len(group) :]
                if all(key in NAMED for key in extra):
                    return group
    return None


def _json(cli: Cli, *args: object) -> Any:
    done = cli(*args)
    assert done.code in (0, 2), done.err  # (check --files exits 2 with a file missing)
    if "import" in args:  # one object per line
        return [json.loads(line) for line in done.out.splitlines()]
    return json.loads(done.out)


def _printed(cli: Cli, library: Path, tmp_path: Path) -> dict[str, Any]:
    """What every command that has ``--json`` prints, on a library where each has
    something to say."""
    old = tmp_path / "old.txt"
    old.write_text(publication_page("Zhuo Jiang", [("Stragglers", 2024, "arXiv")]), "utf-8")
    new = tmp_path / "new.txt"
    new.write_text(abstracts_page("Z. Jiang", RELATED_PAPERS), encoding="utf-8")
    again = tmp_path / "again.txt"  # Stragglers again, and one more
    records = [("Stragglers", 2024, "arXiv"), ("Fresh", 2025, "arXiv")]
    again.write_text(publication_page("Zhuo Jiang", records), encoding="utf-8")
    out: dict[str, Any] = {"import": _json(cli, "import", "--json", old, new, again)}
    out["import again"] = _json(cli, "import", "--json", "--dry-run", old)
    pdf = make_pdf(tmp_path / "inside.pdf", lines=("Axolotl regeneration is remarkable.",))
    out["attach"] = _json(cli, "attach", "1", pdf, "--json")
    fake = tmp_path / "fake.pdf"
    fake.write_text("a note saved with the wrong name", encoding="utf-8")
    assert cli("attach", "1", fake, "--link").code == 0
    lost = make_pdf(tmp_path / "lost.pdf")
    assert cli("attach", "2", lost, "--link").code == 0
    lost.unlink()
    fake.write_text("changed since, and still not a PDF", encoding="utf-8")  # read again
    out["note"] = _json(cli, "note", "1", "Read it", "--json")
    assert cli("tag", "1", "to read").code == 0
    out["save-search"] = _json(cli, "save-search", "Recent", "--search", "year:2024..", "--json")
    for command in ("tags", "searches", "history", "people", "backups", "styles"):
        out[command] = _json(cli, command, "--json")
    history = out["history"]
    out["list"] = _json(cli, "list", "--json")
    out["show"] = _json(cli, "show", "1", "--json")
    out["search"] = _json(cli, "search", "axolotl", "--everything", "--json")
    out["variants"] = _json(cli, "people", "--variants", "--json")
    owner = next(person for person in out["people"] if person["pages"])
    out["person"] = _json(cli, "person", owner["id"], "--json")
    out["related"] = _json(cli, "related", "2", "--json")
    out["cite"] = _json(cli, "cite", "1", "2", "--format", "html", "--json")
    out["cite keys"] = _json(cli, "cite", "1", "--keys", "--json")
    out["cite in-text"] = _json(cli, "cite", "1", "2", "--in-text", "--format", "html", "--json")
    out["styles languages"] = _json(cli, "styles", "--languages", "--json")
    out["merge"] = _json(cli, "merge", "1", "2", "--dry-run", "--json")
    out["revert"] = _json(cli, "revert", history[0]["import"], "--dry-run", "--json")  # removed
    out["revert first"] = _json(cli, "revert", history[-1]["import"], "--dry-run", "--json")
    out["index-files"] = _json(cli, "index-files", "--json")
    out["check"] = _json(cli, "check", "--json")
    out["check --files"] = _json(cli, "check", "--files", "--json")
    out.update(_changes_printed(cli, out))
    out["backup"] = _json(cli, "backup", "--json")
    out["restore-backup"] = _json(cli, "restore-backup", out["backup"]["path"], "--json")
    out["recover"] = _json(cli, "recover", tmp_path / "recovered.sqlite", "--json")
    out["copy-library"] = _json(cli, "copy-library", library, tmp_path / "copy.sqlite", "--json")
    return out


def _changes_printed(cli: Cli, printed: dict[str, Any]) -> dict[str, Any]:
    """What the commands that change the library print (each changes something)."""
    variant = printed["variants"][0]
    first, second = variant["first"]["id"], variant["second"]["id"]
    return {
        "add": _json(cli, "add", "A Book by Hand", "--author", "Ann Smith", "--json"),
        "tag": _json(cli, "tag", "2", "later", "--json"),
        "untag": _json(cli, "untag", "2", "later", "never", "--json"),
        "rename-tag": _json(cli, "rename-tag", "to read", "reading list", "--json"),
        "delete-tag": _json(cli, "delete-tag", "reading list", "--json"),
        "edit": _json(cli, "edit", "2", "--year", "2023", "--json"),
        "mark": _json(cli, "mark", "1", "2", "read", "--json"),
        "rate": _json(cli, "rate", "2", "3", "--json"),
        "detach": _json(cli, "detach", "1", "fake.pdf", "--json"),
        "trash": _json(cli, "trash", "3", "--json"),
        "restore": _json(cli, "restore", "3", "2", "--json"),
        "trash again": _json(cli, "trash", "3", "--json"),
        "empty-trash": _json(cli, "empty-trash", "--json"),
        "not-same": _json(cli, "not-same", first, second, "--json"),
        "merge-people": _json(cli, "merge-people", first, second, "--json"),
        "delete-search": _json(cli, "delete-search", "Recent", "--json"),
    }


@pytest.mark.sqlite_only
def test_every_json_key_is_in_the_readme_and_every_readme_key_list_is_printed(
    capsys: pytest.CaptureFixture[str], library_path: Path, tmp_path: Path
) -> None:
    printed = _printed(runner(capsys, library_path), library_path, tmp_path)
    undocumented = {
        (command, keys)
        for command, value in printed.items()
        for keys in _objects(value)
        if _documented(keys) is None
    }
    assert undocumented == set()
    shown = {_documented(keys) for value in printed.values() for keys in _objects(value)}
    assert [group for group in GROUPS if group not in shown] == []
