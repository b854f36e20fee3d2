"""A small library for related papers: a few papers on pipeline training, a few on other
things, and filler papers that make common words common (as in a real library)."""

from __future__ import annotations

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.importers import parse_text

#: (key, title, abstract). The first is the paper looked at; the next two share its rare
#: words (the second more of them, the third two), the fourth shares only common ones.
PAPERS = [
    (
        "focus",
        "Straggler-aware pipeline parallelism for MFU",
        "Pipeline parallelism loses MFU when one accelerator is a straggler; we rebalance "
        "microbatches around the straggler and recover the lost model flops utilization.",
    ),
    (
        "closest",
        "Rebalancing pipeline stages around a straggler",
        "A straggler slows every stage of pipeline parallelism; moving microbatches away "
        "from it restores MFU.",
    ),
    (
        "close",
        "Mitigating stragglers in data parallel training",
        "Stragglers delay synchronous training; we drop the slowest straggler updates and "
        "shrink its microbatches.",
    ),
    (
        "far",
        "A study of learning rates for training models",
        "We study how learning rates affect training of models on data.",
    ),
]


def _filler(n: int) -> str:
    words = ["graph", "vision", "speech", "robot", "protein", "market", "climate", "music"]
    entries = []
    for i in range(n):
        a, b = words[i % 8], words[(i // 8) % 8]
        entries.append(
            f"@article{{filler{i},\n  title = {{A study of {a} models for {b} data {i}}},\n"
            f"  abstract = {{We study training of models on {a} and {b} data.}},\n"
            f"  author = {{Filler, Fay}},\n  year = {{2020}},\n}}\n"
        )
    return "\n".join(entries)


def related_bib() -> str:
    """The papers of :data:`PAPERS` and 60 filler papers, as BibTeX."""
    entries = [
        f"@article{{{key},\n  title = {{{title}}},\n  abstract = {{{abstract}}},\n"
        f"  author = {{Jiang, Zhuo}},\n  year = {{2024}},\n}}\n"
        for key, title, abstract in PAPERS
    ]
    return "\n".join(entries) + "\n" + _filler(60)


def fill_related(library: LibraryService) -> dict[str, int]:
    """Import :func:`related_bib`; the ids of :data:`PAPERS` by key."""
    library.import_pages([SourcedPage(parse_text(related_bib(), "related.bib"), "related.bib")])
    by_title = {d.title: d.id for d in library.details(library.paper_ids())}
    return {key: by_title[title] for key, title, _ in PAPERS}
