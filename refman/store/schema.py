"""A library's schema brought up to date when it is opened: Alembic's migrations (after a
backup of a library file), refman's stamp on a file, and a whole search index."""

from __future__ import annotations

import logging
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import ProgrammingError

from refman.common.errors import LibraryOpenError
from refman.store.backend import on_server
from refman.store.backup import backup_path, copy_verified, folder_for
from refman.store.identity import APPLICATION_ID, Identity, Kind, check_revision
from refman.store.search_schema import repair_search, search_is_whole
from refman.store.search_terms import register_functions
from refman.store.shared import (
    NOT_THE_OWNER,
    owners_creation,
    owners_upgrade,
    read_only_reason,
)
from refman.store.trash_schema import repair_trash, trash_is_whole

log = logging.getLogger("refman.store")

#: The schema revision this version of refman writes: the newest migration (a test checks
#: that it is Alembic's head). Opening a library of this revision loads no Alembic at all.
SCHEMA_HEAD = "0038"


def _alembic_config() -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("refman.store") / "migrations"))
    return cfg


def head_revision() -> str:
    """The newest revision of the migrations (Alembic's head)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    assert head is not None
    return str(head)


def _current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        if "alembic_version" not in inspect(conn).get_table_names():
            return None
        found = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        return None if found is None else str(found)


def _backup(path: Path, revision: str | None, backups: Path | None) -> Path:
    """A verified copy of the library before an upgrade: in its backup folder (a backup
    like the others, ``…-upgrade.sqlite``), or beside it when refman keeps no backups."""
    now = datetime.now()
    if backups is not None:
        target = backup_path(folder_for(backups, path), now, "upgrade")
    else:
        stamp = now.strftime("%Y%m%d-%H%M%S")
        target = path.with_name(f"{path.name}.before-upgrade-{revision or 'none'}-{stamp}")
    return copy_verified(path, target, keep_others=backups is not None)


def bring_up(
    engine: Engine,
    identity: Identity,
    file_path: Path | None,
    backups: Path | None,
    read_only: str | None,
) -> str | None:
    """Make a library ready to use: migrated, stamped and its search index whole; a library
    that can only be read (a read-only file, a shared library's reading role) is only
    checked to be of a schema this refman knows. Returns why it can only be read, or None."""
    if read_only is None and on_server(engine):
        read_only = read_only_reason(engine)
    if read_only is not None:
        current = _current_revision(engine)
        check_revision(file_path or _shown(engine), current)
        if current != SCHEMA_HEAD:  # (this refman reads only its own schema)
            raise _not_upgradable(engine, file_path, current, read_only)
        return read_only
    _migrate(engine, file_path, backups)
    _stamp(engine, identity)
    _repair_search(engine, file_path)
    return None


def _not_upgradable(
    engine: Engine, file_path: Path | None, current: str | None, read_only: str
) -> LibraryOpenError:
    """The refusal of a library of an older schema that cannot be upgraded: it can only be
    read, and this refman reads libraries of its own schema only."""
    if file_path is None:  # a reading role of a shared library: its owner upgrades it
        return owners_upgrade(engine, current or "none", head_revision())
    return LibraryOpenError(
        f"The library “{file_path}” was written by an older refman (schema {current}) and "
        f"must be upgraded before this one can read it, but it can only be read: {read_only}.",
        "Make the file and its folder writable (or copy it somewhere you may write) and open "
        "it again: refman backs it up, then upgrades it.",
    )


def _repair_search(engine: Engine, file_path: Path | None) -> None:
    """Create again a search index, or the Trash's triggers, a library file lacks (read
    first: a whole library is not written to)."""
    if on_server(engine):
        return
    with engine.connect() as conn:
        whole = search_is_whole(conn) and trash_is_whole(conn)
    if not whole:
        with engine.begin() as conn:
            repaired = repair_search(conn)
            if repair_trash(conn):
                repaired.append("the Trash")
        log.warning("library %s: rebuilt %s", file_path, ", ".join(repaired))


def _stamp(engine: Engine, identity: Identity) -> None:
    """Mark the file as a refman library (a new one, or one from before the stamp)."""
    if identity.kind is Kind.REFMAN or on_server(engine):
        return
    with engine.begin() as conn:
        conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")


def _shown(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=True)


def _migrate(engine: Engine, file_path: Path | None, backups: Path | None) -> None:
    current = _current_revision(engine)
    if current == SCHEMA_HEAD:
        return
    from alembic import command
    from alembic.script import ScriptDirectory

    head = head_revision()
    script = ScriptDirectory.from_config(_alembic_config())
    where = file_path or _shown(engine)
    if current is not None and current not in {rev.revision for rev in script.walk_revisions()}:
        raise LibraryOpenError(
            f"The library “{where}” was written by a newer version of refman (schema {current}).",
            "Update refman to open it.",
        )
    if current is None and inspect(engine).get_table_names():
        raise LibraryOpenError(
            f"“{where}” is a database, but not a refman library.",
            "Open a refman library, or name a new file (or an empty database) to create one.",
        )
    if current is not None and file_path is not None:
        backup = _backup(file_path, current, backups)
        log.info("library %s upgraded from %s; copy kept at %s", file_path, current, backup)
    cfg = _alembic_config()
    try:
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            if not on_server(engine):  # (a migration may read text as an older refman did)
                register_functions(conn.connection.driver_connection)  # type: ignore[arg-type]
    except ProgrammingError as exc:
        if getattr(exc.orig, "sqlstate", None) != NOT_THE_OWNER:
            raise
        if current is None:
            raise owners_creation(engine) from exc
        raise owners_upgrade(engine, current, head) from exc
    log.info("library %s at schema %s", where, head)
