"""Generate realistic, invented author pages for benchmarks and tests.

``make_page`` writes the publication-list format (venue+year, title, abstract, subjects);
``make_author_abstracts_page`` writes the author-abstracts format (author line, abstract).
All names, titles and abstracts are made up from small word lists; output is deterministic for
a given seed.
"""

from __future__ import annotations

import random

__all__ = ["make_author_abstracts_page", "make_page"]

_GIVEN = [
    "Amara",
    "Bjorn",
    "Chiara",
    "Dmitri",
    "Elif",
    "Farid",
    "Greta",
    "Hiro",
    "Ines",
    "Jonas",
    "Kavya",
    "Lars",
    "Mei",
    "Nadia",
    "Oskar",
    "Priya",
    "Quentin",
    "Rosa",
    "Sven",
    "Tomasz",
    "Ulla",
    "Vikram",
    "Wen",
    "Ximena",
    "Yusuf",
    "Zoë",
    "José",
    "Anaïs",
    "Søren",
]
_FAMILY = [
    "Albescu",
    "Brandt",
    "Castellanos",
    "Dvořák",
    "Eriksen",
    "Fontaine",
    "Gallo",
    "Haddad",
    "Ivanova",
    "Jansen",
    "Kowalski",
    "Lindqvist",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Petrov",
    "Quispe",
    "Rahman",
    "Sato",
    "Tanaka",
    "Ueda",
    "Varga",
    "Weber",
    "Xu",
    "Yilmaz",
    "Zhao",
    "Müller",
    "Ángel",
]
_VENUES = (
    "arXiv",
    "arXiv",
    "arXiv",
    "NeurIPS",
    "ICML",
    "ICLR",
    "Proc. VLDB",
    "SIGMOD",
    "OSDI",
    "Phys. Rev. Lett.",
)
_SUBJECTS = [
    "cs.LG",
    "cs.CL",
    "cs.CV",
    "cs.DC",
    "cs.AI",
    "cs.NI",
    "math.OC",
    "stat.ML",
    "eess.AS",
    "q-bio.NC",
    "astro-ph.CO",
    "hep-th",
    "cond-mat.mtrl-sci",
    "physics.optics",
    "quant-ph",
    "econ.EM",
    "q-fin.ST",
    "nlin.CD",
    "gr-qc",
    "math-ph",
    "nucl-th",
]
_SYSTEM_PARTS = [
    "Flux",
    "Orca",
    "Quill",
    "Helix",
    "Tern",
    "Lumen",
    "Vesta",
    "Nimbus",
    "Cobalt",
    "Ember",
    "Sable",
    "Kite",
]
_ADJECTIVES = [
    "scalable",
    "robust",
    "adaptive",
    "sparse",
    "efficient",
    "federated",
    "causal",
    "hierarchical",
    "stochastic",
    "differentiable",
    "incremental",
    "distributed",
]
_NOUNS = [
    "inference",
    "training",
    "retrieval",
    "scheduling",
    "compression",
    "alignment",
    "sampling",
    "estimation",
    "caching",
    "routing",
    "planning",
    "verification",
]
_OBJECTS = (
    "language models",
    "graph networks",
    "sensor arrays",
    "query engines",
    "diffusion models",
    "spin glasses",
    "protein folds",
    "market signals",
    "storage clusters",
    "photonic circuits",
)
_SENTENCES = (
    "Existing approaches to {noun} struggle when {obj} grow beyond a single machine.",
    "We identify {k} failure modes that make {adj} {noun} fragile in practice.",
    "Experiments on {k} benchmarks show gains of {pct}% over strong baselines.",
    "The method reduces memory use by {x}x while keeping accuracy within {pct}%.",
    "Our analysis explains why {adj} {noun} converges faster on {obj}.",
    "A theoretical bound of $O(n \\log n)$ matches the observed {noun} cost.",
    "We release code and data to support further work on {obj}.",
    "Ablations confirm that each component of the design matters for {noun}.",
)


def _name(rng: random.Random) -> str:
    """Return an invented person name."""
    return f"{rng.choice(_GIVEN)} {rng.choice(_FAMILY)}"


_SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]


def _system(rng: random.Random) -> str:
    """Return an invented system name such as "OrcaHelix-3" or "Orcabenilo".

    Names rarely repeat, so generated titles are as distinct as a real library's.
    """
    name = rng.choice(_SYSTEM_PARTS) + "".join(
        rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))
    )
    return f"{name}-{rng.randint(1, 9)}" if rng.random() < 0.4 else name


def _title(rng: random.Random, system: str) -> str:
    """Return an invented paper title."""
    adj, noun, obj = rng.choice(_ADJECTIVES), rng.choice(_NOUNS), rng.choice(_OBJECTS)
    shapes = (
        f"{system}: {adj.capitalize()} {noun.capitalize()} for {obj.title()}",
        f"Towards {adj.capitalize()} {noun.capitalize()} of {obj.title()} with {system}",
        f"{system}: Lessons from {rng.randint(2, 9)} Years of {noun.capitalize()}",
        f"On the {noun.capitalize()} of {obj.title()} at Scale: the {system} Study",
    )
    return rng.choice(shapes)


def _abstract(rng: random.Random, system: str, sentences: int) -> str:
    """Return an invented abstract of ``sentences`` sentences introducing ``system``."""
    noun, obj = rng.choice(_NOUNS), rng.choice(_OBJECTS)
    parts = [f"We present {system}, a {rng.choice(_ADJECTIVES)} system for {noun} of {obj}."]
    for _ in range(sentences - 1):
        template = rng.choice(_SENTENCES)
        parts.append(
            template.format(
                noun=rng.choice(_NOUNS),
                obj=rng.choice(_OBJECTS),
                adj=rng.choice(_ADJECTIVES),
                k=rng.randint(2, 12),
                pct=rng.randint(3, 60),
                x=round(rng.uniform(1.1, 9.9), 1),
            )
        )
    return " ".join(parts)


def make_page(n: int, seed: int = 0) -> str:
    """Return an invented publication-list page with ``n`` records.

    Args:
        n: Number of records.
        seed: Random seed; the same seed gives the same page.

    Returns:
        Page text in the seed files' layout (a blank line between all lines).
    """
    rng = random.Random(seed)
    owner = _name(rng)
    word = "record" if n == 1 else "records"
    lines = [
        "arXiv subjects",
        owner,
        f"Publications and source records attributed to {owner}.",
        f"{n} {word}Linked to original sources",
    ]
    year = 2026
    for _ in range(n):
        if rng.random() < 0.3 and year > 1995:
            year -= 1
        system = _system(rng)
        venue = rng.choice(_VENUES)
        gap = "" if venue == "arXiv" else " "
        lines.append(f"{venue}{gap}{year}")
        lines.append(_title(rng, system))
        lines.append(_abstract(rng, system, rng.randint(6, 10)))
        subjects = rng.sample(_SUBJECTS, rng.choice((1, 1, 1, 2)))
        lines.append(" ".join(f"{code}↗" for code in subjects))
    return "\n\n".join(lines) + "\n"


def make_author_abstracts_page(n: int, seed: int = 0) -> str:
    """Return an invented author-abstracts page with ``n`` records.

    Args:
        n: Number of records.
        seed: Random seed; the same seed gives the same page.

    Returns:
        Page text: the owner's name, then author line / abstract pairs, blank-line separated.
    """
    rng = random.Random(seed)
    lines = [_name(rng)]
    for _ in range(n):
        authors = ", ".join(_name(rng) for _ in range(rng.randint(1, 4)))
        lines.append(authors + (" et al." if rng.random() < 0.7 else ""))
        lines.append(_abstract(rng, _system(rng), rng.randint(5, 9)))
    return "\n\n".join(lines) + "\n"
