"""Reading what the wizard's first page is given into sources: files, and texts pasted or
dropped (a long one off the GUI thread, as files are)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from refman.importers import NotABibliographyError, NotAnAuthorPageError, UnreadableFileError
from refman.importers.records import PageLink, ParsedPage
from refman.importers.sources import LoadedSource, load_source

from refman.ui.runner import OperationRunner
from refman.ui.wizard.source_card import Source

#: Texts longer than this (characters) are read off the GUI thread: a bibliography of
#: thousands of entries pasted or dropped took seconds to read, the window frozen meanwhile.
READ_IN_WORKER_ABOVE = 200_000


def read_file(path: Path | None, paper: Callable[[Path], ParsedPage]) -> Source:
    """Read and parse one file (on the runner's thread): a source, recognised, or with the
    reason it is not a page or cannot be read at all (and what to do)."""
    assert path is not None
    try:
        loaded = load_source(path)
    except UnreadableFileError as error:
        return Source(path.name, error=str(error), path=path, unreadable=True)
    try:
        return Source(loaded.source, loaded.parse(paper), path=path)
    except NotAnAuthorPageError as error:
        return Source(
            loaded.source,
            error=error.message,
            path=path,
            bibliography=isinstance(error, NotABibliographyError),
        )


def parsed(name: str, text: str, links: Sequence[PageLink] = ()) -> Source:
    """Parse text into a source (recognised, or with the reason it is not a page)."""
    try:
        return Source(name, LoadedSource(name, text, links=tuple(links)).parse())
    except NotAnAuthorPageError as error:
        return Source(
            name, error=error.message, bibliography=isinstance(error, NotABibliographyError)
        )


def read_text(
    runner: OperationRunner,
    name: str,
    text: str,
    links: Sequence[PageLink],
    place: Callable[[Source, Source], None],
) -> Source:
    """A source for a text: read at once, or (a long text) shown as being read while the
    runner reads it, then handed to ``place`` with the stand-in it replaces.

    Args:
        runner: Reads off the GUI thread.
        name: The source's name.
        text: The text.
        links: The links of the HTML it came from.
        place: Called on the GUI thread with the stand-in returned and the source read.

    Returns:
        The source, or its stand-in (``reading``) while it is read.
    """
    if len(text) <= READ_IN_WORKER_ABOVE:
        return parsed(name, text, links)
    waiting = Source(name, reading=True)
    links = tuple(links)
    runner.submit(
        lambda _progress, _cancelled: parsed(name, text, links),
        lambda read: place(waiting, read),
        label=f"Reading {name}…",
    )
    return waiting
