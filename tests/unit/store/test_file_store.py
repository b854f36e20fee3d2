"""The storage folder of a library's files on a disk that refuses: a name longer than the
disk holds is cut short (its ending kept), a device or a pipe is no file to attach, and a
folder that cannot be written to, or a full disk, gives a plain message and leaves nothing
behind (no half-copied file, no empty folder)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from refman.common.errors import NotFoundError, RefmanError
from refman.store.file_store import FileStore, check_source, files_restored
from tests.helpers.disk import read_only


def _files(folder: Path) -> list[str]:
    """Everything under a folder, files and folders, relative to it."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def test_a_name_longer_than_the_disk_holds_is_cut_short_keeping_its_ending(
    tmp_path: Path,
) -> None:
    store = FileStore(tmp_path / "library-files")
    long_name = "é" * 125 + ".pdf"  # 254 bytes: it fits, but its second copy's " (2)" not
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = tmp_path / "a" / long_name, tmp_path / "b" / long_name
    first.write_bytes(b"%PDF-1.4 first")
    second.write_bytes(b"%PDF-1.4 second")
    assert store.store(first, "3", long_name) == f"3/{long_name}"
    kept = store.store(second, "3", long_name)
    name = Path(kept).name
    assert name.endswith(" (2).pdf") and len(name.encode()) <= 255
    assert name.startswith("é" * 100)  # whole letters kept, cut at the end of the stem
    assert (store.root / kept).read_bytes() == b"%PDF-1.4 second"  # type: ignore[operator]

    renamed = store.rename(kept, "x" * 300 + ".pdf")
    assert Path(renamed).name == "x" * 251 + ".pdf"
    assert (store.root / renamed).read_bytes() == b"%PDF-1.4 second"  # type: ignore[operator]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_or_a_device_is_no_file_to_attach(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.pdf"
    os.mkfifo(pipe)  # reading it would wait for ever; /dev/zero would fill the disk
    for source in (pipe, Path(os.devnull)):
        with pytest.raises(RefmanError, match="is not a file one can attach"):
            check_source(source)


def test_a_folder_that_cannot_be_written_to_is_named_and_nothing_is_left_behind(
    tmp_path: Path,
) -> None:
    root = tmp_path / "library-files"
    store = FileStore(root)
    source = tmp_path / "paper.pdf"
    source.write_bytes(b"%PDF-1.4 paper")
    stored = store.store(source, "3", "paper.pdf")
    (root / "4").mkdir()
    before = _files(root)
    with read_only(root / "3"), read_only(root / "4"), read_only(root):
        for attempt in (
            lambda: store.store(source, "4", "other.pdf"),  # the paper's folder
            lambda: store.store(source, "5", "other.pdf"),  # a new paper's, in the root
            lambda: store.set_aside(stored),
            lambda: store.rename(stored, "renamed.pdf"),
            lambda: store.delete(stored),
            lambda: store.writable([stored]),
        ):
            with pytest.raises(RefmanError) as refused:
                attempt()
            assert "cannot be written to" in refused.value.message
            assert f"“{root}" in refused.value.message  # the folder to make writable
            assert "nothing was changed" in refused.value.hint
    assert _files(root) == before  # no half-copied file, no empty folder


def test_a_full_disk_leaves_no_half_copied_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import shutil

    root = tmp_path / "library-files"
    source = tmp_path / "paper.pdf"
    source.write_bytes(b"%PDF-1.4 paper" * 1000)

    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(shutil, "copyfileobj", full)
    with pytest.raises(RefmanError, match=r"The disk is full: “paper\.pdf” could not be copied"):
        FileStore(root).store(source, "3", "paper.pdf")
    assert _files(root) == []  # not even the paper's folder


def test_a_file_set_aside_and_deleted_since_cannot_be_put_back(tmp_path: Path) -> None:
    root = tmp_path / "library-files"
    store = FileStore(root)
    source = tmp_path / "paper.pdf"
    source.write_bytes(b"%PDF-1.4 paper")
    stored = store.store(source, "3", "paper.pdf")
    aside = store.set_aside(stored)
    assert aside is not None
    store.delete_set_aside()  # Empty Trash, in another window or process
    with pytest.raises(NotFoundError, match=r"“paper\.pdf” is no longer in the library's folder"):
        store.move(aside, stored)
    assert _files(root) == []


def test_a_backup_s_files_come_back_all_or_none(tmp_path: Path) -> None:
    snapshot, storage = tmp_path / "backup-files", tmp_path / "library-files"
    for name in ("1/a.pdf", "2/b.pdf"):
        (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
        (snapshot / name).write_bytes(name.encode())
    (storage / "2").mkdir(parents=True)
    (storage / "2" / "b.pdf").write_bytes(b"added since")  # kept as it is

    with pytest.raises(ValueError), files_restored(snapshot, storage) as brought:
        assert brought == 1 and (storage / "1" / "a.pdf").read_bytes() == b"1/a.pdf"
        raise ValueError("the library itself could not be restored")
    assert _files(storage) == ["2", "2/b.pdf"]  # taken back

    (storage / "2" / "b.pdf").unlink()
    refusing = read_only(storage / "2")
    with refusing, pytest.raises(RefmanError) as refused, files_restored(snapshot, storage):
        raise AssertionError("the library is not restored when its files cannot be")
    assert refused.value.message.startswith("The backup was not restored: “b.pdf” could not")
    assert _files(storage) == ["2"]  # a.pdf, brought back first, deleted again

    with files_restored(snapshot, storage) as brought:
        assert brought == 2
    assert (storage / "2" / "b.pdf").read_bytes() == b"2/b.pdf"
