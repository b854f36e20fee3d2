"""The window's remembered state and the preferences, declared once and typed, over QSettings.

Every preference is a :class:`Preference` declared in :data:`PREFERENCES` (its key, type,
default and label); :meth:`WindowSettings.get` and :meth:`WindowSettings.set` are the one way
to read and change them. Tests build :class:`WindowSettings` on an explicit INI file so they
never touch the user's real settings.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QByteArray, QSettings

from refman import paths

log = logging.getLogger("refman.ui")

SETTINGS_VERSION = 1
#: The libraries whose place the settings keep (those open last).
PLACES_KEPT = 20

T = TypeVar("T", str, bool, int)


@dataclass(frozen=True)
class Preference(Generic[T]):
    """A preference: where it is kept, what it holds and how the Preferences dialog names it."""

    key: str
    default: T
    label: str


#: The citation style of Copy Citation (a style id of :mod:`refman.core.citations`).
CITATION_STYLE = Preference("citing/style", "apa", "Citation style")
#: The language of Copy Citation (a locale id of :mod:`refman.core.citation_languages`; ""
#: for each style's own).
CITATION_LANGUAGE = Preference("citing/language", "", "Citation language")
#: The format Export… proposes (a format of :mod:`refman.core.export`).
EXPORT_FORMAT = Preference("export/format", "bibtex", "Export format")
#: Export notes too (BibTeX annote, RIS N1).
EXPORT_NOTES = Preference("export/notes", False, "Include notes in exports")
#: The folder the last export went to, where Export… proposes to save the next one ("" for
#: none yet). Remembered, not shown in the Preferences dialog.
EXPORT_FOLDER = Preference("export/folder", "", "Export folder")

#: Attached files are linked where they are instead of copied into the library's folder.
FILES_LINK = Preference("files/link", False, "Link files where they are (do not copy them)")
#: The folder linked files' paths are kept relative to ("" for none): a synced folder that
#: has another place on every machine.
FILES_BASE = Preference("files/base", "", "Base folder of linked files")

#: Every preference, in the order the Preferences dialog shows them.
PREFERENCES: tuple[Preference[str] | Preference[bool] | Preference[int], ...] = (
    CITATION_STYLE,
    CITATION_LANGUAGE,
    EXPORT_FORMAT,
    EXPORT_NOTES,
    FILES_LINK,
    FILES_BASE,
)


@dataclass(frozen=True)
class Place:
    """Where the window was when it closed: the section, the person or the saved search
    shown, the tags picked, the current paper, and the list's sort ("" when none was kept)."""

    section: str = "all"
    person: int | None = None
    tags: tuple[str, ...] = ()
    paper: int | None = None
    saved: int | None = None
    sort: str = ""
    descending: bool = False

    def to_json(self) -> str:
        """The place as the settings keep it."""
        kept = [self.section, self.person, list(self.tags), self.paper, self.saved]
        return json.dumps([*kept, self.sort, self.descending])

    @classmethod
    def from_json(cls, text: str) -> Place:
        """A place kept by :meth:`to_json` (or by a refman that kept no saved search, or no
        sort); nowhere (the default) when it cannot be read."""
        try:
            section, person, tags, paper, *rest = json.loads(text)
            saved, sort, descending = [*rest, None, "", False][:3]
            kept = tuple(str(t) for t in tags)
            place = cls(str(section), _id(person), kept, _id(paper), _id(saved))
            return replace(place, sort=str(sort), descending=descending is True)
        except (TypeError, ValueError):
            return cls()

    def somewhere(self) -> bool:
        """Whether the place is other than All papers with no tag nor paper (whatever the
        sort)."""
        return replace(self, sort="", descending=False) != Place()


def _id(value: object) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(value)
    return value


class WindowSettings:
    """Geometry, splitter sizes, list columns, pane visibility and the current library."""

    def __init__(self, file: Path | None = None) -> None:
        path = file or paths.config_dir() / "refman.ini"
        #: Why the settings cannot be kept (their folder cannot be made, the file written),
        #: or None: the window then starts all the same, and says so.
        self.problem: str | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self.problem = f"“{path.parent}” cannot be made ({exc.strerror or exc})"
        self._qs = QSettings(str(path), QSettings.Format.IniFormat)
        if self._qs.value("version") is None:
            self._qs.setValue("version", SETTINGS_VERSION)
            self._qs.sync()
        unwritable = self._qs.status() != QSettings.Status.NoError or (
            path.exists() and not os.access(path, os.W_OK)
        )
        if self.problem is None and unwritable:
            self.problem = f"“{path}” cannot be written"
        if self.problem is not None:
            log.warning("window settings not kept: %s", self.problem)
        #: The library remembered to reopen stays the one remembered (it could not be
        #: opened this time: another library stands in for it).
        self.library_kept = False
        #: Told of every preference changed (the files' base folder, say).
        self.on_change: list[Callable[[Preference[Any]], None]] = []

    @property
    def path(self) -> Path:
        """The settings file."""
        return Path(self._qs.fileName())

    def _bytes(self, key: str) -> QByteArray | None:
        value = self._qs.value(key)
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def geometry(self) -> QByteArray | None:
        """The main window's saved geometry."""
        return self._bytes("window/geometry")

    def window_state(self) -> QByteArray | None:
        """The main window's saved toolbar/dock state."""
        return self._bytes("window/state")

    def splitter(self) -> QByteArray | None:
        """The saved sizes of the three panes."""
        return self._bytes("window/splitter")

    def header(self) -> QByteArray | None:
        """The saved column order and widths of the paper list."""
        return self._bytes("list/header")

    def title_width(self) -> int | None:
        """The width the person left the list's titles when they last set a column's width
        (None when they never did)."""
        value = self._qs.value("list/title")
        try:
            return None if value is None else int(str(value))
        except ValueError:
            return None

    def hidden_columns(self) -> list[str]:
        """The names of the list's columns the person hid (the header's menu)."""
        try:
            names = json.loads(str(self._qs.value("list/hidden", "[]")))
        except ValueError:
            return []
        return [str(name) for name in names] if isinstance(names, list) else []

    def place(self, library: str) -> Place:
        """Where the window was when it last closed on this library (nowhere: the default),
        with the list's sort. An older refman kept one place and one sort, those of the
        library open last: they are that library's."""
        kept = self._places().get(library)
        last = library == self.last_library()
        if kept is None and last:
            kept = str(self._qs.value("list/place", ""))
        place = Place.from_json(kept or "")
        if not place.sort and last and (sort := self._qs.value("list/sort")):
            descending = str(self._qs.value("list/descending", False)).lower() in ("true", "1")
            place = replace(place, sort=str(sort), descending=descending)
        return place

    def _places(self) -> dict[str, str]:
        """Each library's place, by its location, the one closed last at the end."""
        try:
            places = json.loads(str(self._qs.value("list/places", "{}")))
        except ValueError:
            return {}
        return {str(k): str(v) for k, v in places.items()} if isinstance(places, dict) else {}

    def _keep_place(self, library: str, place: Place) -> None:
        places = self._places()
        places.pop(library, None)
        places[library] = place.to_json()
        kept = dict(list(places.items())[-PLACES_KEPT:])
        self._qs.setValue("list/places", json.dumps(kept))

    def pane_visible(self, name: str) -> bool:
        """Whether a pane ("tags", "list", "detail") was visible."""
        value = self._qs.value(f"panes/{name}", True)
        return str(value).lower() not in ("false", "0")

    def last_library(self) -> str | None:
        """The library open when the window last closed."""
        value = self._qs.value("library/last")
        return str(value) if value else None

    def get(self, preference: Preference[T]) -> T:
        """A preference's value (its default when unset or unreadable)."""
        value = self._qs.value(preference.key)
        if value is None:
            return preference.default
        kind = type(preference.default)
        if kind is bool:
            return str(value).lower() in ("true", "1")
        try:
            return kind(value)
        except (TypeError, ValueError):
            return preference.default

    def set(self, preference: Preference[T], value: T) -> None:
        """Change a preference (kept at once; :attr:`on_change` is told)."""
        self._qs.setValue(preference.key, value)
        self._qs.sync()
        for tell in self.on_change:
            tell(preference)

    def save(
        self,
        *,
        geometry: QByteArray,
        window_state: QByteArray,
        splitter: QByteArray,
        header: QByteArray,
        panes: dict[str, bool],
        library: str,
        title_width: int | None = None,
        place: Place | None = None,
        hidden_columns: list[str] | None = None,
    ) -> None:
        """Remember the window as it is now."""
        self._qs.setValue("window/geometry", geometry)
        self._qs.setValue("window/state", window_state)
        self._qs.setValue("window/splitter", splitter)
        self._qs.setValue("list/header", header)
        if hidden_columns is not None:
            self._qs.setValue("list/hidden", json.dumps(hidden_columns))
        if title_width is None:
            self._qs.remove("list/title")
        else:
            self._qs.setValue("list/title", title_width)
        if place is not None:
            self._keep_place(library, place)
        self._qs.remove("list/sort")  # (each library's sort is kept in its place)
        self._qs.remove("list/descending")
        for name, visible in panes.items():
            self._qs.setValue(f"panes/{name}", visible)
        if not self.library_kept:
            self._qs.setValue("library/last", library)
        self._qs.sync()
