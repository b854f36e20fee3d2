#!/usr/bin/env python3
# ruff: noqa: E501
"""Side-by-side performance anchor: Zotero-shaped quick search vs. an SQLite FTS5 reference.

refman's copy (issue 10). This file began as ``../shared/anchors/zotero_quicksearch_bench.py``
(the shared anchor: stdlib only), copied unchanged between the ``fmt: off`` / ``fmt: on``
marks below except for three small edits (``collections.abc`` imports, an unquoted
annotation, and the FTS5 reference's build being filed as "fts5", not "refman", since refman
is now a side of its own). refman's additions: a third side, ``refman``, which imports the
same generated papers into a real refman library and times refman's own service calls with
the same query strings (``bench/anchor_refman.py`` holds that side: the build and the one
adapter class ``RefmanSide``); the runner and the tables for three sides, with the ratios
refman / FTS5 and Zotero / refman; ``--sides`` as a comma list. Run from the repository root::

    .venv/bin/python bench/anchor_bench.py --n 100000
    .venv/bin/python bench/anchor_bench.py --n 1000000 --sides fts5,refman --workdir /tmp/anchor --reuse

The anchor's own description follows.

Builds two SQLite files from the *same* synthetic library of N ML/systems papers:

* ``zotero.sqlite`` -- the minimal subset of Zotero's EAV schema that quick search, the
  items list and the tag selector touch (items, itemData, itemDataValues, fields, creators,
  itemCreators, tags, itemTags, itemNotes, itemAttachments, itemAnnotations, deletedItems).
  Table, column and index names follow Zotero's ``resource/schema/userdata.sql`` (schema
  version 129); the DDL below is written from those facts, not copied.
* ``refman.sqlite`` -- a normalized schema (papers, venues, authors, paper_authors, tags,
  paper_tags, notes) with an external-content FTS5 index (unicode61, prefix='2 3').  This is
  the "physical limit" reference a SQLite-backed app can reach.  (In refman's copy the file
  is ``fts5_N_SEED.sqlite`` and the side is called "fts5"; "refman" is refman itself.)

Then it times on both, with the same query strings:

* quick search in Zotero's two metadata modes.  The Zotero side issues the statements Zotero
  7-9 issues for the library root (a scope temp table, then one SELECT in which every typed
  word becomes an OR-block of ``itemID IN (subquery ... LIKE '%word%')`` predicates and the
  blocks are ANDed).  The FTS5 side issues one ``MATCH`` with a prefix star on every token.
* the list pane: all top-level items with title + first creator + year sorted by title, and
  only the first page of that list.
* the tag pane: Zotero's tag-selector query (distinct tags of the items in view, via a temp
  table of IDs) and per-tag item counts; plus a tag filter (click one tag).

Only the Python standard library is used (refman's copy: except by the refman side).

    python3 zotero_quicksearch_bench.py --n 100000
    python3 zotero_quicksearch_bench.py --n 10000 100000 --json results.json
    python3 zotero_quicksearch_bench.py --n 1000000 --sides fts5      # reference only
    python3 zotero_quicksearch_bench.py --n 100000 --variant z10      # Zotero 10 shadow columns
    python3 zotero_quicksearch_bench.py --n 100000 --attach-frac 0.8  # PDFs as child items

Databases go to a temp dir that is deleted afterwards unless --workdir is given (--reuse then
skips rebuilding).  Progress goes to stderr; the table (or --json with no path) to stdout.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import string
import sys
import tempfile
import time
import tracemalloc
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from anchor_refman import RefmanSide, build_library, tree_state

# The anchor, unchanged but for the edits named above: not reformatted, so that it stays
# comparable line by line with ../shared/anchors/zotero_quicksearch_bench.py.
# fmt: off
# --------------------------------------------------------------------------------------
# Vocabulary (hand-written for this benchmark)
# --------------------------------------------------------------------------------------

FIRST_NAMES = """Wei Jing Li Xin Yu Hao Jun Ying Lei Yang Ming Hui Chen Rui Jie Tao Priya Rahul
Ankit Arjun Deepak Sneha Vikram Ananya Rohan Kavya Sanjay Meera John Michael David James Robert
Sarah Emily Jennifer Jessica Daniel Matthew Andrew Christopher Laura Anna Maria Elena Sofia Lucas
Luca Marco Giulia Francesco Alessandro Thomas Julia Jonas Lukas Felix Hannah Jürgen Björn Søren
Zoë François Amélie Hélène Pierre Camille Mathieu José Jesús Ramón Andrés Sebastián Álvaro Lucía
Inés Carlos Javier Hiroshi Takashi Yuki Kenji Akira Haruka Sakura Min-jun Ji-woo Seo-yeon Hyun
Dmitry Sergey Olga Natalia Ivan Alexei Mikhail Tatiana Łukasz Michał Katarzyna Paweł Omar Ahmed
Fatima Layla Yusuf Ali Mehmet Ayşe Emre Zeynep Kwame Amara Chinedu Ngozi Oluwaseun Tomás João
Beatriz Gonçalo Mateus Lars Ingrid Erik Astrid Nikolaos Eleni Giorgos Noam Yael Avi Tal Siddharth
Aditya Pooja Nikhil Shreya Kai Mei Lin Bo Sven Ole Freya Grace Olivia Noah Ethan Mia Leo""".split()

LAST_NAMES = """Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Gao Luo
Zheng Liang Xie Song Tang Han Feng Deng Cao Peng Zeng Xiao Tian Dong Pan Yuan Cai Jiang Yu Du Ye
Cheng Wei Su Lu Ding Ren Shen Yao Fang Kumar Sharma Singh Gupta Patel Reddy Iyer Nair Rao Agarwal
Mehta Joshi Banerjee Chatterjee Mukherjee Das Bose Krishnan Subramanian Venkatesan Smith Johnson
Williams Brown Jones Miller Davis Wilson Anderson Taylor Thomas Moore Martin Jackson Thompson White
Harris Clark Lewis Robinson Walker Young Allen King Wright Scott Hill Green Adams Baker Nelson
Carter Mitchell Roberts Turner Phillips Campbell Parker Evans Edwards Collins Stewart Morris Murphy
Cook Rogers Morgan Cooper Peterson Bailey Reed Kelly Howard Müller Schmidt Schneider Fischer Weber
Meyer Wagner Becker Schulz Hoffmann Koch Richter Klein Wolf Schröder Neumann Schwarz Zimmermann
Braun Krüger Hofmann Hartmann Lange Schmitt Werner Krause Meier Lehmann Köhler Huber Dubois
Bernard Durand Lefèvre Moreau Laurent Girard Rousseau Fournier Bonnet Garnier García Fernández
González Rodríguez López Martínez Sánchez Pérez Gómez Díaz Núñez Álvarez Jiménez Ruiz Hernández
Moreno Muñoz Romero Navarro Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco
Bruno Gallo Conti Costa Giordano Mancini Rizzo Lombardi Moretti Silva Santos Oliveira Souza
Pereira Almeida Ferreira Carvalho Gonçalves Ribeiro Tanaka Suzuki Takahashi Watanabe Ito Yamamoto
Nakamura Kobayashi Kato Yoshida Yamada Sasaki Matsumoto Inoue Kimura Kim Lee Park Choi Jung Kang
Cho Yoon Jang Lim Ivanov Smirnov Kuznetsov Popov Volkov Sokolov Lebedev Kozlov Novikov Morozov
Nowak Kowalski Wiśniewski Wójcik Kamiński Lewandowski Dvořák Novák Svoboda Horváth Nagy Szabó Tóth
Yılmaz Kaya Demir Şahin Çelik Öztürk Andersen Nielsen Hansen Pedersen Jensen Larsen Sørensen
Johansson Karlsson Nilsson Eriksson Lindqvist Virtanen Korhonen Nguyen Tran Le Pham Hoang Cohen
Levi Mizrahi Friedman Okafor Adeyemi Mensah Hassan Ibrahim Mahmoud Khan Hosseini Rahimi
Papadopoulos Georgiou O'Brien O'Connor Jansen Bakker Visser Dijkstra Hinton Bengio""".split()

ADJECTIVES = """efficient scalable robust distributed adaptive sparse dense federated differentiable
probabilistic hierarchical contrastive self-supervised unsupervised semi-supervised multimodal
multilingual low-latency fault-tolerant energy-efficient incremental online offline asynchronous
decentralized lightweight generalizable interpretable explainable causal Bayesian variational
generative discriminative recurrent convolutional graph-based attention-based lock-free serverless
elastic heterogeneous parallel approximate exact provable certified private secure verifiable
compositional continual few-shot zero-shot long-context memory-efficient quantized mixed-precision
streaming transactional consistent replicated learned neural symbolic hybrid modular unified
structured implicit explicit equivariant invariant stochastic deterministic optimal near-optimal
fast practical principled tractable""".split()

NOUNS = """transformers networks models embeddings representations attention optimizers gradients
kernels schedulers caches indexes storage compilers runtimes allocators consensus replication
sharding partitioning queries joins transactions logs checkpoints accelerators GPUs TPUs clusters
datacenters pipelines dataflow graphs trees hashing sketches sampling inference training
fine-tuning distillation quantization pruning retrieval search ranking recommendation
segmentation detection classification regression clustering generation translation
summarization reasoning planning control policies rewards agents environments simulation
benchmarks datasets workloads traces latency throughput memory bandwidth energy privacy
robustness fairness uncertainty calibration diffusion autoencoders GANs LLMs language vision
speech audio video molecules proteins programs tokenizers mixtures experts adapters prompts
decoders encoders priors posteriors estimators operators solvers filesystems databases
microservices containers hypervisors interconnects""".split()

TASKS = [
    "image classification", "object detection", "machine translation", "question answering",
    "code generation", "graph learning", "link prediction", "anomaly detection",
    "time series forecasting", "reinforcement learning", "neural architecture search",
    "hyperparameter optimization", "key-value stores", "stream processing",
    "query optimization", "distributed training", "model serving", "resource scheduling",
    "garbage collection", "program synthesis", "static analysis", "fuzzing",
    "malware detection", "recommendation systems", "speech recognition", "semantic parsing",
    "text-to-SQL", "visual question answering", "protein structure prediction",
    "molecular generation", "autonomous driving", "robot manipulation", "federated learning",
    "continual learning", "domain adaptation", "out-of-distribution detection",
    "adversarial robustness", "differential privacy", "causal inference",
    "log-structured merge trees", "transaction processing", "consensus protocols",
    "edge computing", "serverless computing", "cache replacement",
    "network congestion control", "load balancing", "vector databases",
    "approximate nearest neighbor search", "sparse matrix multiplication",
    "compiler optimization", "memory disaggregation", "language modeling",
    "instruction tuning", "retrieval-augmented generation", "speculative decoding",
    "video understanding", "3D reconstruction", "neural rendering", "symbolic regression",
]

DOMAINS = """healthcare medicine genomics finance education robotics manufacturing agriculture
climate science chemistry physics astronomy law mobile edge cloud datacenters supercomputers
smartphones satellites vehicles wearables""".split()

ACADEMIC = """we propose present introduce show demonstrate achieve outperform improve evaluate
experiments results approach method framework system algorithm performance state-of-the-art
baseline baselines significant significantly novel existing prior work problem challenge key
insight design implementation analysis theoretical empirical bound bounds guarantee guarantees
accuracy speedup overhead cost scale real-world open-source code available data tasks settings
order magnitude compared respectively furthermore moreover particular specifically however
thus therefore while although address limitations leverage exploit enable enables efficient
effectively simple general setting evaluation benchmark study studies investigate observe
finding findings suggest indicate consistently substantially reduces reduce increases increase
competitive comparable superior extensive comprehensive across diverse wide range large small
scalable practical robust underlying fundamental trade-off trade-offs parameters parameter
objective loss function training inference time space complexity memory footprint runtime
latency throughput end-to-end prototype deployed production users requests workloads model
models learning deep neural network networks representation representations feature features
input output layer layers architecture architectures component components mechanism
mechanisms strategy strategies technique techniques""".split()

FUNCTION_WORDS = """the of and to in a is that for on with as by this are our from which be an can
it at these both than while over into across between each such more most also only not all new
two three its their has have been we show how when where without under through via per""".split()

WORKFLOW_TAGS = ["to-read", "read", "important", "cite", "reviewed", "todo", "skimmed",
                 "reproduce", "related-work", "survey", "thesis", "reading-group", "classic",
                 "baseline", "dataset", "benchmark", "theory", "systems", "ML", "NLP", "CV",
                 "databases", "security", "HCI", "PL", "OS", "networking", "architecture"]

REAL_VENUES = [
    "Advances in Neural Information Processing Systems", "International Conference on Machine Learning",
    "International Conference on Learning Representations", "Proceedings of the VLDB Endowment",
    "Proceedings of the ACM on Management of Data", "USENIX Symposium on Operating Systems Design and Implementation",
    "ACM Symposium on Operating Systems Principles", "European Conference on Computer Systems",
    "USENIX Symposium on Networked Systems Design and Implementation",
    "Architectural Support for Programming Languages and Operating Systems",
    "International Symposium on Computer Architecture", "Programming Language Design and Implementation",
    "Computer Vision and Pattern Recognition", "International Conference on Computer Vision",
    "European Conference on Computer Vision", "Annual Meeting of the Association for Computational Linguistics",
    "Empirical Methods in Natural Language Processing", "AAAI Conference on Artificial Intelligence",
    "International Joint Conference on Artificial Intelligence", "Knowledge Discovery and Data Mining",
    "The Web Conference", "ACM SIGCOMM", "Journal of Machine Learning Research",
    "IEEE Transactions on Pattern Analysis and Machine Intelligence", "Nature", "Science",
    "arXiv preprint", "IEEE Transactions on Parallel and Distributed Systems",
    "Communications of the ACM", "ACM Computing Surveys", "Transactions on Machine Learning Research",
    "Conference on Robot Learning", "USENIX Annual Technical Conference", "ACM Symposium on Cloud Computing",
    "IEEE Symposium on Security and Privacy", "USENIX Security Symposium", "ACM CCS",
    "International Conference on Data Engineering", "Machine Learning and Systems",
    "Neural Computation", "Artificial Intelligence", "Nature Machine Intelligence",
]

KEY_ALPHABET = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ"  # Zotero object keys: 8 chars from this set
NOTE_PREFIX = '<div class="zotero-note znv1">'  # Zotero wraps note HTML in this div
NOTE_SUFFIX = "</div>"
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]

# --------------------------------------------------------------------------------------
# Synthetic library
# --------------------------------------------------------------------------------------


@dataclass
class Paper:
    title: str
    abstract: str
    year: int
    date: str  # Zotero multipart date, e.g. "2019-06-00 June 2019"
    venue: str
    authors: list[tuple[str, str]]  # (first, last)
    tags: list[tuple[str, int]]  # (name, type) type 0 = manual, 1 = automatic
    note: str | None  # plain-text note body (child note), or None
    date_added: str
    key: str


def zipf_cum_weights(n: int, s: float) -> list[float]:
    return list(itertools.accumulate(1.0 / (r ** s) for r in range(1, n + 1)))


class Sampler:
    """Draws from a fixed population with Zipf-like weights (population order is shuffled)."""

    def __init__(self, rng: random.Random, population: Sequence, s: float = 1.0):
        self.pop = list(population)
        rng.shuffle(self.pop)
        self.cum = zipf_cum_weights(len(self.pop), s)
        self.total = self.cum[-1]
        self.rng = rng

    def one(self):
        return self.pop[bisect.bisect_left(self.cum, self.rng.random() * self.total)]

    def many(self, k: int) -> list:
        r, cum, tot, pop = self.rng.random, self.cum, self.total, self.pop
        return [pop[bisect.bisect_left(cum, r() * tot)] for _ in range(k)]


def pseudo_words(rng: random.Random, count: int) -> list[str]:
    """Long-tail rare technical tokens (acronyms, coined names) so the vocabulary is not tiny."""
    syl = ["ka", "lo", "ri", "ne", "ta", "vo", "xi", "mu", "ze", "qua", "tron", "flex", "graph",
           "net", "former", "flow", "vec", "bit", "hash", "sync", "tile", "mesh", "star", "lux",
           "gen", "morph", "sparse", "quant", "kv", "db"]
    out: set[str] = set()
    while len(out) < count:
        w = "".join(rng.choice(syl) for _ in range(rng.randint(2, 4)))
        out.add(w)
    return sorted(out)


def coined_name(rng: random.Random) -> str:
    parts = ["Flash", "Hydra", "Nova", "Flux", "Deep", "Mega", "Hyper", "Quick", "Auto", "Meta",
             "Sparse", "Graph", "Tensor", "Pipe", "Shard", "Turbo", "Zero", "Omni", "Light",
             "Swift", "Echo", "Atlas", "Orca", "Raft", "Paxos", "Lumen"]
    tails = ["Net", "Former", "DB", "KV", "Flow", "Serve", "Train", "Mind", "Stack", "Store",
             "GPT", "BERT", "Diff", "Sched", "Cache", "Scope", "Lang", "Bench", "Fuse", "Opt"]
    name = rng.choice(parts) + rng.choice(tails)
    if rng.random() < 0.25:
        name += str(rng.randint(2, 9))
    return name


TITLE_TEMPLATES: list[Callable[[random.Random, Generator], str]] = [
    lambda r, g: f"{coined_name(r)}: {r.choice(ADJECTIVES).capitalize()} {r.choice(NOUNS)} for {r.choice(TASKS)}",
    lambda r, g: f"{r.choice(ADJECTIVES).capitalize()} {r.choice(NOUNS)} for {r.choice(TASKS)} in {r.choice(DOMAINS)}",
    lambda r, g: f"Towards {r.choice(ADJECTIVES)} {r.choice(TASKS)} with {r.choice(ADJECTIVES)} {r.choice(NOUNS)}",
    lambda r, g: f"On the {r.choice(['convergence', 'robustness', 'efficiency', 'expressivity', 'limits', 'generalization', 'stability'])} of {r.choice(ADJECTIVES)} {r.choice(NOUNS)}",
    lambda r, g: f"Learning {r.choice(ADJECTIVES)} {r.choice(NOUNS)} for {r.choice(TASKS)}",
    lambda r, g: f"{r.choice(NOUNS).capitalize()} Are All You Need for {r.choice(TASKS)}",
    lambda r, g: f"Scaling {r.choice(ADJECTIVES)} {r.choice(NOUNS)} to {r.choice(['billions of', 'trillions of', 'thousands of', 'millions of'])} {r.choice(NOUNS)}",
    lambda r, g: f"A {r.choice(['systematic', 'large-scale', 'critical', 'empirical', 'comparative'])} Study of {r.choice(TASKS)} in {r.choice(DOMAINS)}",
    lambda r, g: f"{coined_name(r)}: {r.choice(['Fast', 'Efficient', 'Scalable', 'Robust', 'Practical'])} {r.choice(TASKS)} via {r.choice(ADJECTIVES)} {r.choice(NOUNS)}",
    lambda r, g: f"Rethinking {r.choice(NOUNS)} for {r.choice(ADJECTIVES)} {r.choice(TASKS)}",
]


class Generator:
    def __init__(self, n: int, seed: int):
        self.n = n
        self.rng = rng = random.Random(seed)
        tech_tokens = sorted({w for phrase in TASKS for w in phrase.split()} | set(NOUNS) | set(ADJECTIVES))
        self.rare = pseudo_words(rng, 20000)
        # abstract vocabulary: function words most frequent, then academic, then technical terms
        self.common = Sampler(rng, FUNCTION_WORDS, 1.1)
        self.academic = Sampler(rng, ACADEMIC, 1.0)
        self.tech = Sampler(rng, tech_tokens + list(DOMAINS), 0.9)
        self.rare_s = Sampler(rng, self.rare, 0.8)
        # people: a pool of distinct persons, sampled with Zipf weights (prolific authors)
        n_people = max(3000, int(n * 1.2))
        people: set[tuple[str, str]] = set()
        while len(people) < n_people:
            first = rng.choice(FIRST_NAMES)
            if rng.random() < 0.35:
                first += " " + rng.choice(string.ascii_uppercase) + "."
            people.add((first, rng.choice(LAST_NAMES)))
        self.people = Sampler(rng, sorted(people), 0.75)
        venues = list(REAL_VENUES)
        venues += [f"Proceedings of the {k}th Workshop on {t.title()}" for k, t in
                   zip(itertools.cycle(range(2, 30)), TASKS * 4)]
        self.venues = Sampler(rng, sorted(set(venues)), 1.0)
        n_tags = 200 + n // 100
        tags = list(dict.fromkeys(WORKFLOW_TAGS + TASKS))
        seen_tags = set(tags)
        while len(tags) < n_tags:
            t = rng.choice(["", "auto: "]) + rng.choice(ADJECTIVES) + " " + rng.choice(NOUNS)
            if len(seen_tags) > 0.8 * len(ADJECTIVES) * len(NOUNS) * 2:
                t += f" {rng.randint(1, 10**6)}"
            if t not in seen_tags:
                seen_tags.add(t)
                tags.append(t)
        self.tags = Sampler(rng, tags[:n_tags], 1.0)
        years = list(range(1990, 2026))
        self.year_cum = list(itertools.accumulate(2.718 ** (0.11 * (y - 1990)) for y in years))
        self.years = years

    def sentence(self, k: int) -> str:
        r = self.rng.random
        words = []
        for _ in range(k):
            x = r()
            if x < 0.42:
                words.append(self.common.one())
            elif x < 0.70:
                words.append(self.academic.one())
            elif x < 0.96:
                words.append(self.tech.one())
            else:
                words.append(self.rare_s.one())
        words[0] = words[0].capitalize()
        return " ".join(words) + "."

    def text(self, n_words: int) -> str:
        out, left = [], n_words
        while left > 0:
            k = min(left, self.rng.randint(12, 26))
            out.append(self.sentence(k))
            left -= k
        return " ".join(out)

    def paper(self, i: int, note_frac: float) -> Paper:
        rng = self.rng
        title = rng.choice(TITLE_TEMPLATES)(rng, self)
        abstract = self.text(rng.randint(120, 180))
        year = self.years[bisect.bisect_left(self.year_cum, rng.random() * self.year_cum[-1])]
        m = rng.randint(0, 12)
        date = f"{year}-{m:02d}-00 {MONTHS[m - 1]} {year}" if m else f"{year}-00-00 {year}"
        k = rng.randint(3, 8)
        authors: list[tuple[str, str]] = []
        seen = set()
        while len(authors) < k:
            p = self.people.one()
            if p not in seen:
                seen.add(p)
                authors.append(p)
        tags = []
        for t in dict.fromkeys(self.tags.many(rng.randint(0, 4))):
            tags.append((t, 1 if t.startswith("auto: ") else 0))
        note = self.text(rng.randint(30, 80)) if rng.random() < note_frac else None
        added = f"20{rng.randint(15, 25)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} 12:00:00"
        key = "".join(rng.choice(KEY_ALPHABET) for _ in range(8))
        return Paper(title, abstract, year, date, self.venues.one(), authors, tags, note, added, key)

    def papers(self, note_frac: float) -> list[Paper]:
        seen_keys: set[str] = set()
        out = []
        for i in range(self.n):
            p = self.paper(i, note_frac)
            while p.key in seen_keys:
                p.key = "".join(self.rng.choice(KEY_ALPHABET) for _ in range(8))
            seen_keys.add(p.key)
            out.append(p)
        return out


def normalize_for_search(s: str) -> str:
    """Diacritic- and case-folded form (what Zotero 10 stores in its *Normalized columns)."""
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)).lower()


def normalized_or_null(s: str | None) -> str | None:
    if not s:
        return None
    n = normalize_for_search(s)
    ascii_lower = "".join(c.lower() if "A" <= c <= "Z" else c for c in s)
    return None if n == ascii_lower else n


# --------------------------------------------------------------------------------------
# Zotero-shaped database
# --------------------------------------------------------------------------------------

LIBRARY_ID = 1
IT_JOURNAL, IT_NOTE, IT_ATTACHMENT, IT_ANNOTATION = 22, 28, 3, 41  # arbitrary but fixed IDs
CT_AUTHOR, CT_CONTRIBUTOR, CT_EDITOR = 8, 2, 10

# Only the fields the measured queries reference; base-field -> type-specific mappings as in
# the Zotero global schema (e.g. title also covers caseName/nameOfAct/subject).
FIELD_NAMES = ["title", "abstractNote", "date", "publicationTitle", "shortTitle", "court",
               "citationKey", "caseName", "nameOfAct", "subject", "dateDecided", "dateEnacted",
               "issueDate", "blogTitle", "bookTitle", "dictionaryTitle", "encyclopediaTitle",
               "forumTitle", "proceedingsTitle", "programTitle", "sessionTitle", "websiteTitle"]
FID = {name: i + 1 for i, name in enumerate(FIELD_NAMES)}
BASE_MAPPED = {
    "title": ["caseName", "nameOfAct", "subject"],
    "publicationTitle": ["blogTitle", "bookTitle", "dictionaryTitle", "encyclopediaTitle",
                         "forumTitle", "proceedingsTitle", "programTitle", "sessionTitle",
                         "websiteTitle"],
    "date": ["dateDecided", "dateEnacted", "issueDate"],
}

ZOTERO_DDL = """
CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL,
    filesEditable INT NOT NULL, version INT NOT NULL DEFAULT 0);
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT,
    display INT DEFAULT 1);
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE itemTypeCreatorTypes (itemTypeID INT, creatorTypeID INT, primaryField INT,
    PRIMARY KEY (itemTypeID, creatorTypeID));
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
    dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0,
    synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE INDEX items_synced ON items(synced);
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE, valueNormalized TEXT);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE INDEX itemData_fieldID ON itemData(fieldID);
CREATE INDEX itemData_valueID ON itemData(valueID);
CREATE TABLE itemNotes (itemID INTEGER PRIMARY KEY, parentItemID INT, note TEXT, title TEXT);
CREATE INDEX itemNotes_parentItemID ON itemNotes(parentItemID);
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT,
    contentType TEXT, charsetID INT, path TEXT, syncState INT DEFAULT 0);
CREATE INDEX itemAttachments_parentItemID ON itemAttachments(parentItemID);
CREATE INDEX itemAttachments_contentType ON itemAttachments(contentType);
CREATE TABLE itemAnnotations (itemID INTEGER PRIMARY KEY, parentItemID INT NOT NULL,
    type INTEGER NOT NULL, authorName TEXT, text TEXT, textNormalized TEXT, comment TEXT,
    commentNormalized TEXT, color TEXT, pageLabel TEXT, sortIndex TEXT NOT NULL,
    position TEXT NOT NULL, isExternal INT NOT NULL);
CREATE INDEX itemAnnotations_parentItemID ON itemAnnotations(parentItemID);
CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, nameNormalized TEXT);
CREATE TABLE itemTags (itemID INT NOT NULL, tagID INT NOT NULL, type INT NOT NULL,
    PRIMARY KEY (itemID, tagID));
CREATE INDEX itemTags_tagID ON itemTags(tagID);
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT,
    fieldMode INT, firstNameNormalized TEXT, lastNameNormalized TEXT,
    UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL,
    creatorTypeID INT NOT NULL DEFAULT 1, orderIndex INT NOT NULL DEFAULT 0,
    PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex), UNIQUE (itemID, orderIndex));
CREATE INDEX itemCreators_creatorTypeID ON itemCreators(creatorTypeID);
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY,
    dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
CREATE INDEX deletedItems_dateDeleted ON deletedItems(dateDeleted);
"""


def connect(path: str, cache_mb: int) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    # Zotero sets an 8 MB page cache (cache_size = 8192000 / page_size pages)
    conn.execute(f"PRAGMA cache_size={int(cache_mb * 1024000 / page)}")
    conn.execute("PRAGMA temp_store=MEMORY")
    return conn


def build_zotero_db(path: str, papers: list[Paper], attach_frac: float, trash_frac: float,
                    seed: int) -> dict:
    t0 = time.perf_counter()
    conn = connect(path, 64)
    conn.executescript(ZOTERO_DDL)
    conn.execute("BEGIN")
    conn.execute("INSERT INTO libraries VALUES (1, 'user', 1, 1, 0)")
    conn.executemany("INSERT INTO itemTypes (itemTypeID, typeName) VALUES (?, ?)",
                     [(IT_JOURNAL, "journalArticle"), (IT_NOTE, "note"),
                      (IT_ATTACHMENT, "attachment"), (IT_ANNOTATION, "annotation")])
    conn.executemany("INSERT INTO fields (fieldID, fieldName) VALUES (?, ?)",
                     [(fid, name) for name, fid in FID.items()])
    conn.executemany("INSERT INTO creatorTypes VALUES (?, ?)",
                     [(CT_AUTHOR, "author"), (CT_CONTRIBUTOR, "contributor"), (CT_EDITOR, "editor")])
    conn.executemany("INSERT INTO itemTypeCreatorTypes VALUES (?, ?, ?)",
                     [(IT_JOURNAL, CT_AUTHOR, 1), (IT_JOURNAL, CT_CONTRIBUTOR, 0),
                      (IT_JOURNAL, CT_EDITOR, 0)])
    rng = random.Random(seed + 7)
    value_ids: dict[str, int] = {}
    creator_ids: dict[tuple[str, str], int] = {}
    tag_ids: dict[str, int] = {}
    items, item_data, values, creators, item_creators = [], [], [], [], []
    tags, item_tags, notes, attachments, deleted = [], [], [], [], []
    next_item = 1

    def vid(v: str) -> int:
        i = value_ids.get(v)
        if i is None:
            i = value_ids[v] = len(value_ids) + 1
            values.append((i, v, normalized_or_null(v)))
        return i

    def new_key() -> str:
        return "".join(rng.choice(KEY_ALPHABET) for _ in range(8))

    for p in papers:
        item_id = next_item
        next_item += 1
        items.append((item_id, IT_JOURNAL, p.date_added, p.date_added, p.date_added, LIBRARY_ID, p.key))
        item_data.append((item_id, FID["title"], vid(p.title)))
        item_data.append((item_id, FID["abstractNote"], vid(p.abstract)))
        item_data.append((item_id, FID["date"], vid(p.date)))
        item_data.append((item_id, FID["publicationTitle"], vid(p.venue)))
        for order, (first, last) in enumerate(p.authors):
            cid = creator_ids.get((first, last))
            if cid is None:
                cid = creator_ids[(first, last)] = len(creator_ids) + 1
                creators.append((cid, first, last, 0, normalized_or_null(first), normalized_or_null(last)))
            item_creators.append((item_id, cid, CT_AUTHOR, order))
        for name, ttype in p.tags:
            tid = tag_ids.get(name)
            if tid is None:
                tid = tag_ids[name] = len(tag_ids) + 1
                tags.append((tid, name, normalized_or_null(name)))
            item_tags.append((item_id, tid, ttype))
        if p.note is not None:
            nid = next_item
            next_item += 1
            items.append((nid, IT_NOTE, p.date_added, p.date_added, p.date_added, LIBRARY_ID, new_key()))
            html = f"{NOTE_PREFIX}<p>{p.note}</p>{NOTE_SUFFIX}"
            notes.append((nid, item_id, html, p.note[:80]))
        if attach_frac and rng.random() < attach_frac:
            aid = next_item
            next_item += 1
            items.append((aid, IT_ATTACHMENT, p.date_added, p.date_added, p.date_added, LIBRARY_ID, new_key()))
            attachments.append((aid, item_id, 0, "application/pdf", f"storage:{p.key}.pdf"))
            item_data.append((aid, FID["title"], vid("Full Text PDF")))
        if trash_frac and rng.random() < trash_frac:
            deleted.append((item_id,))
    conn.executemany("INSERT INTO items (itemID, itemTypeID, dateAdded, dateModified, "
                     "clientDateModified, libraryID, key) VALUES (?,?,?,?,?,?,?)", items)
    conn.executemany("INSERT INTO itemDataValues VALUES (?,?,?)", values)
    conn.executemany("INSERT INTO itemData VALUES (?,?,?)", item_data)
    conn.executemany("INSERT INTO creators VALUES (?,?,?,?,?,?)", creators)
    conn.executemany("INSERT INTO itemCreators VALUES (?,?,?,?)", item_creators)
    conn.executemany("INSERT INTO tags VALUES (?,?,?)", tags)
    conn.executemany("INSERT INTO itemTags VALUES (?,?,?)", item_tags)
    conn.executemany("INSERT INTO itemNotes VALUES (?,?,?,?)", notes)
    conn.executemany("INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) "
                     "VALUES (?,?,?,?,?)", attachments)
    conn.executemany("INSERT INTO deletedItems (itemID) VALUES (?)", deleted)
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()
    secs = time.perf_counter() - t0
    return {"seconds": secs, "records_per_s": len(papers) / secs, "items_rows": len(items),
            "itemDataValues_rows": len(values), "creators_rows": len(creators),
            "tags_rows": len(tags), "notes": len(notes), "attachments": len(attachments),
            "trashed": len(deleted), "file_mb": os.path.getsize(path) / 1e6}


# ---- Zotero query shapes ------------------------------------------------------------------


class ZoteroShape:
    """Generates the SQL Zotero 7-9 runs for a library-root view (variant z9), or the Zotero 10
    variant that matches against COALESCE(<col>Normalized, <col>) shadow columns (z10)."""

    def __init__(self, variant: str = "z9"):
        self.variant = variant
        z10 = variant == "z10"
        self.value_expr = "COALESCE(valueNormalized, value)" if z10 else "value"
        self.tag_expr = "COALESCE(nameNormalized, name)" if z10 else "name"
        self.creator_expr = ("TRIM(COALESCE(firstNameNormalized, firstName) || ' ' || "
                             "COALESCE(lastNameNormalized, lastName))" if z10
                             else "TRIM(firstName || ' ' || lastName)")
        self.annot_text = "COALESCE(textNormalized, text)" if z10 else "text"
        self.annot_comment = "COALESCE(commentNormalized, comment)" if z10 else "comment"
        # note body without the wrapper div (Zotero 10 answers notes from an FTS trigram index;
        # this benchmark keeps the LIKE form for both variants)
        pl, sl = len(NOTE_PREFIX), len(NOTE_SUFFIX)
        self.note_expr = f"SUBSTR(note, {pl + 1}, LENGTH(note) - {pl + sl})"

    # Items in the trash, plus children of trashed items
    TRASHED = ("SELECT itemID FROM deletedItems "
               "UNION SELECT itemID FROM itemNotes WHERE parentItemID IS NOT NULL AND parentItemID IN (SELECT itemID FROM deletedItems) "
               "UNION SELECT itemID FROM itemAttachments WHERE parentItemID IS NOT NULL AND parentItemID IN (SELECT itemID FROM deletedItems) "
               "UNION SELECT itemID FROM itemAnnotations WHERE parentItemID IN (SELECT itemID FROM deletedItems) "
               "UNION SELECT itemID FROM itemAnnotations WHERE parentItemID IN "
               "(SELECT itemID FROM itemAttachments WHERE parentItemID IN (SELECT itemID FROM deletedItems))")
    NO_CHILDREN = ("itemID NOT IN (SELECT itemID FROM itemNotes WHERE parentItemID IS NOT NULL) "
                   "AND itemID NOT IN (SELECT itemID FROM itemAttachments WHERE parentItemID IS NOT NULL) "
                   "AND itemID NOT IN (SELECT itemID FROM itemAnnotations WHERE parentItemID IS NOT NULL)")

    def base(self, no_children: bool) -> tuple[str, list]:
        sql = f"SELECT itemID FROM items WHERE (itemID NOT IN ({self.TRASHED}))"
        if no_children:
            sql += f" AND ({self.NO_CHILDREN})"
        sql += " AND (itemID IN (SELECT itemID FROM items WHERE libraryID=?))"
        return sql, [LIBRARY_ID]

    def _field(self, field_ids: list[int] | None, expr: str, pattern: str) -> tuple[str, list]:
        params: list = []
        where = ""
        if field_ids:
            where = f"fieldID IN ({','.join('?' * len(field_ids))}) AND " if len(field_ids) > 1 else "fieldID=? AND "
            params += field_ids
        params.append(pattern)
        return (f"itemID IN (SELECT itemID FROM itemData WHERE ({where}valueID IN "
                f"(SELECT valueID FROM itemDataValues WHERE {expr} LIKE ?)))", params)

    def _fids(self, base: str) -> list[int]:
        return [FID[base]] + [FID[f] for f in BASE_MAPPED.get(base, [])]

    def word_block(self, word: str, mode: str) -> tuple[str, list]:
        pat_raw = f"%{word}%"
        pat = f"%{normalize_for_search(word)}%" if self.variant == "z10" else pat_raw
        preds: list[tuple[str, list]] = []
        if mode == "tcy":  # "Title, Creator, Year"
            preds.append(self._field(self._fids("title"), self.value_expr, pat))
            preds.append(self._field(self._fids("publicationTitle"), self.value_expr, pat))
            preds.append(self._field(self._fids("shortTitle"), self.value_expr, pat))
            preds.append(self._field(self._fids("court"), self.value_expr, pat))
            preds.append(self._field(self._fids("date"), "SUBSTR(value, 1, 4)", pat_raw))
            preds.append(self._field(self._fids("citationKey"), self.value_expr, pat))
        else:  # "All Fields & Tags"
            preds.append(self._field(None, self.value_expr, pat))
            preds.append((f"itemID IN (SELECT itemID FROM itemTags LEFT JOIN itemAnnotations IAnT "
                          f"USING (itemID) WHERE (tagID IN (SELECT tagID FROM tags WHERE {self.tag_expr} LIKE ?)))", [pat]))
            preds.append((f"itemID IN (SELECT itemID FROM itemNotes WHERE ({self.note_expr} LIKE ?))", [pat_raw]))
            preds.append((f"itemID IN (SELECT itemID FROM itemAnnotations WHERE ({self.annot_text} LIKE ?))", [pat]))
            preds.append((f"itemID IN (SELECT itemID FROM itemAnnotations WHERE ({self.annot_comment} LIKE ?))", [pat]))
        preds.append((f"itemID IN (SELECT itemID FROM itemCreators WHERE (creatorID IN "
                      f"(SELECT creatorID FROM creators WHERE {self.creator_expr} LIKE ?)))", [pat]))
        return " OR ".join(s for s, _ in preds), [x for _, ps in preds for x in ps]

    def tag_is(self, tag: str) -> tuple[str, list]:
        op = "=? COLLATE NOCASE" if self.variant == "z10" else "=?"
        val = normalize_for_search(tag) if self.variant == "z10" else tag
        return (f"itemID IN (SELECT itemID FROM itemTags LEFT JOIN itemAnnotations IAnT USING (itemID) "
                f"WHERE (tagID IN (SELECT tagID FROM tags WHERE {self.tag_expr}{op})))", [val])

    def view_search(self, conn: sqlite3.Connection, words: Sequence[str] = (), mode: str = "fields",
                    tag: str | None = None) -> list[int]:
        """One library-root search as Zotero runs it: scope temp table, filter query, drop."""
        tmp = "tmpSearchResults_" + "".join(random.choice(string.ascii_letters) for _ in range(8))
        scope_sql, scope_params = self.base(no_children=True)
        conn.execute(f"CREATE TEMPORARY TABLE {tmp} AS {scope_sql}", scope_params)
        conn.execute(f"CREATE INDEX {tmp}_itemID ON {tmp}(itemID)")
        try:
            sql, params = self.base(no_children=bool(words) and mode == "tcy")
            if tag is not None:
                tsql, tparams = self.tag_is(tag)
                sql += " AND " + tsql
                params += tparams
            if words:
                blocks = [self.word_block(w, mode) for w in words]
                sql = (f"SELECT itemID FROM items WHERE itemID IN ({sql}) AND (("
                       + ") AND (".join(b for b, _ in blocks) + "))")
                params += [x for _, ps in blocks for x in ps]
            final = (f"SELECT GROUP_CONCAT(itemID) FROM items WHERE itemID IN ({sql}) AND ("
                     f"itemID IN (SELECT itemID FROM {tmp})"
                     f" OR itemID IN (SELECT itemID FROM itemAttachments WHERE parentItemID IN (SELECT itemID FROM {tmp}))"
                     f" OR itemID IN (SELECT itemID FROM itemNotes WHERE parentItemID IN (SELECT itemID FROM {tmp}))"
                     f" OR itemID IN (SELECT itemID FROM itemAnnotations WHERE parentItemID IN "
                     f"(SELECT itemID FROM itemAttachments WHERE parentItemID IN (SELECT itemID FROM {tmp})))"
                     f" OR itemID IN (SELECT itemID FROM itemAnnotations WHERE parentItemID IN (SELECT itemID FROM {tmp})))")
            res = conn.execute(final, params).fetchone()[0]
        finally:
            conn.execute(f"DROP TABLE IF EXISTS {tmp}")
        return [int(x) for x in res.split(",")] if res else []

    @staticmethod
    def ids_to_temp_table(conn: sqlite3.Connection, ids: Sequence[int]) -> str:
        """Zotero materialises an ID list as CREATE TEMPORARY TABLE ... AS WITH cte(itemID) AS (VALUES ...)."""
        tmp = "tmpSearchResults_" + "".join(random.choice(string.ascii_letters) for _ in range(8))
        if ids:
            conn.execute(f"CREATE TEMPORARY TABLE {tmp} AS WITH cte(itemID) AS (VALUES "
                         + ",".join(f"({int(i)})" for i in ids) + ") SELECT * FROM cte")
            conn.execute(f"CREATE UNIQUE INDEX {tmp}_itemID ON {tmp}(itemID)")
        else:
            conn.execute(f"CREATE TEMPORARY TABLE {tmp} (itemID INTEGER PRIMARY KEY)")
        return tmp

    def tag_selector(self, conn: sqlite3.Connection, view_ids: Sequence[int]) -> list[str]:
        """Tag pane refresh: distinct tags of the items in view (no counts), sorted by name."""
        tmp = self.ids_to_temp_table(conn, view_ids)
        try:
            rows = conn.execute(
                "SELECT DISTINCT tagID || ':' || type FROM itemTags JOIN tags USING (tagID) WHERE 1 "
                f"AND itemID IN (SELECT itemID FROM {tmp} UNION SELECT itemID FROM itemAnnotations "
                f"WHERE parentItemID IN (SELECT itemID FROM {tmp})) ORDER BY name COLLATE NOCASE").fetchall()
        finally:
            conn.execute(f"DROP TABLE IF EXISTS {tmp}")
        return [r[0] for r in rows]

    @staticmethod
    def tag_counts(conn: sqlite3.Connection) -> list[tuple]:
        """What a tag pane *with counts* would need from this schema (Zotero itself shows none)."""
        return conn.execute(
            "SELECT t.name, COUNT(*) FROM itemTags it JOIN tags t USING (tagID) "
            "WHERE it.itemID NOT IN (SELECT itemID FROM deletedItems) "
            "GROUP BY it.tagID ORDER BY t.name COLLATE NOCASE").fetchall()

    @staticmethod
    def first_creator_expr(alias: str = "O") -> str:
        def case(where: str) -> str:
            sub = f"FROM itemCreators IC NATURAL JOIN creators {where}"
            return (f"CASE (SELECT COUNT(*) FROM itemCreators IC {where}) WHEN 0 THEN NULL "
                    f"WHEN 1 THEN (SELECT lastName {sub}) "
                    f"WHEN 2 THEN (SELECT (SELECT lastName {sub} ORDER BY orderIndex LIMIT 1) || ' and ' || "
                    f"(SELECT lastName {sub} ORDER BY orderIndex LIMIT 1 OFFSET 1)) "
                    f"ELSE (SELECT lastName {sub} ORDER BY orderIndex LIMIT 1) || ' et al.' END")
        primary = (f"WHERE itemID={alias}.itemID AND creatorTypeID IN (SELECT creatorTypeID FROM "
                   f"itemTypeCreatorTypes WHERE itemTypeID={alias}.itemTypeID AND primaryField=1)")
        return (f"COALESCE({case(primary)}, "
                f"{case(f'WHERE itemID={alias}.itemID AND creatorTypeID={CT_EDITOR}')}, "
                f"{case(f'WHERE itemID={alias}.itemID AND creatorTypeID={CT_CONTRIBUTOR}')})")

    def list_sql(self, limit: int | None = None) -> str:
        """Top-level items with title, first creator, year, sorted by title, in one query."""
        sql = (f"SELECT O.itemID, TV.value AS title, {self.first_creator_expr('O')} AS firstCreator, "
               f"SUBSTR(DV.value, 1, 4) AS year FROM items O "
               f"JOIN itemData TD ON TD.itemID=O.itemID AND TD.fieldID={FID['title']} "
               f"JOIN itemDataValues TV ON TV.valueID=TD.valueID "
               f"LEFT JOIN itemData DD ON DD.itemID=O.itemID AND DD.fieldID={FID['date']} "
               f"LEFT JOIN itemDataValues DV ON DV.valueID=DD.valueID "
               f"WHERE O.libraryID={LIBRARY_ID} AND O.itemTypeID NOT IN ({IT_NOTE}, {IT_ATTACHMENT}, {IT_ANNOTATION}) "
               f"AND O.itemID NOT IN (SELECT itemID FROM deletedItems) "
               f"ORDER BY TV.value COLLATE NOCASE")
        return sql + (f" LIMIT {limit}" if limit else "")

    def startup_bulk_load(self, conn: sqlite3.Connection) -> int:
        """The per-data-type bulk loads Zotero runs before the items pane shows a library
        (every item's primary data incl. a computed firstCreator, all field values, creators,
        tags, notes, child links).  Returns rows fetched; Python object building not included."""
        fc = self.first_creator_expr("O")
        stmts = [
            (f"SELECT O.itemID, O.itemTypeID, O.dateAdded, O.dateModified, O.libraryID, O.key, "
             f"O.version, O.synced, {fc} AS firstCreator, DI.itemID IS NOT NULL AS deleted, "
             f"(CASE O.itemTypeID WHEN {IT_ATTACHMENT} THEN IA.parentItemID WHEN {IT_NOTE} THEN INo.parentItemID END) AS parentID "
             f"FROM items O LEFT JOIN itemAttachments IA USING (itemID) "
             f"LEFT JOIN itemNotes INo ON (O.itemID=INo.itemID) LEFT JOIN deletedItems DI ON (O.itemID=DI.itemID) "
             f"WHERE O.libraryID=?", [LIBRARY_ID]),
            ("SELECT itemID, fieldID, value FROM items JOIN itemData USING (itemID) "
             "JOIN itemDataValues USING (valueID) WHERE libraryID=? AND itemTypeID!=?", [LIBRARY_ID, IT_NOTE]),
            ("SELECT itemID, creatorID, creatorTypeID, orderIndex FROM items LEFT JOIN itemCreators "
             "USING (itemID) WHERE libraryID=? ORDER BY itemID, orderIndex", [LIBRARY_ID]),
            ("SELECT creatorID, firstName, lastName, fieldMode FROM creators", []),
            ("SELECT itemID, name, type FROM items LEFT JOIN itemTags USING (itemID) "
             "LEFT JOIN tags USING (tagID) WHERE libraryID=?", [LIBRARY_ID]),
            ("SELECT itemID, note FROM items JOIN itemNotes USING (itemID) WHERE libraryID=?", [LIBRARY_ID]),
            ("SELECT parentItemID, itemID FROM itemNotes WHERE parentItemID IS NOT NULL "
             "UNION ALL SELECT parentItemID, itemID FROM itemAttachments WHERE parentItemID IS NOT NULL", []),
        ]
        n = 0
        for sql, params in stmts:
            n += len(conn.execute(sql, params).fetchall())
        return n


# --------------------------------------------------------------------------------------
# Normalized schema + FTS5 reference
# --------------------------------------------------------------------------------------

REFMAN_DDL = """
CREATE TABLE venues (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE papers (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    abstract TEXT,
    year INTEGER,
    venue_id INTEGER REFERENCES venues(id),
    date_added TEXT NOT NULL,
    first_creator TEXT  -- cached display string ("Smith", "Smith and Lee", "Smith et al.")
);
-- covering index for the title-sorted list pane: the ordered scan never touches the wide rows
CREATE INDEX papers_list_title ON papers(title COLLATE NOCASE, year, first_creator);
CREATE INDEX papers_year ON papers(year);
CREATE TABLE authors (id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT NOT NULL,
                      UNIQUE (last_name, first_name));
CREATE TABLE paper_authors (
    paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    author_id INTEGER NOT NULL REFERENCES authors(id),
    PRIMARY KEY (paper_id, position)
) WITHOUT ROWID;
CREATE INDEX paper_authors_author ON paper_authors(author_id);
CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE);
CREATE TABLE paper_tags (
    paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    PRIMARY KEY (paper_id, tag_id)
) WITHOUT ROWID;
CREATE INDEX paper_tags_tag ON paper_tags(tag_id, paper_id);
CREATE TABLE notes (id INTEGER PRIMARY KEY,
                    paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
                    body TEXT NOT NULL);
CREATE INDEX notes_paper ON notes(paper_id);
-- One search document per paper, assembled from the normalized tables
CREATE VIEW paper_search_doc AS
SELECT p.id AS id,
       p.title AS title,
       (SELECT group_concat(a.first_name || ' ' || a.last_name, '; ')
          FROM paper_authors pa JOIN authors a ON a.id = pa.author_id
         WHERE pa.paper_id = p.id) AS authors,
       v.name AS venue,
       CAST(p.year AS TEXT) AS year,
       p.abstract AS abstract,
       (SELECT group_concat(t.name, '; ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
         WHERE pt.paper_id = p.id) AS tags,
       (SELECT group_concat(n.body, ' ') FROM notes n WHERE n.paper_id = p.id) AS notes
  FROM papers p LEFT JOIN venues v ON v.id = p.venue_id;
CREATE VIRTUAL TABLE paper_fts USING fts5(
    title, authors, venue, year, abstract, tags, notes,
    content='paper_search_doc', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);
"""

TCY_COLUMNS = "{title authors venue year}"


def build_refman_db(path: str, papers: list[Paper]) -> dict:
    t0 = time.perf_counter()
    conn = connect(path, 64)
    conn.executescript(REFMAN_DDL)
    conn.execute("BEGIN")
    venue_ids: dict[str, int] = {}
    author_ids: dict[tuple[str, str], int] = {}
    tag_ids: dict[str, int] = {}
    venues, rows, authors, pa, tags, pt, notes = [], [], [], [], [], [], []
    for pid, p in enumerate(papers, start=1):
        vid = venue_ids.get(p.venue)
        if vid is None:
            vid = venue_ids[p.venue] = len(venue_ids) + 1
            venues.append((vid, p.venue))
        lasts = [last for _, last in p.authors]
        first_creator = (None if not lasts else lasts[0] if len(lasts) == 1 else
                         f"{lasts[0]} and {lasts[1]}" if len(lasts) == 2 else f"{lasts[0]} et al.")
        rows.append((pid, p.title, p.abstract, p.year, vid, p.date_added, first_creator))
        for pos, (first, last) in enumerate(p.authors):
            aid = author_ids.get((first, last))
            if aid is None:
                aid = author_ids[(first, last)] = len(author_ids) + 1
                authors.append((aid, first, last))
            pa.append((pid, pos, aid))
        for name, _ in p.tags:
            tid = tag_ids.get(name.lower())
            if tid is None:
                tid = tag_ids[name.lower()] = len(tag_ids) + 1
                tags.append((tid, name))
            pt.append((pid, tid))
        if p.note is not None:
            notes.append((pid, p.note))
    conn.executemany("INSERT INTO venues VALUES (?,?)", venues)
    conn.executemany("INSERT INTO papers VALUES (?,?,?,?,?,?,?)", rows)
    conn.executemany("INSERT INTO authors VALUES (?,?,?)", authors)
    conn.executemany("INSERT INTO paper_authors VALUES (?,?,?)", pa)
    conn.executemany("INSERT INTO tags VALUES (?,?)", tags)
    conn.executemany("INSERT OR IGNORE INTO paper_tags VALUES (?,?)", pt)
    conn.executemany("INSERT INTO notes (paper_id, body) VALUES (?,?)", notes)
    conn.execute("COMMIT")
    t1 = time.perf_counter()
    conn.execute("INSERT INTO paper_fts(paper_fts) VALUES ('rebuild')")
    conn.execute("INSERT INTO paper_fts(paper_fts) VALUES ('optimize')")
    t2 = time.perf_counter()
    conn.execute("ANALYZE")
    conn.close()
    secs = time.perf_counter() - t0
    return {"seconds": secs, "table_insert_s": t1 - t0, "fts_build_s": t2 - t1,
            "records_per_s": len(papers) / secs, "table_records_per_s": len(papers) / (t1 - t0),
            "authors_rows": len(authors), "tags_rows": len(tags), "notes": len(notes),
            "file_mb": os.path.getsize(path) / 1e6}


class Fts5Reference:
    @staticmethod
    def match_expr(words: Sequence[str], mode: str) -> str:
        terms = " ".join('"' + w.replace('"', '""') + '"*' for w in words)
        return f"{TCY_COLUMNS} : ({terms})" if mode == "tcy" else terms

    def search(self, conn: sqlite3.Connection, words: Sequence[str], mode: str) -> list[int]:
        rows = conn.execute("SELECT rowid FROM paper_fts WHERE paper_fts MATCH ?",
                            (self.match_expr(words, mode),)).fetchall()
        return [r[0] for r in rows]

    def search_page(self, conn: sqlite3.Connection, words: Sequence[str], mode: str,
                    page: int = 100) -> tuple[int, list[tuple]]:
        """Hit count plus the first screenful of result rows sorted by title."""
        expr = self.match_expr(words, mode)
        n = conn.execute("SELECT count(*) FROM paper_fts WHERE paper_fts MATCH ?", (expr,)).fetchone()[0]
        rows = conn.execute(
            f"SELECT p.id, p.title, p.year FROM papers p WHERE p.id IN "
            f"(SELECT rowid FROM paper_fts WHERE paper_fts MATCH ?) ORDER BY p.title COLLATE NOCASE "
            f"LIMIT {page}", (expr,)).fetchall()
        return n, rows

    @staticmethod
    def list_cached_sql(limit: int | None = None, offset: int = 0) -> str:
        """List rows from the covering index alone (first creator from the cached column)."""
        sql = "SELECT id, title, first_creator, year FROM papers ORDER BY title COLLATE NOCASE"
        return sql + (f" LIMIT {limit} OFFSET {offset}" if limit else "")

    @staticmethod
    def tag_filter_page(conn: sqlite3.Connection, tag: str, page: int = 100) -> tuple[int, list]:
        tid = conn.execute("SELECT id FROM tags WHERE name = ?", (tag,)).fetchone()[0]
        n = conn.execute("SELECT count(*) FROM paper_tags WHERE tag_id = ?", (tid,)).fetchone()[0]
        rows = conn.execute(
            "SELECT p.id, p.title, p.first_creator, p.year FROM paper_tags pt JOIN papers p ON p.id = pt.paper_id "
            f"WHERE pt.tag_id = ? ORDER BY p.title COLLATE NOCASE LIMIT {page}", (tid,)).fetchall()
        return n, rows

    def tag_counts_in_results(self, conn: sqlite3.Connection, words: Sequence[str], mode: str) -> list[tuple]:
        """Tag pane after a search: tags of the matching papers, with counts."""
        return conn.execute(
            "SELECT t.name, COUNT(*) FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.paper_id IN "
            "(SELECT rowid FROM paper_fts WHERE paper_fts MATCH ?) GROUP BY pt.tag_id ORDER BY t.name COLLATE NOCASE",
            (self.match_expr(words, mode),)).fetchall()

    @staticmethod
    def list_sql(limit: int | None = None) -> str:
        """List rows with the first creator computed by joins (no cached column)."""
        sql = ("SELECT p.id, p.title, "
               "CASE (SELECT COUNT(*) FROM paper_authors c WHERE c.paper_id = p.id) "
               "WHEN 0 THEN NULL WHEN 1 THEN a.last_name "
               "WHEN 2 THEN a.last_name || ' and ' || (SELECT a2.last_name FROM paper_authors p2 "
               "JOIN authors a2 ON a2.id = p2.author_id WHERE p2.paper_id = p.id AND p2.position = 1) "
               "ELSE a.last_name || ' et al.' END AS first_creator, p.year "
               "FROM papers p LEFT JOIN paper_authors pa ON pa.paper_id = p.id AND pa.position = 0 "
               "LEFT JOIN authors a ON a.id = pa.author_id ORDER BY p.title COLLATE NOCASE")
        return sql + (f" LIMIT {limit}" if limit else "")

    @staticmethod
    def tag_counts(conn: sqlite3.Connection) -> list[tuple]:
        return conn.execute("SELECT t.name, COUNT(*) FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id "
                            "GROUP BY pt.tag_id ORDER BY t.name COLLATE NOCASE").fetchall()

    @staticmethod
    def tag_filter(conn: sqlite3.Connection, tag: str) -> list[int]:
        return [r[0] for r in conn.execute(
            "SELECT paper_id FROM paper_tags WHERE tag_id = (SELECT id FROM tags WHERE name = ?)",
            (tag,)).fetchall()]


# --------------------------------------------------------------------------------------
# Queries and timing
# --------------------------------------------------------------------------------------

STOP = set(FUNCTION_WORDS) | {"for", "via", "with", "are", "all", "you", "need", "the", "towards",
                              "on", "study", "learning", "rethinking", "scaling"}


def title_tokens(title: str) -> list[str]:
    out = []
    for tok in title.replace(":", " ").split():
        t = tok.strip(".,()").lower()
        if len(t) >= 4 and t not in STOP and "-" not in t and t.isalnum():
            out.append(t)
    return out


def make_queries(papers: list[Paper], k: int, seed: int) -> dict[str, list[list[str]]]:
    """Deterministic query sets. '1w': whole words (title words weighted by frequency, a few rare
    ones, a few author surnames); '2w': two words from the same title; 'prefix': what is in the
    box while typing (a 3-5 letter partial word, alone or after one whole word)."""
    rng = random.Random(seed + 99)
    occurrences = [t for p in rng.sample(papers, min(len(papers), 5000)) for t in title_tokens(p.title)]
    distinct = sorted(set(occurrences))
    # surnames as spelled (lower-cased): Zotero 7-9 LIKE is accent-sensitive, FTS5 here is not
    surnames = sorted({last.lower() for p in papers[:2000] for _, last in p.authors
                       if last.isalpha() and len(last) >= 4})
    one = [rng.choice(occurrences) for _ in range(k - k // 5 - k // 6)]
    one += [rng.choice(distinct) for _ in range(k // 5)]
    one += [rng.choice(surnames) for _ in range(k // 6)]
    two: list[list[str]] = []
    while len(two) < k:
        toks = list(dict.fromkeys(title_tokens(rng.choice(papers).title)))
        if len(toks) >= 2:
            two.append(rng.sample(toks, 2))
    prefix: list[list[str]] = []
    while len(prefix) < k:
        toks = [t for t in dict.fromkeys(title_tokens(rng.choice(papers).title)) if len(t) >= 6]
        if not toks:
            continue
        part = toks[-1][: rng.randint(3, 5)]
        if len(prefix) % 2 == 0 or len(toks) < 2:
            prefix.append([part])
        else:
            prefix.append([toks[0], part])
    return {"1w": [[w] for w in one], "2w": two, "prefix": prefix}


def pctl(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return float("nan")
    i = q * (len(s) - 1)
    lo, hi = int(i), min(int(i) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (i - lo)


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t0) * 1000.0, out


def summarize(ms: Sequence[float]) -> dict:
    return {"median_ms": statistics.median(ms), "p95_ms": pctl(ms, 0.95), "min_ms": min(ms),
            "max_ms": max(ms), "n": len(ms)}


def python_bytes_of(fn: Callable[[], object]) -> tuple[float, object]:
    """MB of Python objects allocated (and still alive) by fn(), via tracemalloc."""
    tracemalloc.start()
    try:
        out = fn()
        current, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return current / 1e6, out

# fmt: on


# --------------------------------------------------------------------------------------
# Three sides: Zotero shape, FTS5 floor, refman (refman's additions, issue 10)
# --------------------------------------------------------------------------------------

SIDES = ("zotero", "fts5", "refman")


def parse_sides(text: str) -> tuple[str, ...]:
    """``--sides``: "all", "both" (the anchor's zotero + fts5) or a comma list of SIDES."""
    if text == "all":
        return SIDES
    if text == "both":
        return ("zotero", "fts5")
    names = {s.strip() for s in text.split(",") if s.strip()}
    unknown = sorted(names - set(SIDES))
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"sides are {', '.join(SIDES)} (got {text!r})")
    return tuple(s for s in SIDES if s in names)


@dataclass
class RunConfig:
    n: int
    seed: int
    queries: int
    reps: int
    cache_mb: int
    note_frac: float
    attach_frac: float
    trash_frac: float
    variant: str
    workdir: str
    reuse: bool
    sides: tuple[str, ...] = SIDES
    refman_chunk: int = 20_000


def best_of(reps: int, fn: Callable[[], object]) -> tuple[float, object]:
    """The fastest of ``reps`` timed runs (ms) and its result."""
    return min((timed(fn) for _ in range(reps)), key=lambda x: x[0])


def hits_of(out: object) -> int:
    """How many rows an operation gave: an int as it is, (count, page) by its count."""
    if isinstance(out, int):
        return out
    if isinstance(out, tuple) and out and isinstance(out[0], int):
        return out[0]
    return len(out) if hasattr(out, "__len__") else 1


def _remove_db(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def build_sides(
    cfg: RunConfig, papers: list[Paper], paths: dict[str, str], log: Callable[[str], None]
) -> dict:
    """Build (or reuse) each side's database from the same papers."""
    builders: dict[str, Callable[[str], dict]] = {
        "zotero": lambda p: build_zotero_db(p, papers, cfg.attach_frac, cfg.trash_frac, cfg.seed),
        "fts5": lambda p: build_refman_db(p, papers),
        "refman": lambda p: build_library(p, papers, log, cfg.refman_chunk),
    }
    built: dict[str, dict] = {}
    for side in cfg.sides:
        path = paths[side]
        if cfg.reuse and os.path.exists(path):
            log(f"reusing {path}")
            continue
        _remove_db(path)
        building = path + ".building"  # a half-built library is never reused
        _remove_db(building)
        built[side] = info = builders[side](building)
        for suffix in ("", "-wal", "-shm"):  # a WAL left behind goes with its database
            if os.path.exists(building + suffix):
                os.replace(building + suffix, path + suffix)
        log(
            f"{side} built in {info['seconds']:.1f}s ({info['records_per_s']:,.0f} rec/s, {info['file_mb']:.0f} MB)"
        )
    return built


class Timer:
    """Collects the timed operations of one run; each side's figure kept under its name."""

    def __init__(self, n: int, log: Callable[[str], None]) -> None:
        self.n, self.log = n, log
        self.ops: dict[str, dict] = {}

    def _note(self, name: str, entry: dict) -> None:
        self.ops[name] = entry
        self.log(
            f"{name:32s} "
            + "  ".join(f"{s} {entry[s]['median_ms']:8.1f} ms" for s in SIDES if s in entry)
        )

    def op(self, name: str, fns: dict[str, Callable[[], object] | None], reps: int = 5) -> None:
        """Time each side's ``fn`` ``reps`` times (median, p95, ...; rows of the last run)."""
        entry: dict = {}
        for side, fn in fns.items():
            if fn is None:
                continue
            ms, out = [], None
            for _ in range(reps):
                t, out = timed(fn)
                ms.append(t)
            entry[side] = summarize(ms)
            entry[side + "_rows"] = hits_of(out)
        self._note(name, entry)

    def per_item(
        self, name: str, items: Sequence, fns: dict[str, Callable[[object], object] | None]
    ) -> None:
        """Time each side's ``fn`` once per item (a tag, a query)."""
        entry: dict = {}
        for side, fn in fns.items():
            if fn is not None:
                entry[side] = summarize([timed(partial(fn, x))[0] for x in items])
        self._note(name, entry)


def time_searches(
    cfg: RunConfig,
    queries: dict[str, list[list[str]]],
    zotero: Callable | None,
    fts5: Callable | None,
    fts5_page: Callable | None,
    refman: RefmanSide | None,
    log: Callable[[str], None],
) -> list[dict]:
    """Quick search with the same strings on every side, query by query, sides interleaved."""
    rows = []
    for mode in ("tcy", "fields"):
        for qset in ("1w", "2w", "prefix"):
            ms: dict[str, list[float]] = {}
            hits: dict[str, list[int]] = {}
            for q in queries[qset]:
                text = " ".join(q)  # what the user typed: refman takes the string
                runs: dict[str, tuple[Callable[[], object], int]] = {}
                if zotero:
                    runs["zotero"] = (partial(zotero, q, mode), cfg.reps)
                if fts5 and fts5_page:
                    runs["fts5"] = (partial(fts5, q, mode), cfg.reps)
                    runs["fts5_page"] = (partial(fts5_page, q, mode), 1)
                if refman:  # refman has one search, over all fields: the same call in both modes
                    runs["refman"] = (partial(refman.search_count, text), cfg.reps)
                    runs["refman_page"] = (partial(refman.search_first_page, text), 1)
                    runs["refman_page_relevance"] = (
                        partial(refman.search_first_page, text, True),
                        1,
                    )
                for key, (fn, reps) in runs.items():
                    t, out = best_of(reps, fn)
                    ms.setdefault(key, []).append(t)
                    hits.setdefault(key, []).append(hits_of(out))
            row: dict = {"mode": mode, "queries": qset}
            for key, values in ms.items():
                row[key] = summarize(values)
                row[key + "_ms"] = values
                row[key + "_hits_median"] = statistics.median(hits[key])
            rows.append(row)
            log(
                f"{mode:6s} {qset:6s} "
                + "  ".join(
                    f"{k} {row[k]['median_ms']:7.2f} ms"
                    for k in (
                        "zotero",
                        "fts5",
                        "fts5_page",
                        "refman",
                        "refman_page",
                        "refman_page_relevance",
                    )
                    if k in row
                )
            )
    return rows


def run_one(cfg: RunConfig, log_all: Callable[[str], None]) -> dict:
    def log(s: str) -> None:
        log_all(f"[N={cfg.n}] {s}")

    config = {**cfg.__dict__, "sides": list(cfg.sides)}
    result: dict = {"n": cfg.n, "variant": cfg.variant, "config": config}
    os.makedirs(cfg.workdir, exist_ok=True)
    paths = {
        "zotero": os.path.join(cfg.workdir, f"zotero_{cfg.n}_{cfg.seed}_a{cfg.attach_frac}.sqlite"),
        "fts5": os.path.join(cfg.workdir, f"fts5_{cfg.n}_{cfg.seed}.sqlite"),
        "refman": os.path.join(cfg.workdir, f"refman_app_{cfg.n}_{cfg.seed}.sqlite"),
    }
    t0 = time.perf_counter()
    gen = Generator(cfg.n, cfg.seed)
    papers = gen.papers(cfg.note_frac)
    result["generate_s"] = time.perf_counter() - t0
    log(f"generated {len(papers)} papers in {result['generate_s']:.1f}s")
    result["build"] = build_sides(cfg, papers, paths, log)

    queries = make_queries(papers, cfg.queries, cfg.seed)
    result["queries"] = {k: [" ".join(q) for q in v] for k, v in queries.items()}
    tag_sample = [
        t
        for t, _ in random.Random(cfg.seed + 5).sample(
            [t for p in papers for t in p.tags], min(cfg.queries, sum(len(p.tags) for p in papers))
        )
    ]
    del papers, gen

    do_z, do_f, do_r = (s in cfg.sides for s in SIDES)
    zconn = connect(paths["zotero"], cfg.cache_mb) if do_z else None
    rconn = connect(paths["fts5"], cfg.cache_mb) if do_f else None
    refman = RefmanSide(paths["refman"]) if do_r else None
    zshape = ZoteroShape(cfg.variant)
    fts = Fts5Reference()
    try:
        # warm the OS page cache and SQLite's own cache a little (every side equally)
        if zconn:
            zshape.view_search(zconn, ["warmup"], "fields")
        if rconn:
            fts.search(rconn, ["warmup"], "fields")
        if refman:
            refman.search_count("warmup")
        result["search"] = time_searches(
            cfg,
            queries,
            partial(zshape.view_search, zconn) if zconn else None,
            partial(fts.search, rconn) if rconn else None,
            partial(fts.search_page, rconn) if rconn else None,
            refman,
            log,
        )
        result["ops"] = time_ops(cfg, zshape, zconn, fts, rconn, refman, queries, tag_sample, log)
    finally:
        for c in (zconn, rconn):
            if c is not None:
                c.close()
        if refman:
            refman.close()
    return result


def time_ops(
    cfg: RunConfig,
    zshape: ZoteroShape,
    zconn: sqlite3.Connection | None,
    fts: Fts5Reference,
    rconn: sqlite3.Connection | None,
    refman: RefmanSide | None,
    queries: dict[str, list[list[str]]],
    tag_sample: list[str],
    log: Callable[[str], None],
) -> dict:
    """The list pane, the counts and the tag pane on each side (the anchor's operations, plus
    refman's counterparts where refman has one)."""
    timer = Timer(cfg.n, log)
    z, f, r = zconn, rconn, refman

    def sql(conn: sqlite3.Connection | None, text: str) -> Callable[[], object] | None:
        return (lambda: conn.execute(text).fetchall()) if conn else None

    timer.op(
        "list_all_sorted", {"zotero": sql(z, zshape.list_sql()), "fts5": sql(f, fts.list_sql())}
    )
    timer.op("list_all_sorted_cached_col", {"fts5": sql(f, fts.list_cached_sql())})
    timer.op(
        "list_sorted_ids_only",
        {
            "fts5": sql(f, "SELECT id FROM papers ORDER BY title COLLATE NOCASE"),
            "refman": r.sorted_ids if r else None,
        },
    )
    # refman: the window's first page, one SQL window (papers(query, 0, 100))
    timer.op(
        "list_first_page_100",
        {
            "zotero": sql(z, zshape.list_sql(100)),
            "fts5": sql(f, fts.list_sql(100)),
            "refman": r.list_first_page if r else None,
        },
    )
    timer.op("list_page_100_at_offset_n/2", {"fts5": sql(f, fts.list_cached_sql(100, cfg.n // 2))})
    timer.op(
        "count_items",
        {
            "zotero": sql(
                z,
                f"SELECT COUNT(*) FROM items WHERE itemTypeID NOT IN ({IT_NOTE},{IT_ATTACHMENT},{IT_ANNOTATION})",
            ),
            "fts5": sql(f, "SELECT COUNT(*) FROM papers"),
        },
    )
    timer.op("section_counts", {"refman": r.section_counts if r else None})
    timer.op(
        "startup_bulk_load_all",
        {"zotero": partial(zshape.startup_bulk_load, z) if z else None},
        reps=3,
    )
    timer.op(
        "library_view_search", {"zotero": partial(zshape.view_search, z) if z else None}, reps=3
    )
    if z:
        view_ids = zshape.view_search(z)
        timer.op("tag_selector_distinct", {"zotero": partial(zshape.tag_selector, z, view_ids)})
    timer.op(
        "tag_counts",
        {
            "zotero": partial(zshape.tag_counts, z) if z else None,
            "fts5": partial(fts.tag_counts, f) if f else None,
            "refman": r.tag_counts if r else None,
        },
    )
    # tag filter (click one tag): 30 tags drawn from assignments, so popular tags come up more
    timer.per_item(
        "tag_filter",
        tag_sample,
        {
            "zotero": (lambda t: zshape.view_search(z, tag=t)) if z else None,
            "fts5": partial(fts.tag_filter, f) if f else None,
            "refman": r.tag_filter if r else None,
        },
    )
    timer.per_item(
        "tag_filter_count+first_page",
        tag_sample,
        {
            "fts5": partial(fts.tag_filter_page, f) if f else None,
            "refman": r.tag_filter_page if r else None,
        },
    )
    # tag pane refresh after a search (Zotero does this on each search while the tag selector is
    # shown): Zotero = search IDs -> temp table -> distinct tags; reference = tag counts of matches
    one_word = queries["1w"]
    zids = {" ".join(q): zshape.view_search(z, q, "fields") for q in one_word} if z else {}
    timer.per_item(
        "tag_pane_after_search",
        one_word,
        {
            "zotero": (lambda q: zshape.tag_selector(z, zids[" ".join(q)])) if z else None,
            "fts5": (lambda q: fts.tag_counts_in_results(f, q, "fields")) if f else None,
        },
    )
    ops = timer.ops
    # memory a list model would hold if it kept every row of the sorted list as Python tuples
    if f:
        mb, rows = python_bytes_of(lambda: f.execute(fts.list_sql()).fetchall())
        ops["list_all_python_objects_mb"] = {"fts5": mb, "rows": len(rows)}  # type: ignore[arg-type]
        del rows
    return ops


# --------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------

MODE_LABEL = {"tcy": "Title/Creator/Year", "fields": "All Fields & Tags"}


def fmt_ms(x: float) -> str:
    return f"{x:.0f}" if x >= 100 else (f"{x:.1f}" if x >= 1 else f"{x:.2f}")


def _med(e: dict | None, key: str = "median_ms") -> str:
    return fmt_ms(e[key]) if e else "-"


def _ratio(a: dict | None, b: dict | None) -> str:
    """a / b of two medians, as "12x" or "0.45x"."""
    if not a or not b:
        return "-"
    x = a["median_ms"] / max(b["median_ms"], 1e-6)
    return f"{x:.0f}x" if x >= 10 else f"{x:.2f}x" if x < 1 else f"{x:.1f}x"


def _three(z: dict | None, f: dict | None, r: dict | None) -> str:
    """Three sides (median, p95) and the ratios refman / FTS5 and Zotero / refman."""
    return (
        f"{_med(z):>9s} {_med(z, 'p95_ms'):>7s} {_med(f):>9s} {_med(f, 'p95_ms'):>7s} "
        f"{_med(r):>9s} {_med(r, 'p95_ms'):>7s} {_ratio(r, f):>8s} {_ratio(z, r):>8s}"
    )


THREE_HEAD = (
    f"{'zotero':>9s} {'p95':>7s} {'fts5':>9s} {'p95':>7s} {'refman':>9s} {'p95':>7s} "
    f"{'r/fts5':>8s} {'z/r':>8s}"
)


def _build_lines(b: dict) -> list[str]:
    parts = []
    if "zotero" in b:
        zb = b["zotero"]
        parts.append(
            f"  zotero-shape {zb['seconds']:.1f}s ({zb['records_per_s']:,.0f} rec/s, "
            f"{zb['file_mb']:.0f} MB, {zb['items_rows']:,} item rows)"
        )
    if "fts5" in b:
        rb = b["fts5"]
        parts.append(
            f"  fts5 floor   normalized {rb['table_insert_s']:.1f}s ({rb['table_records_per_s']:,.0f} rec/s) "
            f"+ FTS5 {rb['fts_build_s']:.1f}s = {rb['file_mb']:.0f} MB"
        )
    if "refman" in b:
        mb = b["refman"]
        parts.append(
            f"  refman       import_pages {mb['seconds']:.1f}s ({mb['records_per_s']:,.0f} rec/s; "
            f"{mb['papers']:,} papers, {mb['tags_rows']:,} tags, {mb['notes']:,} notes, {mb['file_mb']:.0f} MB)"
        )
    return ["build:", *parts] if parts else []


def render_one(r: dict) -> list[str]:
    out = [
        f"\n=== N = {r['n']:,} papers  (shape {r['variant']}; sides {', '.join(r['config']['sides'])}; "
        f"medians/p95 over {r['config']['queries']} queries; ms) ==="
    ]
    out += _build_lines(r.get("build", {}))
    out.append(
        "\nsearch, all matches (zotero: Zotero's SQL, all ids; fts5: MATCH, all ids; refman: count(query))"
    )
    out.append(f"{'mode':18s} {'query':7s} {THREE_HEAD} {'hits z/f/r':>20s}")
    for s in r["search"]:
        hits = "/".join(
            f"{s[k + '_hits_median']:.0f}" if k in s else "-" for k in ("zotero", "fts5", "refman")
        )
        out.append(
            f"{MODE_LABEL[s['mode']]:18s} {s['queries']:7s} "
            f"{_three(s.get('zotero'), s.get('fts5'), s.get('refman'))} {hits:>20s}"
        )
    out.append(
        "\nsearch, count + first page of 100 (zotero: ids only, as above; fts5: count + 100 rows by "
        "title; refman: count + papers(query, 0, 100) in list order; rel = the same by relevance)"
    )
    out.append(f"{'mode':18s} {'query':7s} {THREE_HEAD} {'rel':>9s} {'p95':>7s}")
    for s in r["search"]:
        rel = s.get("refman_page_relevance")
        out.append(
            f"{MODE_LABEL[s['mode']]:18s} {s['queries']:7s} "
            f"{_three(s.get('zotero'), s.get('fts5_page'), s.get('refman_page'))} "
            f"{_med(rel):>9s} {_med(rel, 'p95_ms'):>7s}"
        )
    out.append(f"\n{'operation':34s} {THREE_HEAD}")
    for name, e in r["ops"].items():
        if name.endswith("_mb") or not e:
            continue
        out.append(f"{name:34s} {_three(e.get('zotero'), e.get('fts5'), e.get('refman'))}")
    mem = r["ops"].get("list_all_python_objects_mb")
    if mem:
        out.append(
            f"python objects for all {mem['rows']:,} list rows as tuples: {mem['fts5']:.1f} MB"
        )
    return out


def render(results: list[dict], machine: dict) -> str:
    out = [
        f"machine: {machine['cpu']}; {machine['cpus']} cores; Python {machine['python']}; "
        f"SQLite {machine['sqlite']}; {machine['platform']}",
        *([f"refman code: {machine['refman_code']}"] if "refman_code" in machine else []),
        "ratios: r/fts5 = refman / FTS5 floor, z/r = Zotero shape / refman (of the medians)",
    ]
    for r in results:
        out += render_one(r)
    return "\n".join(out)


def machine_info() -> dict:
    return {
        "python": sys.version.split()[0],
        "sqlite": sqlite3.sqlite_version,
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "cpu": next(
            (
                ln.split(":", 1)[1].strip()
                for ln in open("/proc/cpuinfo")
                if ln.startswith("model name")
            ),
            platform.processor(),
        )
        if os.path.exists("/proc/cpuinfo")
        else platform.processor(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--n", type=int, nargs="+", default=[10000], help="library sizes (papers)")
    ap.add_argument("--queries", type=int, default=30, help="queries per query set")
    ap.add_argument("--reps", type=int, default=1, help="runs per query (min is kept)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument(
        "--cache-mb",
        type=int,
        default=8,
        help="SQLite page cache per connection of the zotero and fts5 sides (Zotero: 8); "
        "refman keeps its own setting (64 MB)",
    )
    ap.add_argument(
        "--note-frac", type=float, default=0.1, help="share of papers with a child note"
    )
    ap.add_argument(
        "--attach-frac", type=float, default=0.0, help="share of papers with a PDF attachment item"
    )
    ap.add_argument(
        "--trash-frac", type=float, default=0.0, help="share of papers in Zotero's trash"
    )
    ap.add_argument(
        "--variant",
        choices=["z9", "z10"],
        default="z9",
        help="z9: Zotero 7-9 LIKE on raw columns; z10: Zotero 10 normalized shadow columns",
    )
    ap.add_argument(
        "--workdir",
        default=None,
        help="where to put the .sqlite files (default: temp dir, deleted)",
    )
    ap.add_argument("--reuse", action="store_true", help="reuse databases already in --workdir")
    ap.add_argument(
        "--sides",
        type=parse_sides,
        default=SIDES,
        metavar="SIDES",
        help="which databases to build and time: all (default), both (zotero,fts5) or a comma "
        "list of zotero, fts5, refman (zotero is slow at 1M papers)",
    )
    ap.add_argument(
        "--refman-chunk", type=int, default=20_000, help="records per refman import_pages call"
    )
    ap.add_argument(
        "--json",
        nargs="?",
        const="-",
        default=None,
        metavar="PATH",
        help="write results as JSON to PATH (or to stdout instead of the table if no PATH)",
    )
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)

    workdir = args.workdir or tempfile.mkdtemp(prefix="zqsbench_")

    def log(s: str) -> None:
        if not args.quiet:
            print(s, file=sys.stderr, flush=True)

    machine = machine_info()
    if "refman" in args.sides:
        machine["refman_code"] = tree_state()
    log(f"machine: {machine}")
    results = []
    try:
        for n in args.n:
            cfg = RunConfig(
                n,
                args.seed,
                args.queries,
                args.reps,
                args.cache_mb,
                args.note_frac,
                args.attach_frac,
                args.trash_frac,
                args.variant,
                workdir,
                args.reuse,
                args.sides,
                args.refman_chunk,
            )
            results.append(run_one(cfg, log))
    finally:
        if args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    doc = {"machine": machine, "results": results}
    if args.json == "-":
        json.dump(doc, sys.stdout, indent=1)
        print()
    else:
        print(render(results, machine))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(doc, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
