"""A shared library: one library on a PostgreSQL server, used by a whole group.

The address is SQLAlchemy's (``postgresql+psycopg://USER@HOST:PORT/DBNAME?sslmode=require``);
the password comes from libpq's ``~/.pgpass`` (or ``PGPASSFILE``) and is never written by
refman. The driver, psycopg 3, comes with refman's ``postgres`` extra
(``pip install 'refman[postgres]'``); the base install opens library files only.

The same migrations create the schema on both kinds of library; what differs lives in the
store: the search index (:mod:`refman.store.search_pg`), and the revision (counters that
every change moves on in its own transaction, see :mod:`refman.store.connection`).
"""

from __future__ import annotations

import importlib.util
import logging
from typing import Any

from sqlalchemy import Engine, text
from sqlalchemy.engine import URL, make_url

from refman.common.errors import LibraryOpenError
from refman.store.backend import on_server
from refman.store.failures import no_password, password_refused
from refman.store.search import Fts5Index, SearchIndex

log = logging.getLogger("refman.store")

#: The install that brings the driver of shared libraries.
INSTALL_HINT = "Install refman's PostgreSQL support: pip install 'refman[postgres]'."


#: Under which name refman keeps passwords in the system keyring.
KEYRING_SERVICE = "refman"
#: Passwords typed for this session (never written anywhere), by :func:`_key`.
_SESSION: dict[str, str] = {}
#: The libraries whose password typed this session goes to the system keyring once the
#: server took it.
_TO_KEEP: set[str] = set()


def _key(url: URL) -> str:
    return f"{url.username}@{url.host}:{url.port or 5432}/{url.database}"


def shared_address(host: str, port: int, database: str, user: str, *, tls: bool) -> str:
    """The address of a shared library (no password: see :func:`remember_password`)."""
    query = {"sslmode": "require"} if tls else {}
    url = URL.create("postgresql+psycopg", user, None, host, port, database, query)
    return url.render_as_string(hide_password=False)


def address_parts(address: str) -> tuple[str, int, str, str, bool]:
    """A shared library's server, port, database, user and whether it insists on TLS (what
    :func:`shared_address` makes an address of)."""
    url = make_url(address)
    tls = url.query.get("sslmode") == "require"
    return url.host or "", url.port or 5432, url.database or "", url.username or "", tls


def remember_password(address: str, password: str, *, keep: bool) -> None:
    """Use ``password`` for a shared library for this session and, with ``keep``, keep it in
    the system keyring once the server took it (a password it refuses is never kept, and
    forgotten: see :func:`connect`)."""
    key = _key(make_url(address))
    _SESSION[key] = password
    if keep:
        _TO_KEEP.add(key)
    else:
        _TO_KEEP.discard(key)


def _keyring() -> Any:
    """The keyring package (raises when it is not installed)."""
    import keyring

    return keyring


def _kept_password(key: str) -> str | None:
    try:
        found = _keyring().get_password(KEYRING_SERVICE, key)
    except Exception as exc:  # no keyring: libpq's password file is the way
        log.debug("no password from the system keyring for %s: %s", key, exc)
        return None
    return None if found is None else str(found)


def password_for(url: URL) -> str | None:
    """The password to connect with, when the address names none: one typed this session,
    else the system keyring's; None leaves it to libpq (``~/.pgpass``, ``PGPASSFILE``)."""
    if url.password is not None:
        return None
    key = _key(url)
    return _SESSION[key] if key in _SESSION else _kept_password(key)


def _taken(key: str, password: str) -> None:
    """The server took ``password``: keep it in the system keyring when that was asked."""
    if key not in _TO_KEEP or _SESSION.get(key) != password:
        return
    _TO_KEEP.discard(key)
    try:
        _keyring().set_password(KEYRING_SERVICE, key, password)
    except Exception as exc:  # no keyring installed, or none usable on this system
        log.warning("the system keyring could not keep the password of %s: %s", key, exc)


def _refused(key: str) -> bool:
    """Forget a password the server refused: typed this session (True), or kept in the
    system keyring (False: deleted from it, so that it no longer stands in the way)."""
    _TO_KEEP.discard(key)
    if _SESSION.pop(key, None) is not None:
        return True
    log.warning("the server refused the password kept in the system keyring for %s", key)
    try:
        _keyring().delete_password(KEYRING_SERVICE, key)
    except Exception as exc:  # (gone already, or the keyring cannot be changed)
        log.warning("the system keyring could not forget the password of %s: %s", key, exc)
    return False


def connect(dialect: Any, url: URL, cargs: Any, cparams: dict[str, Any]) -> Any:
    """Connect to a shared library with the password typed this session, else the one kept
    in the system keyring, else libpq's own (``~/.pgpass``). A password the server refuses
    is forgotten at once (one kept in the keyring deleted from it): a typed one is refused
    as the server refused it, and a kept one gives way to libpq's password file; the next
    try asks for none of them again. A typed password kept when asked once the server took it.
    """
    password = password_for(url)
    if password is None:
        return dialect.connect(*cargs, **cparams)
    key = _key(url)
    try:
        connection = dialect.connect(*cargs, **{**cparams, "password": password})
    except Exception as exc:
        if not password_refused(exc) or _refused(key):
            raise
        try:
            return dialect.connect(*cargs, **cparams)
        except Exception as again:
            if no_password(again):  # (no ~/.pgpass either: the refusal says what to mend)
                raise exc from None
            raise
    _taken(key, password)
    return connection


def require_driver(url: URL) -> None:
    """Refuse a shared library's address when its driver is missing or another one is named.

    Raises:
        LibraryOpenError: The address names another driver, or psycopg is not installed.
    """
    shown = url.render_as_string(hide_password=True)
    if url.get_driver_name() != "psycopg":
        raise LibraryOpenError(
            f"refman opens shared libraries with psycopg 3, not “{url.get_driver_name()}” "
            f"(“{shown}”).",
            "Write the address as postgresql+psycopg://USER@HOST/DATABASE.",
        )
    if importlib.util.find_spec("psycopg") is None:
        raise LibraryOpenError(
            f"The shared library “{shown}” needs PostgreSQL support, which this refman "
            "was installed without.",
            INSTALL_HINT,
        )


def read_only_reason(engine: Engine) -> str | None:
    """Why the database user may only read this shared library (a role granted ``SELECT``
    alone), or None when they may change it. A library not created yet counts as
    changeable: creating it needs the rights to change it."""
    with engine.connect() as conn:
        row = conn.execute(
            text(
                "SELECT current_user, to_regclass('public.papers') IS NOT NULL AND NOT "
                "has_table_privilege(current_user, 'public.papers', 'UPDATE')"
            )
        ).one()
    user, reader = row
    if not reader:
        return None
    return f"the database user “{user}” may only read this shared library"


#: The SQLSTATE of a right the database user lacks (an upgrade's change of a table: only the
#: library's owner may make it).
NOT_THE_OWNER = "42501"


def _owner(engine: Engine, query: str) -> tuple[str | None, URL]:
    """The database user ``query`` names (None when none), and the library's address with
    that user (``OWNER`` when none) and no password, for the command they run."""
    with engine.connect() as conn:
        owner = conn.execute(text(query)).scalar()
    return owner, engine.url.set(username=owner or "OWNER", password=None)


def owners_creation(engine: Engine) -> LibraryOpenError:
    """The refusal to make a new shared library's tables by a database user who may not
    (only the owner of the database's schema may create them): whom to ask, and what they
    run."""
    owner, address = _owner(
        engine,
        "SELECT CASE WHEN n.nspowner = 'pg_database_owner'::regrole "
        "THEN pg_get_userbyid(d.datdba) ELSE pg_get_userbyid(n.nspowner) END "
        "FROM pg_namespace n, pg_database d "
        "WHERE n.nspname = 'public' AND d.datname = current_database()",
    )
    return LibraryOpenError(
        f"The shared library “{engine.url.render_as_string(hide_password=True)}” is not "
        f"made yet: its owner{f' “{owner}”' if owner else ''} makes it by opening it first, "
        f"and the database user “{engine.url.username}” may not.",
        "Ask them to open it once, for example "
        f"refman --db {address.render_as_string(hide_password=True)} check (or to copy a "
        "library into it with refman copy-library); then open it again. Nothing was changed.",
    )


def owners_upgrade(engine: Engine, current: str, head: str) -> LibraryOpenError:
    """The refusal of an upgrade an editor's database user may not run (only the owner of
    the library's tables may change them): whom to ask, and what they run."""
    owner, address = _owner(
        engine,
        "SELECT tableowner FROM pg_tables "
        "WHERE schemaname = 'public' AND tablename = 'alembic_version'",
    )
    return LibraryOpenError(
        f"The shared library “{engine.url.render_as_string(hide_password=True)}” needs an "
        f"upgrade for this refman (schema {current} to {head}) that only its owner"
        f"{f' “{owner}”' if owner else ''} may run.",
        "Ask them to open it once with this version of refman, for example "
        f"refman --db {address.render_as_string(hide_password=True)} check; then open it "
        "again. Nothing was changed.",
    )


def search_index(engine: Engine) -> SearchIndex:
    """The search index of a library, by where it lives."""
    if on_server(engine):
        from refman.store.search_pg import PgIndex

        return PgIndex()
    return Fts5Index()
