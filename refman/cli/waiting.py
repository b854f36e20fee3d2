"""A command on a shared library whose server stops answering says so, and says when it
answers again.

A server whose machine or network went away is given up on (TCP keepalives, see
:mod:`refman.store.connection`): the command exits 2 with a plain message. One whose
processes stop answering while its machine does (stopped, swapping) keeps the connection
open, and the command waits, as it must: a large import may take as long. So that the
person is not left before a silent terminal, the command asks the server a question of its
own now and then (:meth:`~refman.store.database.Database.answers`) and says on stderr when it
gets no answer.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from refman.core.library import LibraryService

#: How long a command runs before its server is asked whether it answers, and then how often
#: (seconds); how long the server has to answer.
ASK_EVERY = 5.0
ANSWER_WITHIN = 3.0
#: What the command says.
SILENT = (
    "refman: The library server is not answering; waiting for it. Ctrl+C gives up (within "
    "seconds; a change not saved yet is then dropped by the server).\n"
)
BACK = "refman: The library server answers again.\n"


@contextmanager
def told_when_silent(service: LibraryService, err: TextIO) -> Iterator[None]:
    """While the block runs, say on ``err`` when the shared library's server stops answering
    (nothing for a library file: it always answers)."""
    if not service.db.shared:
        yield
        return
    stop = threading.Event()

    def watch() -> None:
        silent = False
        while not stop.wait(ASK_EVERY):
            answered = service.db.answers(ANSWER_WITHIN)
            if stop.is_set():
                return
            if answered == silent:  # (it changed)
                err.write(BACK if answered else SILENT)
                err.flush()
            silent = not answered

    threading.Thread(target=watch, name="refman-watch-server", daemon=True).start()
    try:
        yield
    finally:
        stop.set()
