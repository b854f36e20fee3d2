"""Related papers: the papers of the library that share the most distinctive words of one
paper's title and abstract.

A paper's words are weighed by how often it uses them (a title word counts twice) and by how
rare they are in the library (inverse document frequency, read from the full-text index:
the papers holding a word, up to a limit beyond which a word is too common to tell papers
apart). Its most distinctive words are looked up in the index, and every other paper is
scored by the rarity of the words it shares (a TF-IDF overlap); the best five are related,
each with the words it shares, rarest first ("shares: straggler, pipeline, mfu").

Every step reads the index for a handful of words, so it costs the same at any size of
library: no paper's text but the one shown is read.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, func, literal, select, union_all
from sqlalchemy.orm import Session

from refman.common.text import latex_to_text
from refman.core.context import no_paper
from refman.core.placeholder_abstracts import is_placeholder_abstract
from refman.store.models import Paper
from refman.store.models_upkeep import in_trash
from refman.store.search import SearchIndex
from refman.store.search_terms import plain_words


@dataclass(frozen=True, slots=True)
class RelatedPaper:
    """A paper related to another, and why.

    Attributes:
        id: The related paper.
        title: Its title.
        score: The summed rarity of the words it shares (higher: more related).
        shares: The words it shares, the rarest first.
    """

    id: int
    title: str
    score: float
    shares: tuple[str, ...]


#: How many related papers are found.
RELATED_SHOWN = 5
#: How many of a paper's words are looked up in the index (the most used, longest first).
CANDIDATE_WORDS = 24
#: How many of them score the other papers (the most distinctive).
SCORING_WORDS = 10
#: How many of them another paper must share to be related (one word alone is chance:
#: "large", "model").
MIN_SHARED = 2
#: The fewest papers a word may be in and still be looked up (else 1 in 20 papers).
MIN_COMMON = 10
#: A word as written (letters and digits), to find how the paper writes its words.
_WRITTEN = re.compile(r"[^\W_]+")
#: Words common to most writing, never distinctive.
STOPWORDS = frozenset(
    """a about above across after again against all along also among an and any are around as
    at away be because been before being below between both but by can could did do does
    doing down during each few for from further had has have having here how however i if in
    into is it its itself just many may more most much must new no nor not now of off on
    once one only or other our out over own paper per same show shows shown so some such
    than that the their them then there these they this those through thus to too two under
    until up upon use used uses using very via was we well were what when where which while
    who whom why will with within without would yet you your approach based propose proposed
    present novel results""".split()
)


def _words(title: str, abstract: str) -> tuple[Counter[str], dict[str, str]]:
    """A paper's words and how much each counts (a title word twice), and how each is shown:
    as first written when it has capitals after its first letter ("MFU", "PyTorch"), else
    in lower case (a title's capitals are the title's, not the word's)."""
    counts: Counter[str] = Counter()
    shown: dict[str, str] = {}
    for text, weight in ((title, 2), (abstract, 1)):
        for written in _WRITTEN.findall(text):
            folded = plain_words(written)
            if len(folded) != 1:
                continue
            word = folded[0]
            if len(word) > 2 and not word.isdigit() and word not in STOPWORDS:
                counts[word] += weight
                if word not in shown:
                    shown[word] = written if not written[1:].islower() else word
    return counts, shown


def _frequency(session: Session, ids: Select[Any], cap: int) -> int:
    """How many papers hold a word, counted up to ``cap`` (in the database)."""
    capped = ids.limit(cap).subquery()
    return int(session.execute(select(func.count()).select_from(capped)).scalar_one())


def _best(
    session: Session, weighted: list[tuple[Select[Any], float]], paper_id: int, limit: int
) -> list[tuple[int, float]]:
    """The papers (but ``paper_id``) holding at least :data:`MIN_SHARED` of the words, the
    highest summed weight of the words they hold first, summed in the database."""
    if not weighted:
        return []
    held = union_all(*(ids.add_columns(literal(w).label("w")) for ids, w in weighted)).subquery()
    score = func.sum(held.c.w).label("score")
    stmt = (
        select(held.c.id, score)
        .where(held.c.id != paper_id)
        .group_by(held.c.id)
        .having(func.count() >= MIN_SHARED)
        .order_by(score.desc(), held.c.id.desc())
        .limit(limit)
    )
    return [(int(i), float(w)) for i, w in session.execute(stmt)]


def related_papers(
    session: Session, search: SearchIndex, paper_id: int, limit: int = RELATED_SHOWN
) -> list[RelatedPaper]:
    """The papers (outside the Trash) most related to one, the most related first.

    Raises:
        NotFoundError: The library holds no such paper.
    """
    row = session.execute(select(Paper.title, Paper.abstract).where(Paper.id == paper_id)).first()
    if row is None:
        raise no_paper(paper_id)
    size = int(session.execute(select(func.max(Paper.id))).scalar() or 1)
    # A word in more papers than this tells little apart (in a small library, the rarity
    # weight alone tells: a topic of three papers among ten is still a topic).
    common = max(MIN_COMMON, size // 20)
    # (an abstract that only says there is none is no word of the paper's)
    abstract = "" if is_placeholder_abstract(row.abstract) else latex_to_text(row.abstract)
    counts, shown = _words(row.title, abstract)
    candidates = sorted(counts, key=lambda w: (-counts[w], -len(w), w))[:CANDIDATE_WORDS]
    weight: dict[str, float] = {}
    selects: dict[str, Select[Any]] = {}
    for word in candidates:
        ids = search.word_ids(word)
        held = _frequency(session, ids, common + 1) if ids is not None else 0
        if ids is not None and 1 < held <= common:  # others have it, and not too many
            selects[word] = ids
            weight[word] = math.log(size / held)
    chosen = sorted(weight, key=lambda w: -counts[w] * weight[w])[:SCORING_WORDS]
    ranked = _best(session, [(selects[w], weight[w]) for w in chosen], paper_id, limit * 4)
    found = [
        RelatedPaper(p, title, score, _shared(chosen, weight, shown, title, abstract))
        for (p, score), (title, abstract) in _live(session, ranked)
    ]
    return found[:limit]


def _live(
    session: Session, ranked: list[tuple[int, float]]
) -> list[tuple[tuple[int, float], tuple[str, str]]]:
    """The ranked papers outside the Trash, with their titles and abstracts."""
    rows = session.execute(
        select(Paper.id, Paper.title, Paper.abstract).where(
            Paper.id.in_([p for p, _ in ranked]), in_trash(Paper.id, False)
        )
    ).all()
    texts = {int(r.id): (str(r.title), latex_to_text(r.abstract)) for r in rows}
    return [(item, texts[item[0]]) for item in ranked if item[0] in texts]


def _shared(
    chosen: list[str], weight: dict[str, float], shown: dict[str, str], title: str, abstract: str
) -> tuple[str, ...]:
    """The chosen words another paper holds too, the rarest first, as this paper writes them."""
    theirs = set(plain_words(title)) | set(plain_words(abstract))
    held = sorted((w for w in chosen if w in theirs), key=lambda w: -weight[w])
    return tuple(shown[w] for w in held)
