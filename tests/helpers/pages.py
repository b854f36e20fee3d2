"""Generated author pages for tests that need many papers."""

from __future__ import annotations

_WORD_LIST = (
    "adaptive sparse neural graph transformer scaling robust efficient distributed training "
    "inference quantum causal latent diffusion retrieval memory kernel routing federated "
    "contrastive symbolic bayesian spectral temporal hierarchical stochastic convex private "
    "streaming multimodal recurrent attention pruning sampling planning reasoning compression "
    "caching auctions tensor molecular protein climate robotic linguistic visual acoustic "
    "geometric topological evolutionary"
)
_WORDS = _WORD_LIST.split()


def publication_page(owner: str, records: list[tuple[str, int, str]]) -> str:
    """A publication-list page (the format of the seed pages) with these records."""
    lines = [
        "arXiv subjects",
        owner,
        f"Publications and source records attributed to {owner}.",
        f"{len(records)} recordsLinked to original sources",
    ]
    for n, (title, year, venue) in enumerate(records):
        lines += [
            f"{venue}{year}",
            title,
            f"Abstract number {n} about {title.lower()}, long enough to read as an abstract.",
            "cs.LG↗",
        ]
    return "\n\n".join(lines) + "\n"


def generated_page(n: int, owner: str = "Prolific Author", *, long: bool = False) -> str:
    """A publication-list page of ``n`` distinct papers (no two even nearly alike).

    Titles and abstracts are built from three words picked by the digits of the record's
    number in base ``len(_WORDS)``, so every record differs from the others in whole words
    at both ends of its title and abstract. ``long``: abstracts long enough to be stored
    compressed, with a formula in them.
    """
    w = len(_WORDS)
    lines = [owner, f"Publications and source records attributed to {owner}."]
    for i in range(n):
        a, b, c = i % w, (i // w) % w, (i // w // w) % w
        d = (a * 7 + b * 3 + c) % w
        lines += [
            f"arXiv{1990 + i % 35}",
            f"{_WORDS[a].title()} {_WORDS[b]} nets for {_WORDS[c]} {_WORDS[d]}",
            f"We study {_WORDS[c]} {_WORDS[a]} {_WORDS[b]} ideas and test them on "
            f"{_WORDS[d]} {_WORDS[b]} {_WORDS[a]} data, case {i}."
            + (
                f" The {_WORDS[b]} {_WORDS[d]} bound of $O(n \\log n)$ holds for {_WORDS[a]} "
                f"{_WORDS[c]} inputs; {_WORDS[(i * 31 + 17) % w]} {_WORDS[a]} runs confirm "
                f"it on {_WORDS[(i * 13 + 5) % w]} {_WORDS[b]} {_WORDS[d]} sets."
                if long
                else ""
            ),
            "cs.LG↗",
        ]
    return "\n\n".join(lines) + "\n"


def abstracts_page(owner: str, records: list[tuple[str, str]]) -> str:
    """An author-abstracts page (the other format of the seed pages): the owner, then each
    paper's author line and abstract (no titles: refman suggests them)."""
    lines = [owner]
    for authors, abstract in records:
        lines += [authors, abstract]
    return "\n\n".join(lines) + "\n"


#: Two papers (authors, abstract) of an abstracts page: Zhuo Jiang wrote the first with Mira
#: Okafor, who wrote the second with Lars Berg.
JIANG_PAPERS = [
    (
        "Zhuo Jiang, Mira Okafor",
        "We schedule pipeline parallel training across straggling accelerators and recover "
        "most of the lost throughput with a simple rebalancing rule.",
    ),
    (
        "Mira Okafor, Lars Berg",
        "Checkpointing large models to remote storage stalls training; we overlap the "
        "writes with computation and cut the stall to a few seconds.",
    ),
]


#: Three (title, year, venue) records of a publication list: 2024 on arXiv, 2025 at VLDB,
#: 2023 at ICLR.
THREE_PAPERS = [
    ("Rebalancing pipelines around stragglers", 2024, "arXiv"),
    ("Overlapped checkpoint writes", 2025, "VLDB"),
    ("Gradient compression on slow networks", 2023, "ICLR"),
]
