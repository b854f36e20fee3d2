"""The first connection to a shared library, turned away by its server: a wrong database or
user name, a missing or wrong password, TLS asked of a server without it, a library its
owner has not made yet. Each says what to mend; none is taken for an outage ("check the
network"), which it is not."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from refman.__main__ import main
from refman.common.errors import (
    LibraryOpenError,
    LibraryUnavailableError,
    RefmanError,
    ServerUnreachableError,
)
from refman.core.library import LibraryService
from refman.store.failures import server_described
from tests.helpers.postgres import editing_role


def _refused(address: str) -> RefmanError:
    with pytest.raises(RefmanError) as raised:
        LibraryService.open(address)
    assert not isinstance(raised.value, ServerUnreachableError)  # the server answered
    assert isinstance(raised.value, LibraryUnavailableError)
    return raised.value


def test_a_database_the_server_does_not_have_is_named(shared_library_url: str) -> None:
    address = make_url(shared_library_url).set(database="lab_paperz")
    error = _refused(address.render_as_string(hide_password=False))
    assert "cannot be opened: the server has no database “lab_paperz”" in error.message
    assert "Check the database name" in error.hint
    assert "Check the network" not in str(error)


def test_a_user_the_server_does_not_know_is_named(
    shared_library_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    address = make_url(shared_library_url).set(username="nobody_here")
    text = address.render_as_string(hide_password=False)
    error = _refused(text)
    assert "the server has no user “nobody_here”" in error.message
    assert main(["--db", text, "list"]) == 2
    err = capsys.readouterr().err
    assert "has no user “nobody_here”" in err and "Check the user name" in err
    assert "Check the network" not in err


@pytest.mark.parametrize(
    ("libpq", "said", "hint", "window_hint"),
    [
        (
            "fe_sendauth: no password supplied",
            "the server asks for a password, and none was given",
            "~/.pgpass",
            "Type it in File ▸ Open Library…",
        ),
        (
            'FATAL:  password authentication failed for user "alice"',
            "the server did not accept the password of user “alice”",
            "Check the password (in ~/.pgpass",
            "Check the password (typed in File ▸ Open Library…",
        ),
        (
            "server does not support SSL, but SSL was required",
            "offers no encrypted (TLS) connection",
            "drop ?sslmode=require from the address",
            "untick “Use TLS” in File ▸ Open Library…",
        ),
        (
            'FATAL:  no pg_hba.conf entry for host "10.0.0.7", user "alice", database "lab"',
            "does not let this user connect from this machine",
            "pg_hba.conf",
            "pg_hba.conf",
        ),
    ],
)
def test_a_password_or_tls_refusal_says_what_to_mend(
    libpq: str, said: str, hint: str, window_hint: str
) -> None:
    """libpq's own words (what psycopg raises while connecting, with no SQLSTATE): the test
    server trusts every local user, so it never asks for a password itself. The command
    line's hint names what the command line can mend, the window's its own menus (the
    command line was told to use File ▸ Open Library…)."""
    failure = psycopg.OperationalError(
        f'connection failed: connection to server at "127.0.0.1", port 5432 failed: {libpq}'
    )
    error = server_described(failure, "postgresql+psycopg://alice@db.example.org/lab")
    assert isinstance(error, LibraryUnavailableError)
    assert not isinstance(error, ServerUnreachableError)
    assert error.message.startswith(
        "The shared library “postgresql+psycopg://alice@db.example.org/lab” cannot be opened: "
    )
    assert said in error.message and hint in error.hint and window_hint in error.window_hint
    assert "File ▸" not in error.hint
    assert "Check the network" not in str(error)


def test_a_server_that_is_down_is_still_an_outage() -> None:
    failure = psycopg.OperationalError(
        'connection failed: connection to server at "127.0.0.1", port 9 failed: '
        "Connection refused\n\tIs the server running on that host?"
    )
    error = server_described(failure, "postgresql+psycopg://alice@127.0.0.1:9/lab")
    assert isinstance(error, ServerUnreachableError)
    assert "cannot be reached" in error.message


@pytest.fixture
def unmade_library(shared_library_url: str) -> Iterator[str]:
    """The address of an empty database on the test server: a shared library not made yet."""
    url = make_url(shared_library_url)
    name = f"refman_unmade_{os.getpid()}"
    admin = url.set(drivername="postgresql", database="postgres")
    dsn = admin.render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    yield url.set(database=name).render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_an_editor_first_to_open_a_new_shared_library_is_told_whom_to_ask(
    unmade_library: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only the owner may make the tables; an editor (or a reader) was told the server
    'refused this (permission denied for schema public)' and to check their password."""
    editor = editing_role(unmade_library, "refman_early_editor")
    with pytest.raises(LibraryOpenError) as raised:
        LibraryService.open(editor)
    assert raised.value.message == (
        f"The shared library “{editor}” is not made yet: its owner “postgres” makes it by "
        "opening it first, and the database user “refman_early_editor” may not."
    )
    assert f"refman --db {unmade_library} check" in raised.value.hint
    assert "Nothing was changed" in raised.value.hint
    source = tmp_path / "mine.sqlite"
    LibraryService.open(source).close()
    assert main(["copy-library", str(source), editor]) == 2
    assert "is not made yet" in capsys.readouterr().err
    assert main(["--db", unmade_library, "check"]) == 0  # the owner makes it
    capsys.readouterr()
    with closing(LibraryService.open(editing_role(unmade_library, "refman_early_editor"))) as s:
        assert s.paper_ids() == []
