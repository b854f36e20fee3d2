"""Merging what an import brings into a paper, as pure functions over in-memory state.

The rules: a real title replaces a provisional one; a complete author list replaces an
incomplete one, and a longer incomplete list a shorter one; a missing year, venue, abstract
or subject is filled in; attributions accumulate. A field the user edited by hand is never
overwritten.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from refman.common.text import latex_to_text, plural
from refman.core.rules import tag_key
from refman.importers.records import ParsedRecord


@dataclass(slots=True)
class PaperState:
    """Everything an import may read or change about one paper.

    Authors and attributions are held as person keys; :attr:`names` maps each key to the
    display name to use when the person is new.
    """

    id: int
    title: str
    title_provisional: bool
    abstract: str
    abstract_text: str
    year: int | None
    venue: str | None
    authors: list[str]
    authors_complete: bool
    attributions: list[str]
    subjects: list[str]
    tags: list[str]
    user_edited: set[str]
    possible_duplicate_of: int | None = None
    added_at: datetime | None = None
    modified_at: datetime | None = None
    trashed_at: datetime | None = None
    names: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready snapshot (for undoing an import exactly)."""
        return {
            "id": self.id,
            "title": self.title,
            "title_provisional": self.title_provisional,
            "abstract": self.abstract,
            "abstract_text": self.abstract_text,
            "year": self.year,
            "venue": self.venue,
            "authors": self.authors,
            "authors_complete": self.authors_complete,
            "attributions": self.attributions,
            "subjects": self.subjects,
            "tags": self.tags,
            "user_edited": sorted(self.user_edited),
            "possible_duplicate_of": self.possible_duplicate_of,
            "added_at": self.added_at.isoformat() if self.added_at else None,
            "modified_at": self.modified_at.isoformat() if self.modified_at else None,
            "trashed_at": self.trashed_at.isoformat() if self.trashed_at else None,
            "names": self.names,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PaperState:
        """Rebuild a snapshot made by :meth:`to_json`."""

        def when(value: str | None) -> datetime | None:
            return datetime.fromisoformat(value) if value else None

        return cls(
            id=data["id"],
            title=data["title"],
            title_provisional=data["title_provisional"],
            abstract=data["abstract"],
            abstract_text=data["abstract_text"],
            year=data["year"],
            venue=data["venue"],
            authors=list(data["authors"]),
            authors_complete=data["authors_complete"],
            attributions=list(data["attributions"]),
            subjects=list(data["subjects"]),
            tags=list(data["tags"]),
            user_edited=set(data["user_edited"]),
            possible_duplicate_of=data["possible_duplicate_of"],
            added_at=when(data["added_at"]),
            modified_at=when(data["modified_at"]),
            trashed_at=when(data["trashed_at"]),
            names=dict(data["names"]),
        )

    def copy(self) -> PaperState:
        """An independent copy."""
        return PaperState.from_json(self.to_json())


def new_state(
    paper_id: int,
    record: ParsedRecord,
    owner_key: str | None,
    author_keys: list[str],
    *,
    title: str | None = None,
) -> PaperState:
    """The state of a paper created from a record.

    Args:
        paper_id: The id the new paper gets.
        record: The record.
        owner_key: Person key of the page owner (attribution), if any.
        author_keys: Person keys of the record's authors, in order.
        title: A title the user typed for a record without one; it replaces the suggestion
            and counts as the user's.
    """
    user_title = bool(title and title.strip())
    return PaperState(
        id=paper_id,
        title=title.strip() if title and user_title else record.title,
        title_provisional=record.title_provisional and not user_title,
        abstract=record.abstract,
        abstract_text=latex_to_text(record.abstract),
        year=record.year,
        venue=record.venue,
        authors=list(author_keys),
        authors_complete=record.authors_complete,
        attributions=[owner_key] if owner_key else [],
        subjects=list(dict.fromkeys(record.subjects)),
        tags=[],
        user_edited={"title"} if user_title else set(),
    )


def merge_into(
    state: PaperState,
    record: ParsedRecord,
    owner_key: str | None,
    owner_name: str | None,
    author_keys: list[str],
) -> list[str]:
    """Merge a record into a paper's state, in place.

    Returns:
        Plain phrases of what the merge added, e.g. ``["a title", "attribution to Liang
        Xiang", "3 authors"]``; empty when the record brought nothing new.
    """
    adds: list[str] = []
    if (
        state.title_provisional
        and not record.title_provisional
        and "title" not in state.user_edited
    ):
        state.title = record.title
        state.title_provisional = False
        adds.append("a title")
    if owner_key and owner_key not in state.attributions:
        state.attributions.append(owner_key)
        adds.append(f"attribution to {owner_name or owner_key}")
    adds.extend(_merge_authors(state, record, author_keys))
    adds.extend(_fill_missing(state, record))
    new_subjects = [s for s in dict.fromkeys(record.subjects) if s not in state.subjects]
    if new_subjects:
        state.subjects.extend(new_subjects)
        word = "subject" if len(new_subjects) == 1 else "subjects"
        adds.append(f"{word} {', '.join(new_subjects)}")
    return adds


def _merge_authors(state: PaperState, record: ParsedRecord, author_keys: list[str]) -> list[str]:
    """A complete author list replaces an incomplete one, a longer incomplete a shorter."""
    if not author_keys or "authors" in state.user_edited or state.authors_complete:
        return []
    if not record.authors_complete and len(author_keys) <= len(state.authors):
        return []
    gained = len(author_keys) - len(state.authors)
    state.authors = list(author_keys)
    state.authors_complete = record.authors_complete
    return [plural(gained, "author") if gained > 0 else "the complete author list"]


def _fill_missing(state: PaperState, record: ParsedRecord) -> list[str]:
    """Fill in a missing year, venue or abstract (unless the user cleared it by hand)."""
    adds = []
    if state.year is None and record.year is not None and "year" not in state.user_edited:
        state.year = record.year
        adds.append("the year")
    if not state.venue and record.venue and "venue" not in state.user_edited:
        state.venue = record.venue
        adds.append("the venue")
    if not state.abstract and record.abstract:
        state.abstract = record.abstract
        state.abstract_text = latex_to_text(record.abstract)
        adds.append("the abstract")
    return adds


def add_tags(state: PaperState, names: list[str]) -> None:
    """Add tags (case-insensitively new ones only) to a paper's state."""
    have = {tag_key(t) for t in state.tags}
    for name in names:
        if tag_key(name) not in have:
            state.tags.append(name)
            have.add(tag_key(name))


def author_line(names: list[str], complete: bool) -> str:
    """The list's author column: "First Author", or "First Author et al."."""
    if not names:
        return ""
    if len(names) > 1 or not complete:
        return f"{names[0]} et al."
    return names[0]


def sort_author(names: list[str]) -> str:
    """Sort key of the first author: family name, then given names, casefolded."""
    if not names:
        return ""
    parts = names[0].split()
    if len(parts) > 1:
        return (parts[-1] + " " + " ".join(parts[:-1])).casefold()
    return names[0].casefold()
