"""The Qt binding refman runs on keeps Python's reference counts right.

PySide6 6.12.0 dropped a reference to ``True`` on every ``Signal.emit()``: after enough
keystrokes and clicks the interpreter aborts ("deallocating True or False"), losing whatever
was being typed. This guards the version pin in pyproject.toml.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    plain = Signal()
    with_value = Signal(int)


def test_emitting_signals_leaves_reference_counts_alone() -> None:
    emitter = _Emitter()
    seen: list[int] = []
    emitter.with_value.connect(seen.append)
    before = (sys.getrefcount(True), sys.getrefcount(False))
    for n in range(500):
        emitter.plain.emit()
        emitter.with_value.emit(n)
    assert (sys.getrefcount(True), sys.getrefcount(False)) == before
    assert len(seen) == 500
