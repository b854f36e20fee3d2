"""Writing an export file: all or nothing, and any file already there survives a failure."""

from __future__ import annotations

import errno
import os
import stat
import threading
from pathlib import Path

import pytest

from refman.core.export import ExportWriteError, write_export


def test_writes_utf8_with_the_line_ends_given(tmp_path: Path) -> None:
    target = tmp_path / "refs.ris"
    assert write_export(target, "TY  - JOUR\r\nAU  - Müller\r\n") == target
    assert target.read_bytes() == "TY  - JOUR\r\nAU  - Müller\r\n".encode()
    assert [p.name for p in tmp_path.iterdir()] == ["refs.ris"]


def test_a_csv_file_starts_with_the_mark_spreadsheets_read_utf8_by(tmp_path: Path) -> None:
    # (Excel reads a CSV without it in the Windows code page: "MÃ¼ller")
    target = tmp_path / "refs.CSV"
    write_export(target, "a,b\r\nMüller,1\r\n")
    assert target.read_bytes() == b"\xef\xbb\xbf" + "a,b\r\nMüller,1\r\n".encode()
    assert target.read_text(encoding="utf-8-sig") == "a,b\nMüller,1\n"


def test_replaces_a_file_and_keeps_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    write_export(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_new_file_gets_the_usual_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_export(tmp_path / "refs.bib", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "refs.bib").stat().st_mode) == 0o644


def test_a_missing_folder_is_a_plain_error(tmp_path: Path) -> None:
    with pytest.raises(ExportWriteError, match=r"Could not write .*No such file or directory"):
        write_export(tmp_path / "nowhere" / "refs.bib", "x")
    assert not (tmp_path / "nowhere").exists()


def test_a_folder_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(ExportWriteError, match="is a folder"):
        write_export(tmp_path, "x")


def test_a_failed_write_leaves_the_old_file_and_no_litter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "refs.bib"
    target.write_text("precious", encoding="utf-8")

    def disk_full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(ExportWriteError, match="No space left on device") as caught:
        write_export(target, "new text")
    assert "Nothing was changed" in str(caught.value)
    assert target.read_text(encoding="utf-8") == "precious"
    assert [p.name for p in tmp_path.iterdir()] == ["refs.bib"]


def test_a_symbolic_link_is_followed(tmp_path: Path) -> None:
    real = tmp_path / "real.bib"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.bib"
    link.symlink_to(real)
    write_export(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"


def test_a_pipe_is_written_to_not_replaced(tmp_path: Path) -> None:
    """``-o /dev/stdout`` or bash's ``-o >(sort)``: the text goes into the pipe, which stays
    (replacing it, as a file is replaced, put a file where the pipe was; run as root on
    ``/dev/null``, where the device was)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert write_export(fifo, "@misc{müller,}\n") == fifo
        assert os.read(reader, 1000) == "@misc{müller,}\n".encode()
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_a_pipe_closed_early_is_a_plain_error(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def read_nothing() -> None:
        os.close(os.open(fifo, os.O_RDONLY))

    reader = threading.Thread(target=read_nothing, daemon=True)
    reader.start()
    try:
        with pytest.raises(ExportWriteError, match=r"Could not write .*Broken pipe") as caught:
            write_export(fifo, "x" * 1_000_000)
    finally:
        reader.join(timeout=10)
    assert "incomplete" in str(caught.value)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
