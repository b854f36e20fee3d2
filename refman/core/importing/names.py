"""The names an import brings for its people: one spelling per person key, the best written
(:func:`~refman.core.spellings.better_spelling`), and the people of the library it names
better."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from refman.common.text import person_key
from refman.core.paper_state import PaperState
from refman.core.spellings import better_spelling
from refman.core.state_io import person_names
from refman.importers.records import PersonName


@dataclass
class ImportNames:
    """Per person key, the spelling an import shows (``names``) and the name parts its
    source gave for that spelling (``parts``; none: read from the name)."""

    names: dict[str, str] = field(default_factory=dict)
    parts: dict[str, PersonName] = field(default_factory=dict)

    def offer(self, name: str, parts: PersonName | None = None) -> str:
        """Meet a spelling of someone (an author, a page owner); their person key."""
        key = person_key(name)
        kept = self.names.get(key)
        if kept is None or better_spelling(kept, name) != kept:
            self.names[key] = name
            if parts is None:
                self.parts.pop(key, None)
            else:
                self.parts[key] = parts
        elif parts is not None and kept == name:
            self.parts.setdefault(key, parts)
        return key

    def share(self, session: Session, states: Iterable[PaperState]) -> dict[str, str]:
        """Give the papers the names of their people: the library's for people in it, else
        the import's.

        Returns:
            The people of the library the import spells better: key -> its spelling.
        """
        states = list(states)
        for state in states:
            for key in (*state.authors, *state.attributions):
                if key not in state.names and key in self.names:
                    state.names[key] = self.names[key]
        known = person_names(session, [k for s in states for k in s.names])
        for state in states:
            state.names.update({k: known[k] for k in state.names if k in known})
        return {
            key: self.names[key]
            for key, name in known.items()
            if key in self.names and better_spelling(name, self.names[key]) != name
        }
