"""Abstracts stored compressed, and read back by the search index during the write that
stored them without being decompressed again."""

from __future__ import annotations

import zlib
from typing import Any

import pytest

from refman.store.packed import pack, packs_remembered, readable, remember_packs, unpack

ABSTRACT = (
    "We bound the cost of sorting by $O(n \\log n)$ comparisons and show that the bound is "
    "reached by every adaptive method on inputs drawn from the uniform distribution."
)


def _counting_decompress(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    calls: list[bytes] = []
    real = zlib.decompress

    def counted(data: Any, *args: Any) -> bytes:
        calls.append(bytes(data))
        return real(data, *args)

    monkeypatch.setattr(zlib, "decompress", counted)
    return calls


def test_a_long_abstract_is_stored_compressed_and_read_back_whole() -> None:
    stored = pack(ABSTRACT)
    assert isinstance(stored, bytes) and len(stored) < len(ABSTRACT.encode())
    assert unpack(stored) == ABSTRACT
    assert pack("A short one.") == "A short one."
    assert "O(n log n)" in readable(stored) and "$" not in readable(stored)


def test_texts_packed_by_a_write_are_read_back_from_memory_only_during_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored = pack(ABSTRACT)
    assert isinstance(stored, bytes)
    calls = _counting_decompress(monkeypatch)

    with packs_remembered():
        remember_packs([ABSTRACT, "short"], [stored, "short"])
        assert "O(n log n)" in readable(stored)
        assert calls == []
    assert readable(stored) == readable(stored)  # after the write: unpacked again
    assert calls == [stored, stored]


def test_outside_a_write_nothing_is_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    stored = pack(ABSTRACT)
    remember_packs([ABSTRACT], [stored])
    calls = _counting_decompress(monkeypatch)
    assert "comparisons" in readable(stored)
    assert calls == [stored]
