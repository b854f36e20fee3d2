"""The password of a shared library: one typed this session, else one kept in the system
keyring, else libpq's ``~/.pgpass``. Only a password the server took is kept in the
keyring, and one it refuses is forgotten, so that a password changed on the server (or
mistyped) never stands in the way of the right one."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from refman.__main__ import main
from refman.common.errors import LibraryUnavailableError
from refman.core.library import LibraryService
from refman.core.sharing import remember_password
from tests.helpers.keyrings import MemoryKeyring
from tests.helpers.postgres import password_role

pytestmark = pytest.mark.logs_warnings("refman.store")

RIGHT = "c0rrect-h0rse"


@pytest.fixture
def alice(shared_library_url: str) -> str:
    """A colleague's address (no password in it) on a server that asks her for one."""
    with closing(LibraryService.open(shared_library_url)):  # the owner made the library
        pass
    return password_role(shared_library_url, "refman_alice", RIGHT)


@pytest.fixture
def pgpass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """libpq's password file (empty: no ~/.pgpass of the machine's counts)."""
    path = tmp_path / "pgpass"
    path.write_text("")
    path.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(path))
    return path


def _in_pgpass(pgpass: Path, address: str, password: str) -> None:
    url = make_url(address)
    pgpass.write_text(f"{url.host}:{url.port}:{url.database}:{url.username}:{password}\n")


def _key(address: str) -> tuple[str, str]:
    url = make_url(address)
    return ("refman", f"{url.username}@{url.host}:{url.port}/{url.database}")


def _refused(address: str) -> LibraryUnavailableError:
    with pytest.raises(LibraryUnavailableError) as raised:
        LibraryService.open(address).close()
    return raised.value


def test_a_wrong_password_typed_is_not_kept_and_the_right_one_is_once_it_opened(
    alice: str, pgpass: Path, memory_keyring: MemoryKeyring
) -> None:
    """It went to the keyring before the library was tried: every later start was refused."""
    remember_password(alice, "c0rrect-horse", keep=True)
    error = _refused(alice)
    assert "did not accept the password of user “refman_alice”" in error.message
    assert memory_keyring.kept == {}
    remember_password(alice, RIGHT, keep=True)
    with closing(LibraryService.open(alice)) as opened:
        assert opened.paper_ids() == []
    assert memory_keyring.kept == {_key(alice): RIGHT}


def test_a_typed_password_refused_is_forgotten_and_the_next_try_takes_pgpass(
    alice: str, pgpass: Path, memory_keyring: MemoryKeyring
) -> None:
    """A typo used to win over ~/.pgpass for the rest of the session (Try Again refused)."""
    _in_pgpass(pgpass, alice, RIGHT)
    remember_password(alice, "typo", keep=False)
    assert "did not accept the password" in _refused(alice).message
    with closing(LibraryService.open(alice)) as opened:  # Try Again
        assert opened.paper_ids() == []


def test_a_password_kept_in_the_keyring_that_the_server_refuses_gives_way_to_pgpass(
    alice: str, pgpass: Path, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    """The password was changed on the server and in ~/.pgpass: the old one kept in the
    keyring blocked every start and every command for good."""
    memory_keyring.kept[_key(alice)] = "last year's"
    _in_pgpass(pgpass, alice, RIGHT)
    assert main(["--db", alice, "list"]) == 0
    assert "password" not in capsys.readouterr().err
    assert memory_keyring.kept == {}  # forgotten: not tried again
    with closing(LibraryService.open(alice)) as opened:
        assert opened.paper_ids() == []


def test_a_refused_kept_password_without_pgpass_says_so_and_the_next_try_asks_for_one(
    alice: str, pgpass: Path, memory_keyring: MemoryKeyring
) -> None:
    memory_keyring.kept[_key(alice)] = "last year's"
    assert "did not accept the password of user “refman_alice”" in _refused(alice).message
    assert memory_keyring.kept == {}
    assert "the server asks for a password, and none was given" in _refused(alice).message
    remember_password(alice, RIGHT, keep=True)  # typed in File ▸ Open Library…
    with closing(LibraryService.open(alice)):
        pass
    assert memory_keyring.kept == {_key(alice): RIGHT}
