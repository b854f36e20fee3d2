"""A throwaway PostgreSQL server for the tests, and a fresh database per test.

``.ci/run`` starts one before the suite (``python -m tests.helpers.postgres start DIR``
prints ``REFMAN_TEST_POSTGRES=<address>``) and stops it afterwards (``stop DIR``). Without
that variable, the first test that needs PostgreSQL starts a server of its own for the
session, where the server's programs are installed; with ``REFMAN_REQUIRE_POSTGRES=1`` a
missing server fails the tests instead of skipping them.

The server refuses to run as root: as root it runs as the system user ``refmanpg`` (created
when missing), in a temporary data directory, on a free port of the loopback interface.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

#: Where Debian keeps PostgreSQL 15's server programs.
BIN = Path(os.environ.get("REFMAN_PG_BIN", "/usr/lib/postgresql/15/bin"))
USER = "refmanpg"
ADDRESS_VARIABLE = "REFMAN_TEST_POSTGRES"
REQUIRE_VARIABLE = "REFMAN_REQUIRE_POSTGRES"


@dataclass(frozen=True)
class Server:
    """A running server: its data folder and the address of its ``postgres`` database."""

    folder: Path
    port: int

    def address(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"


def available() -> bool:
    """True when the server's programs are installed."""
    return (BIN / "initdb").exists() and (BIN / "pg_ctl").exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_server_user(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    if subprocess.run(["id", USER], capture_output=True).returncode != 0:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
            check=True,
        )
    return ["runuser", "-u", USER, "--", *argv]


def start(folder: Path | None = None) -> Server:
    """Create a data folder and start a server in it (fsync off: a test server)."""
    folder = Path(folder or tempfile.mkdtemp(prefix="refman-pg-"))
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        _as_server_user(["true"])  # creates the user
        shutil.chown(folder, USER)
    data = folder / "data"
    initdb = [str(BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust"]
    subprocess.run(
        _as_server_user([*initdb, "-E", "UTF8", "--locale=C.UTF-8"]),
        check=True,
        capture_output=True,
    )
    port = _free_port()
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    pg_ctl = [str(BIN / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log")]
    subprocess.run(
        _as_server_user([*pg_ctl, "-w", "start"]),
        check=True,
        capture_output=True,
    )
    (folder / "port").write_text(str(port))
    return Server(folder, port)


def stop(folder: Path) -> None:
    """Stop the server of a data folder and remove the folder."""
    data = folder / "data"
    if data.exists():
        subprocess.run(
            _as_server_user([str(BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
        )
    shutil.rmtree(folder, ignore_errors=True)


def reading_role(address: str, role: str) -> str:
    """Make ``role`` a user who may only read the shared library at ``address`` (as the
    readers' role of packaging/shared-library.sql); the library's address for that user."""
    import psycopg

    dsn = address.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP ROLE IF EXISTS {role}")
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}")
        conn.execute(f"GRANT SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}")
    return address.replace("//postgres@", f"//{role}@")


def editing_role(address: str, role: str) -> str:
    """Make ``role`` an editor of the shared library at ``address`` (as the editors' role of
    packaging/shared-library.sql: it may change the rows, not the tables, which only their
    owner may); the library's address for that user."""
    import psycopg

    dsn = address.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP ROLE IF EXISTS {role}")
        conn.execute(f"CREATE ROLE {role} LOGIN")
        rights = {"TABLES": "SELECT, INSERT, UPDATE, DELETE", "SEQUENCES": "USAGE, SELECT, UPDATE"}
        for kind, granted in rights.items():
            conn.execute(f"GRANT {granted} ON ALL {kind} IN SCHEMA public TO {role}")
    return address.replace("//postgres@", f"//{role}@")


def password_role(address: str, role: str, password: str) -> str:
    """Make ``role`` an editor of the shared library at ``address`` who must give
    ``password`` (the test server trusts every other user: its ``pg_hba.conf`` asks this one
    for a password); the library's address for that user, without the password."""
    import time

    import psycopg

    dsn = address.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:  # (made by an earlier test)
        if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
            conn.execute(f"DROP OWNED BY {role}")
    editor = editing_role(address, role)
    _on_server(address, f"ALTER ROLE {role} PASSWORD '{password}'")
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute("SHOW hba_file").fetchone()
        assert row is not None
        hba = Path(str(row[0]))
        rule = f"host all {role} 127.0.0.1/32 scram-sha-256\n"
        rules = hba.read_text()
        if rule not in rules:
            hba.write_text(rule + rules)
            conn.execute("SELECT pg_reload_conf()")
    asked = editor.replace("postgresql+psycopg://", "postgresql://")
    for _ in range(50):  # until the server reads its rules again
        try:
            psycopg.connect(asked, password="", passfile=os.devnull).close()
        except psycopg.OperationalError:
            return editor
        time.sleep(0.1)
    raise AssertionError(f"the test server does not ask {role} for a password")


def _on_server(address: str, *statements: str) -> None:
    """Run statements as the administrator, from the server's ``postgres`` database."""
    import psycopg

    dsn = address.replace("postgresql+psycopg://", "postgresql://").rsplit("/", 1)[0]
    with psycopg.connect(f"{dsn}/postgres", autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


@contextmanager
def server_away(address: str) -> Iterator[None]:
    """The shared library at ``address`` out of reach while the block runs, as when its
    server is stopped: the connections to it are ended and no new one is let in. Reachable
    again afterwards (the server's other databases, other tests', stay as they were)."""
    name = address.rsplit("/", 1)[1].split("?")[0]
    _on_server(
        address,
        f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false',
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        f"WHERE datname = '{name}' AND pid <> pg_backend_pid()",
    )
    try:
        yield
    finally:
        _on_server(address, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')


def _postmaster(address: str) -> int:
    """The server's first process (the parent of every backend)."""
    import psycopg

    dsn = address.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:  # (its backend read while there)
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        return int(Path(f"/proc/{row[0]}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _children(parent: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError):  # a process that ended meanwhile
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == parent:
                found.append(int(stat.parent.name))
    return found


@contextmanager
def server_frozen(address: str, at_most: float = 40.0) -> Iterator[None]:
    """The server of the shared library at ``address`` stops answering while the block runs,
    as when its processes are stopped (``kill -STOP``): connections stay open, a new one
    waits, nothing is answered. It goes on afterwards, where it stopped — or after
    ``at_most`` seconds, whatever the block does meanwhile (a test that waits for refman to
    give up fails instead of waiting for ever when it does not)."""
    postmaster = _postmaster(address)
    os.kill(postmaster, signal.SIGSTOP)  # first: it starts no process while the rest stop
    processes = [postmaster, *_children(postmaster)]
    for pid in processes[1:]:
        with contextlib.suppress(ProcessLookupError):  # (one that was ending)
            os.kill(pid, signal.SIGSTOP)

    def thaw() -> None:
        for pid in processes:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    timer = threading.Timer(at_most, thaw)
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        thaw()


def main(argv: list[str]) -> int:
    """``start DIR`` (prints the address as a shell assignment) or ``stop DIR``."""
    if len(argv) != 2 or argv[0] not in {"start", "stop"}:
        print("usage: python -m tests.helpers.postgres start|stop DIR", file=sys.stderr)
        return 2
    folder = Path(argv[1])
    if argv[0] == "stop":
        stop(folder)
        return 0
    server = start(folder)
    print(f"{ADDRESS_VARIABLE}={server.address()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
