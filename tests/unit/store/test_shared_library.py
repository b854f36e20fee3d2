"""A shared library on a real PostgreSQL server: the same search as a library file, plain
messages for what only a shared library meets (an unreachable server, backups)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from alembic import command

from refman.__main__ import main
from refman.common.errors import LibraryOpenError, RefmanError, ServerUnreachableError
from refman.core.library import LibraryService
from refman.core.values import PaperQuery, Section, SortKey
from refman.store import schema
from refman.store.schema import SCHEMA_HEAD as HEAD
from tests.helpers.cli import Cli
from tests.helpers.fixtures import fill_library, sourced
from tests.helpers.pages import generated_page
from tests.helpers.postgres import editing_role, reading_role

#: A page whose words test folding: diacritics, LaTeX, hyphens, dotted codes, digits.
PAGE = """arXiv subjects
Zoë Núñez
Publications and source records attributed to Zoë Núñez.
3 recordsLinked to original sources

arXiv2024

Café-Scale: Self-Supervised Pipeline Parallelism for Straggler-Resilient Training

We study $\\alpha$-balanced pipeline schedules on 1,024 GPUs; naïve re-ordering wins 1.6x.

cs.DC↗

arXiv2023

Münchhausen Bootstrapping of Large Language Models

Großartige results: large language models bootstrap themselves from v2.0 checkpoints.

cs.CL↗

arXiv2022

Straggler Mitigation in Federated Learning at the Edge

Edge devices straggle; we re-balance work across the federation with pipeline hints.

cs.LG↗
"""

QUERIES = [
    "pipeline",
    "pipe",
    "p",
    "straggler",
    "strag",
    "large language",
    '"large language"',
    '"language large"',
    '"pipeline parallelism"',
    "cafe",
    "café",
    "naive",
    "NAÏVE",
    "zoe nunez",
    "munchhausen",
    "self supervised",
    "self-supervised",
    "cs.DC",
    "dc",
    "1 024",
    "1.6x",
    "v2",
    "alpha",
    "α",
    "picked",
    "second pipeline",
    "edge",
    "zzzz",
    '"',
    "*",
    "a AND",
    "NEAR(a b, 3)",
    "title:edge",
    "-edge",
    "'",
    "((pipeline)",
]


@pytest.fixture
def both(tmp_path: Path, shared_library_url: str) -> Iterator[tuple[LibraryService, ...]]:
    """The same papers, tags and notes in a library file and in a shared library."""
    services = (
        LibraryService.open(tmp_path / "file.sqlite"),
        LibraryService.open(shared_library_url),
    )
    for service in services:
        service.import_pages([sourced(PAGE, "page.txt")])
        fill_library(service)
        ids = service.paper_ids()
        service.add_note(ids[0], "Read the straggler section again")
        service.tag(ids[-2:], ["edge cases"])
    yield services
    for service in services:
        service.close()


def test_every_query_finds_the_same_papers_in_a_file_and_on_the_server(
    both: tuple[LibraryService, LibraryService],
) -> None:
    file, shared = both
    assert file.count() == shared.count() > 10
    differences = {}
    for text in QUERIES:
        for section in (Section.ALL, Section.TRASH):
            # In the order papers came in (the ranks of two engines differ in their digits)
            query = PaperQuery(text=text, section=section, sort=SortKey.ADDED)
            in_file, on_server = file.paper_ids(query), shared.paper_ids(query)
            assert file.count(query) == len(in_file)
            assert shared.count(query) == len(on_server)
            if in_file != on_server:
                differences[(text, section.value)] = (in_file, on_server)
    assert differences == {}
    assert file.paper_ids(PaperQuery(text="pipeline")) != []  # the queries find something


def test_a_title_match_ranks_above_an_abstract_match_on_the_server(
    both: tuple[LibraryService, LibraryService],
) -> None:
    _, shared = both
    ranked = shared.paper_ids(PaperQuery(text="straggler", sort=SortKey.RELEVANCE))
    titles = [shared.paper(pid).title for pid in ranked]
    in_title = [t for t in titles if "straggler" in t.casefold()]
    assert in_title and titles[: len(in_title)] == in_title


def test_the_search_follows_edits_tags_notes_and_the_trash(shared_library_url: str) -> None:
    service = LibraryService.open(shared_library_url)
    try:
        (pid,) = service.import_pages([sourced(PAGE, "page.txt")]).new_ids[:1]
        service.edit_fields(pid, title="Quokka Scheduling")
        assert service.paper_ids(PaperQuery(text="quokka")) == [pid]
        assert service.paper_ids(PaperQuery(text="café")) == []
        service.tag([pid], ["wombat reading"])
        assert service.paper_ids(PaperQuery(text="wombat")) == [pid]
        note = service.add_note(pid, "numbat notes")
        assert service.paper_ids(PaperQuery(text="numbat quokka")) == [pid]
        service.delete_note(note.id)
        assert service.paper_ids(PaperQuery(text="numbat")) == []
        service.trash([pid])
        assert service.paper_ids(PaperQuery(text="quokka")) == []
        assert service.paper_ids(PaperQuery(text="quokka", section=Section.TRASH)) == [pid]
    finally:
        service.close()


def test_an_unreachable_server_is_a_plain_message() -> None:
    with pytest.raises(RefmanError) as raised:
        LibraryService.open("postgresql+psycopg://nobody@127.0.0.1:9/library")
    message = f"{raised.value}"
    assert "cannot be reached" in message
    assert "Traceback" not in message
    assert "\n" not in message and "\t" not in message  # libpq's report: its first sentence
    assert isinstance(raised.value, ServerUnreachableError)  # an outage, not damage


def test_another_driver_is_refused_with_the_address_to_write() -> None:
    with pytest.raises(LibraryOpenError, match="psycopg"):
        LibraryService.open("postgresql+asyncpg://someone@127.0.0.1/library")


def test_backups_of_a_shared_library_are_the_servers_job(
    cli: Cli, backend: str, library: LibraryService
) -> None:
    result, listed = cli("backup"), cli("backups")
    if backend == "sqlite":
        assert result.code == 0
        assert listed.code == 0 and "manual" in listed.out  # the one just made
        return
    for said in (result, listed):  # no refman backup is made or offered
        assert said.code == 2
        assert "backed up by its database server" in said.err
        assert "pg_dump" in said.err
        assert "refman backup" not in said.err


@pytest.fixture
def reader_url(shared_library_url: str) -> str:
    """The shared library's address for a database user who may only read it."""
    with closing(LibraryService.open(shared_library_url)) as service:
        service.import_pages([sourced(PAGE, "page.txt")])
    return reading_role(shared_library_url, "refman_reader_test")


def test_a_reading_role_browses_searches_and_exports_but_changes_nothing(
    reader_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with closing(LibraryService.open(reader_url)) as service:
        assert "may only read" in (service.db.read_only or "")
        assert service.count(PaperQuery(text="pipeline")) == 2
        with pytest.raises(RefmanError, match="cannot be changed"):
            service.tag(service.paper_ids()[:1], ["mine"])
        assert service.tags() == []
    assert main(["--db", reader_url, "export", "--format", "ris"]) == 0
    assert capsys.readouterr().out.count("TY  - ") == 3
    assert main(["--db", reader_url, "tag", "1", "mine"]) == 2
    err = capsys.readouterr().err
    assert "refman_reader_test" in err and "may only read" in err
    assert "ask the library's owner" in err and "writable" not in err  # whom, not a file's


def test_a_libpq_style_address_opens_with_refmans_driver(shared_library_url: str) -> None:
    plain = shared_library_url.replace("postgresql+psycopg://", "postgresql://")
    with closing(LibraryService.open(plain)) as service:
        assert service.db.shared
        assert service.location.startswith("postgresql+psycopg://")


@pytest.mark.logs_warnings("refman.store")
def test_check_of_a_shared_library_finds_papers_missing_from_the_search(
    shared_library_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with closing(LibraryService.open(shared_library_url)) as service:
        service.import_pages([sourced(PAGE, "page.txt")])
    assert main(["--db", shared_library_url, "check"]) == 0
    assert "is whole" in capsys.readouterr().out
    _admin_sql(shared_library_url, "DELETE FROM paper_words WHERE paper_id = 1")
    assert main(["--db", shared_library_url, "check"]) == 2
    said = capsys.readouterr().err
    assert "1 papers are missing from the search index" in said
    assert "refman check --full" in said  # what to do about it


@pytest.mark.logs_warnings("refman.store")  # the repair is logged
def test_a_full_check_of_a_shared_library_indexes_missing_papers_again(
    shared_library_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with closing(LibraryService.open(shared_library_url)) as service:
        service.import_pages([sourced(PAGE, "page.txt")])
        (pid,) = service.paper_ids(PaperQuery(text="Münchhausen"))
    _admin_sql(shared_library_url, f"DELETE FROM paper_words WHERE paper_id = {pid}")
    with closing(LibraryService.open(shared_library_url)) as service:
        assert service.paper_ids(PaperQuery(text="Münchhausen")) == []  # not found
    assert main(["--db", shared_library_url, "check", "--full"]) == 0
    assert "is whole" in capsys.readouterr().out
    with closing(LibraryService.open(shared_library_url)) as service:
        assert service.paper_ids(PaperQuery(text="Münchhausen")) == [pid]
    assert main(["--db", shared_library_url, "check"]) == 0


def _admin_sql(address: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(address.replace("+psycopg", ""), autocommit=True) as conn:
        conn.execute(statement)


def test_a_library_of_a_newer_refman_is_named_by_its_address(shared_library_url: str) -> None:
    _admin_sql(shared_library_url, "UPDATE alembic_version SET version_num = 'f00dcafe9999'")
    try:
        with pytest.raises(LibraryOpenError) as raised:
            LibraryService.open(shared_library_url)
    finally:  # (the session's library serves the tests after this one)
        _admin_sql(shared_library_url, f"UPDATE alembic_version SET version_num = '{HEAD}'")
    assert raised.value.message == (
        f"The library “{shared_library_url}” was written by a newer version of refman "
        "(schema f00dcafe9999)."
    )


@pytest.mark.logs_warnings("refman.store")
def test_an_upgrade_only_the_owner_may_run_says_whom_to_ask(shared_library_url: str) -> None:
    with closing(LibraryService.open(shared_library_url)) as owner:
        owner.import_pages([sourced(PAGE, "page.txt")])
        cfg = schema._alembic_config()
        with owner.db.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0025")
    editor = editing_role(shared_library_url, "refman_editor_test")
    try:
        with pytest.raises(LibraryOpenError) as raised:
            LibraryService.open(editor)
    finally:
        assert main(["--db", shared_library_url, "check"]) == 0  # the owner upgrades it
    assert raised.value.message == (
        f"The shared library “{editor}” needs an upgrade for this refman (schema 0025 to "
        f"{HEAD}) that only its owner “postgres” may run."
    )
    assert f"refman --db {shared_library_url} check" in raised.value.hint
    with closing(LibraryService.open(editor)) as opened:
        assert opened.count(PaperQuery(text="pipeline")) == 2


def _socket_options(raw: Any) -> tuple[int, ...]:
    import socket

    with socket.socket(fileno=os.dup(raw.pgconn.socket)) as sock:
        return tuple(
            sock.getsockopt(level, option)
            for level, option in (
                (socket.SOL_SOCKET, socket.SO_KEEPALIVE),
                (socket.IPPROTO_TCP, socket.TCP_KEEPIDLE),
                (socket.IPPROTO_TCP, socket.TCP_KEEPINTVL),
                (socket.IPPROTO_TCP, socket.TCP_KEEPCNT),
                (socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT),
            )
        )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's socket options")
def test_a_connection_whose_server_went_away_is_given_up_within_a_minute(
    shared_library_url: str,
) -> None:
    """TCP keepalives (probed after 15 s idle, every 5 s, given up after 6 unanswered) and
    45 s for sent data to be acknowledged: a command whose server's machine or network went
    away exits 2 with a plain message instead of waiting for ever; every connection of a
    shared library has them, the window's change feed's too."""
    with closing(LibraryService.open(shared_library_url)) as service:
        wanted = (1, 15, 5, 6, 45_000)
        with service.db.engine.connect() as conn:
            assert _socket_options(conn.connection.driver_connection) == wanted
        feed = service.db.watch()
        try:
            assert _socket_options(feed._conn) == wanted  # type: ignore[attr-defined]
        finally:
            feed.close()


def test_a_command_says_when_the_server_stops_answering_and_goes_on_when_it_answers(
    shared_library_url: str, tmp_path: Path
) -> None:
    import psycopg

    from tests.helpers.postgres import server_frozen

    page = tmp_path / "page.txt"
    page.write_text(generated_page(4000), encoding="utf-8")
    env = {**os.environ, "REFMAN_HOME": str(tmp_path / "home")}
    command = [sys.executable, "-m", "refman", "--db", shared_library_url, "import", str(page)]
    running = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    dsn = shared_library_url.replace("postgresql+psycopg://", "postgresql://")
    locked = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
    with psycopg.connect(dsn, autocommit=True) as admin:  # the import holds its lock: writes
        while running.poll() is None and admin.execute(locked).fetchone() == (0,):
            time.sleep(0.005)
    with server_frozen(shared_library_url):
        time.sleep(10)  # asked after 5 s, 3 s to answer
    _out, err = running.communicate(timeout=120)
    assert running.returncode == 0, err
    said = err.splitlines()
    assert said[0] == (
        "refman: The library server is not answering; waiting for it. Ctrl+C gives up (within "
        "seconds; a change not saved yet is then dropped by the server)."
    )
    assert said[1:] in ([], ["refman: The library server answers again."])  # (if asked again)
    with closing(LibraryService.open(shared_library_url)) as service:
        assert service.count() == 4000  # the import went on once the server answered
