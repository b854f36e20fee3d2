"""Benchmark: import a 20,000-entry BibTeX file into a new library with ``refman import``.

Run from the repository root::

    .venv/bin/python bench/bench_bib_import.py [--entries 20000] [--runs 1] [--keep FILE]
                                               [--profile FILE] [--top 25]

The file imitates a real export (Zotero, Better BibTeX, JabRef): journal articles, conference
papers, arXiv preprints, books, chapters, theses and reports; one to eight authors with
accents written as LaTeX (``M{\\"u}ller``) or UTF-8, particles and suffixes, ``and others``;
titles with protected capitals, some with math; abstracts on most entries; month macros,
``@string`` journals, keywords, DOIs, links and notes. Every title is distinct.

It prints (a) the reader alone, in this process (best of 3), and (b) the whole ``refman
import FILE`` process — start-up, reading, parsing and importing into a new library — timed
from outside (best of ``--runs``). Goal: (b) under 10 s for 20,000 entries.
``--profile FILE`` runs the reader once under cProfile and prints the top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from refman.importers.bibtex import parse_bibtex

ROOT = Path(__file__).resolve().parents[1]
GOAL_SECONDS = 10.0

_GIVEN = (
    'John|Maria|J{\\"u}rgen|José|Li|Anna|Pierre|Kenji|Olga|Sven|Zhuo|Fatima|Ngozi|Åsa|'
    "Jean-Luc|R. K.|Priya|Tomás"
).split("|")
_FAMILY = (
    "Smith|M{\\\"u}ller|van der Berg|Garc{\\'i}a|Wang|O'Neil|de la Fontaine|Tanaka|Ivanova|"
    'Ørsted|Jiang|Okafor|Nguyen|Kowalski|Schr{\\"o}dinger|Lindqvist|Rossi|Dubois|Chen|Patel'
).split("|")
_WORDS = (
    "learning representations graph neural networks attention transformer sparse dense "
    "bayesian inference variational robust scalable distributed training optimization "
    "convex stochastic gradient protein folding genome sequencing climate model ocean "
    "energy efficient hardware accelerator compiler memory cache retrieval language vision "
    "reinforcement policy reward causal discovery federated privacy quantum error correction"
).split()
_JOURNALS = ["jmlr", "tpami", "nature", "{Journal of Computational Biology}",
             "{Physical Review Letters}", "{ACM Computing Surveys}"]  # fmt: skip
_VENUES = ["Advances in Neural Information Processing Systems", "Proceedings of the {IEEE/CVF} "
           "Conference on Computer Vision and Pattern Recognition", "International Conference "
           "on Machine Learning", "Proceedings of the 29th {ACM} Symposium on Operating Systems "
           "Principles"]  # fmt: skip
_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
_STRINGS = (
    "@string{jmlr = {Journal of Machine Learning Research}}\n"
    "@string{tpami = {IEEE Transactions on Pattern Analysis and Machine Intelligence}}\n"
    "@string{nature = {Nature}}\n\n"
)


def _authors(rng: random.Random) -> str:
    names = [f"{rng.choice(_FAMILY)}, {rng.choice(_GIVEN)}" for _ in range(rng.randint(1, 8))]
    if rng.random() < 0.05:
        names[-1] = "{World Health Organization}"
    if rng.random() < 0.05:
        names.append("others")
    return " and ".join(names)


def entry_title(rng: random.Random, i: int) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(5, 12))]
    words[0] = words[0].capitalize()
    if rng.random() < 0.3:
        words.insert(1, "{DNA}" if rng.random() < 0.5 else "{B}ayesian")
    if rng.random() < 0.15:
        words.append("with $\\mathcal{O}(n \\log n)$ cost")
    return " ".join(words) + f" {i}"


def _entry(rng: random.Random, i: int) -> str:
    kind = rng.choices(
        ["article", "inproceedings", "misc", "book", "incollection", "phdthesis", "techreport"],
        [40, 30, 15, 4, 4, 3, 4],
    )[0]
    year = 1990 + i % 35
    lines = [f"@{kind}{{key{i},", f"  author = {{{_authors(rng)}}},"]
    lines.append(f"  title = {{{entry_title(rng, i)}}},")
    if kind == "article":
        lines.append(f"  journal = {rng.choice(_JOURNALS)},")
        lines.append(f"  volume = {{{i % 40 + 1}}},\n  number = {{{i % 12 + 1}}},")
    elif kind in ("inproceedings", "incollection"):
        lines.append(f"  booktitle = {{{rng.choice(_VENUES)}}},\n  publisher = {{ACM}},")
    elif kind == "misc":
        lines.append(f"  eprint = {{{year % 100:02d}{i % 12 + 1:02d}.{i:05d}}},")
        lines.append("  archivePrefix = {arXiv},\n  primaryClass = {cs.LG},")
    elif kind == "phdthesis":
        lines.append('  school = {Universit{\\"a}t Heidelberg},')
    elif kind == "techreport":
        lines.append(f"  institution = {{Google Research}},\n  number = {{TR-{i}}},")
    else:
        lines.append("  publisher = {Springer},\n  address = {Cham},")
    lines.append(f"  year = {{{year}}},\n  month = {rng.choice(_MONTHS)},")
    lines.append(f"  pages = {{{i % 300 + 1}--{i % 300 + 14}}},")
    lines.append(f"  doi = {{10.1000/bench.{i}}},\n  url = {{https://example.org/paper/{i}}},")
    if rng.random() < 0.7:
        abstract = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(60, 160)))
        if rng.random() < 0.2:
            abstract += " We reach 95\\% accuracy with $\\alpha = 0.1$."
        lines.append(f"  abstract = {{{abstract.capitalize()}.}},")
    if rng.random() < 0.5:
        lines.append(f"  keywords = {{{rng.choice(_WORDS)}, {rng.choice(_WORDS)}}},")
    if rng.random() < 0.1:
        lines.append("  annote = {Read for the survey.},")
    return "\n".join(lines) + "\n}\n"


def make_bib(entries: int, seed: int = 0) -> str:
    """The text of a BibTeX file with ``entries`` distinct entries."""
    rng = random.Random(seed)
    return "% Encoding: UTF-8\n\n" + _STRINGS + "\n".join(_entry(rng, i) for i in range(entries))


def _time_reader(text: str) -> tuple[float, int]:
    best, count = float("inf"), 0
    for _ in range(3):
        start = time.perf_counter()
        page = parse_bibtex(text)
        best = min(best, time.perf_counter() - start)
        count = len(page.records)
    return best, count


def _time_cli(path: Path, runs: int) -> tuple[float, str]:
    best, output = float("inf"), ""
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            env = dict(os.environ, REFMAN_HOME=home, REFMAN_DB=str(Path(home) / "lib.sqlite"))
            command = [sys.executable, "-m", "refman", "import", str(path)]
            start = time.perf_counter()
            done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
            elapsed = time.perf_counter() - start
            if done.returncode not in (0, 2):
                raise SystemExit(f"refman import failed:\n{done.stderr}")
            best, output = min(best, elapsed), done.stdout.strip().splitlines()[0]
    return best, output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="also write the generated file here")
    parser.add_argument("--profile", type=Path, help="profile the reader into this file")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    text = make_bib(args.entries)
    print(f"machine: {platform.processor() or platform.machine()}; {os.cpu_count()} cores; "
          f"Python {platform.python_version()} on {platform.system()}")  # fmt: skip
    print(f"file: {args.entries:,} entries, {len(text.encode()) / 1e6:.1f} MB")
    if args.profile:
        cProfile.runctx("parse_bibtex(text)", globals(), {"text": text}, str(args.profile))
        stats = pstats.Stats(str(args.profile)).sort_stats("cumulative")
        stats.print_stats(args.top)
    seconds, count = _time_reader(text)
    print(f"(a) reader alone:      {seconds:.2f} s, {count:,} records ({count / seconds:,.0f}/s)")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "library.bib"
        path.write_text(text, encoding="utf-8")
        if args.keep:
            args.keep.write_text(text, encoding="utf-8")
        seconds, report = _time_cli(path, args.runs)
    verdict = "OK" if seconds < GOAL_SECONDS else "ABOVE GOAL"
    print(f"(b) refman import:     {seconds:.2f} s (goal < {GOAL_SECONDS:.0f} s) {verdict}")
    print(f"    report: {report}")


if __name__ == "__main__":
    main()
