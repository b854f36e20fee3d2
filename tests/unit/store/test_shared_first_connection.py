"""The first connection to a shared library, turned away by its server: a wrong database or
user name, a missing or wrong password, TLS asked of a server without it. Each says what to
mend; none is taken for an outage ("check the network"), which it is not."""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy.engine import make_url

from refman.__main__ import main
from refman.common.errors import LibraryUnavailableError, RefmanError, ServerUnreachableError
from refman.core.library import LibraryService
from refman.store.failures import server_described


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
    ("libpq", "said", "hint"),
    [
        (
            "fe_sendauth: no password supplied",
            "the server asks for a password, and none was given",
            "~/.pgpass",
        ),
        (
            'FATAL:  password authentication failed for user "alice"',
            "the server did not accept the password of user “alice”",
            "Check the password",
        ),
        (
            "server does not support SSL, but SSL was required",
            "offers no encrypted (TLS) connection",
            "Use TLS",
        ),
        (
            'FATAL:  no pg_hba.conf entry for host "10.0.0.7", user "alice", database "lab"',
            "does not let this user connect from this machine",
            "pg_hba.conf",
        ),
    ],
)
def test_a_password_or_tls_refusal_says_what_to_mend(libpq: str, said: str, hint: str) -> None:
    """libpq's own words (what psycopg raises while connecting, with no SQLSTATE): the test
    server trusts every local user, so it never asks for a password itself."""
    failure = psycopg.OperationalError(
        f'connection failed: connection to server at "127.0.0.1", port 5432 failed: {libpq}'
    )
    error = server_described(failure, "postgresql+psycopg://alice@db.example.org/lab")
    assert isinstance(error, LibraryUnavailableError)
    assert not isinstance(error, ServerUnreachableError)
    assert error.message.startswith(
        "The shared library “postgresql+psycopg://alice@db.example.org/lab” cannot be opened: "
    )
    assert said in error.message and hint in error.hint
    assert "Check the network" not in str(error)


def test_a_server_that_is_down_is_still_an_outage() -> None:
    failure = psycopg.OperationalError(
        'connection failed: connection to server at "127.0.0.1", port 9 failed: '
        "Connection refused\n\tIs the server running on that host?"
    )
    error = server_described(failure, "postgresql+psycopg://alice@127.0.0.1:9/lab")
    assert isinstance(error, ServerUnreachableError)
    assert "cannot be reached" in error.message
