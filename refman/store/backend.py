"""Which kind a library is: a file (SQLite) or a shared library on a database server
(PostgreSQL). The one test of it, for an address, an engine, a connection, a session or a
dialect; what differs between the two kinds is decided by asking it."""

from __future__ import annotations

from sqlalchemy import Connection, Engine
from sqlalchemy.engine import URL, Dialect, make_url
from sqlalchemy.orm import Session

#: What the test can be asked about.
Target = str | URL | Engine | Connection | Session | Dialect


def on_server(target: Target) -> bool:
    """True for a shared library on a database server, False for a library file."""
    if isinstance(target, str | URL):
        return make_url(target).get_backend_name() != "sqlite"
    if isinstance(target, Session):
        return target.get_bind().dialect.name != "sqlite"
    dialect = target if isinstance(target, Dialect) else target.dialect
    return dialect.name != "sqlite"
