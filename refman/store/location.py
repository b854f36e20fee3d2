"""Where a library is: a file (created, identified and checked for write access here) or a
shared library's address on a database server."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from refman.common.errors import LibraryOpenError
from refman.store.identity import Identity, Kind, identify
from refman.store.shared import require_driver


def to_url(location: str | Path) -> str:
    """Turn a file path or an SQLAlchemy URL into an SQLAlchemy URL (a libpq-style
    ``postgresql://`` address means refman's driver, psycopg 3)."""
    text = str(location)
    scheme, found, rest = text.partition("://")
    if found and scheme in {"postgresql", "postgres"}:
        return f"postgresql+psycopg://{rest}"
    if found:
        return text
    return f"sqlite:///{Path(text).expanduser().resolve()}"


def locate(url: str) -> tuple[Path | None, Identity, str | None]:
    """The library file of a URL (None in memory), what it holds, and why it can only be
    read (None when it can be written); its folder is created when need be."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise LibraryOpenError(
            f"“{url}” is neither a library file nor an address refman understands.",
            "Give a library file (library.sqlite) or a sqlite:/// address.",
        ) from exc
    if parsed.get_backend_name() == "postgresql":
        require_driver(parsed)
        return None, Identity(Kind.REFMAN), None
    if parsed.get_backend_name() != "sqlite":
        raise LibraryOpenError(
            f"refman cannot open a library at “{parsed.render_as_string(hide_password=True)}”: "
            f"“{parsed.drivername}” is not a kind of library it knows.",
            "Give a library file (library.sqlite), a sqlite:/// address or a shared "
            "library's postgresql+psycopg:// address.",
        )
    if not parsed.database or parsed.database == ":memory:":
        return None, Identity(Kind.NEW), None
    file_path = Path(parsed.database)
    identity = identify(file_path)
    read_only = read_only_reason(file_path, identity)
    if read_only is None:
        try:
            file_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LibraryOpenError(
                f"Cannot create the folder for the library “{file_path}”: {exc.strerror}.",
                "Choose a location you can write to.",
            ) from exc
    return file_path, identity, read_only


def engine_url(url: str, file_path: Path | None, read_only: str | None) -> str:
    """The address the engine opens: the library's, or a read-only one."""
    if read_only is None or file_path is None:
        return url
    return f"sqlite:///{read_only_uri(file_path)}&uri=true"


def read_only_uri(file_path: Path) -> str:
    """The SQLite URI that reads a library that cannot be written (its file or its folder is
    read-only). One with no write-ahead log beside it is open nowhere for writing (nobody
    can write it): it is read as it is, leaving no -wal or -shm file behind (which a
    read-only folder could not hold)."""
    logs = [Path(f"{file_path}{suffix}").exists() for suffix in ("-wal", "-shm")]
    mode = "mode=ro" if any(logs) else "immutable=1"
    return f"{file_path.resolve().as_uri()}?{mode}"


def read_only_reason(path: Path, identity: Identity) -> str | None:
    """Why an existing library can only be read (its file or folder is read-only), or None."""
    if identity.kind is Kind.NEW:
        return None
    folder = path.resolve().parent
    if not os.access(path, os.W_OK):
        return f"the file “{path}” is read-only"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"its folder “{folder}” is read-only"
    return None
