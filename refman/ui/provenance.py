"""Where a paper came from and who worked on it, as the detail pane says it."""

from __future__ import annotations

from refman.core.values import PaperDetail


def provenance_line(owner: str, file: str, when: str) -> str:
    """One line of where a paper came from, e.g. "From Zhuo Jiang's page · a.txt · imported …"."""
    start = f"From {owner}'s page · {file}" if owner else f"From {file}"
    return f"{start} · imported {when}"


def who_line(added_by: str, changed_by: str | None) -> str:
    """Who added a paper of a shared library and who changed it last."""
    if changed_by is None or changed_by == added_by:
        return f"Added and last changed by {added_by}"
    return f"Added by {added_by} · last changed by {changed_by}"


def source_text(paper: PaperDetail, shared: bool) -> str:
    """The detail pane's Source block: the pages the paper came from (or when it was added),
    then, on a shared library, who added and changed it."""
    lines = [
        provenance_line(s.owner, s.file, f"{s.imported:%Y-%m-%d %H:%M}") for s in paper.sources
    ] or [f"Added {paper.added:%Y-%m-%d %H:%M}"]
    if shared and paper.created_by:
        lines.append(who_line(paper.created_by, paper.modified_by))
    return "\n".join(lines)
