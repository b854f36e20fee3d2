"""Zotero's settings on this machine, as far as a Zotero library's import needs them: the base
folder that files linked "relative to the base directory" start from (``attachments:…`` in
the database; *Zotero ▸ Settings ▸ Advanced ▸ Files and Folders ▸ Linked Attachment Base
Directory*).

Zotero keeps its settings in ``prefs.js`` in its profile folder, not in the database:
``~/.zotero/zotero/<profile>/`` (Linux), ``~/Library/Application Support/Zotero/Profiles/
<profile>/`` (macOS), ``%APPDATA%\\Zotero\\Zotero\\Profiles\\<profile>\\`` (Windows). Of
several profiles, the one whose data folder is the database's folder is read.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

__all__ = ["base_folder"]

#: One setting of prefs.js: ``user_pref("extensions.zotero.NAME", "VALUE");``.
_PREF = re.compile(r'^user_pref\("extensions\.zotero\.(\w+)",\s*("(?:[^"\\]|\\.)*")\);', re.M)


def _profile_settings() -> list[Path]:
    """The prefs.js files of Zotero's profiles on this machine."""
    home = Path.home()
    roots = [
        home / ".zotero" / "zotero",
        home / "Library" / "Application Support" / "Zotero" / "Profiles",
    ]
    if os.environ.get("APPDATA"):
        roots.append(Path(os.environ["APPDATA"]) / "Zotero" / "Zotero" / "Profiles")
    return [p for root in roots if root.is_dir() for p in sorted(root.glob("*/prefs.js"))]


def _settings(path: Path) -> dict[str, str]:
    """Zotero's string settings in one prefs.js."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    found = {}
    for name, value in _PREF.findall(text):
        try:
            found[name] = str(json.loads(value))
        except ValueError:
            continue
    return found


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return a.expanduser().resolve() == b.resolve()
    except OSError:
        return False


def base_folder(data_folder: Path) -> Path | None:
    """The folder Zotero's files linked relative to its base directory start from, for the
    Zotero library whose database is in ``data_folder``; None when no Zotero profile on this
    machine names one.

    The profile whose data folder (``dataDir``; ``~/Zotero`` when it names none) is
    ``data_folder`` wins; otherwise the only profile that names a base folder.
    """
    named = []
    for settings in map(_settings, _profile_settings()):
        base = settings.get("baseAttachmentPath", "").strip()
        if not base:
            continue
        data = Path(settings.get("dataDir") or Path.home() / "Zotero")
        if _same_folder(data, data_folder):
            return Path(base)
        named.append(Path(base))
    return named[0] if len(named) == 1 else None
