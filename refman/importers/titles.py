"""Suggest a provisional title for a record that has only an abstract.

The suggestion is the name the abstract introduces ("we introduce BAMBOO (...)" -> "BAMBOO",
"we propose Balanced Actor Initialization (BAI), a ..." -> "Balanced Actor Initialization
(BAI)"); failing that, the start of the abstract's first sentence.
"""

from __future__ import annotations

import re

from refman.common.text import latex_to_text, squash_spaces
from refman.common.typeset import printed_prose

__all__ = ["PLACEHOLDER_TITLE", "suggest_title", "title_text"]


def title_text(raw: str) -> str:
    """A title as a page, a RIS or a CSL-JSON file gives it, as refman keeps and shows it:
    its LaTeX markup read as the text it prints (``{\\"U}ber $\\alpha$-Divergenzen`` is
    "Über α-Divergenzen", as a BibTeX title and a suggested one are), TeX's dashes and
    quotes as it prints them ("1990--2000" is "1990–2000", "--help" and "C--" stay:
    :func:`~refman.common.typeset.printed_prose`), white space collapsed; prose dollars stay
    (``$5 and $10``)."""
    return squash_spaces(latex_to_text(printed_prose(raw)))


#: Title given to a record whose abstract is empty as well.
PLACEHOLDER_TITLE = "Untitled record"

_MAX_TITLE = 80
_MAX_SENTENCE = 60
_SCAN = 4000  # only the start of an abstract is searched for an introduced name
_WINDOW = 300  # characters read after "we introduce" to find the name
_START = 120  # characters read at the start for "X is a ..."

_VERBS = (
    "present|introduce|propose|develop|describe|release|build|unveil|report|offer|"
    "contribute|design and implement|design"
)
_INTRO = re.compile(
    r"\b(?:(?:we|here we|this (?:paper|work|report|article|study|thesis|letter))\s+"
    r"(?:(?:also|further|first|then|hereby|now|therefore)\s+)?"
    rf"(?:{_VERBS})s?|called|named|dubbed|termed|coined)\s+",
    re.IGNORECASE,
)
_LEADING = re.compile(r"(?:(?:the|a|an|our|new|novel|first)\s+)+", re.IGNORECASE)
_STOP = re.compile(
    r"[,;:!?]|\.(?:\s|$)|\s[–—-]\s|\s(?:which|that|to|for|with|as|in|on|by|is|are|was|were|"
    r"a|an|the|and|from|using|based|where|whose|capable|via|through|into|at|while)\s"
)
_ACRONYM = re.compile(r"[A-Z][A-Za-z0-9\-]{0,11}")
_DISTINCT = re.compile(r"\S*(?:[A-Z]\S*[A-Z0-9]|[0-9])\S*|[A-Z]{2,}\S*")
_IS_A = re.compile(
    r"([^\s,.;:()]+(?:\s+[^\s,.;:()]+){0,5}?)\s+(?:is|are)\s+(?:a|an|the)\s", re.IGNORECASE
)
_APPOSITIVE = re.compile(r"\b([A-Z][\w.\-]*[A-Z0-9][\w.\-]*)\s*,\s+(?:a|an)\s")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“(\[A-Z0-9])")
_PRONOUNS = frozenset({"we", "it", "this", "these", "our", "their", "its", "they", "there"})
_QUOTE_CHARS = "\"'“”‘’«»`"


def shorten(text: str, limit: int) -> str:
    """Cut ``text`` at a word boundary to at most ``limit`` characters, adding "…" if cut."""
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0] if " " in text[:limit] else text[:limit]
    return cut.rstrip(" ,;:.-–—") + "…"


def _acceptable(candidate: str) -> bool:
    """Return True if ``candidate`` reads like the name of a system, model or method."""
    if not candidate:
        return False
    first = candidate[0]
    if not (first.isupper() or first.isdigit() or (first.isalpha() and not first.islower())):
        return False
    words = candidate.split()
    return len(words) <= 10 and words[0].casefold() not in _PRONOUNS


def _clause(raw: str) -> str:
    """Return the start of ``raw`` up to the first , ; : or full stop outside braces and math.

    Cutting before converting LaTeX keeps the (slow) LaTeX parser on a few dozen characters.
    """
    depth = 0
    math = False
    previous = ""
    for index, char in enumerate(raw[:_WINDOW]):
        if previous == "\\":
            previous = ""
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
        elif char == "$":
            math = not math
        elif (
            depth == 0
            and not math
            and char in ",;:.!?"
            and (char != "." or raw[index + 1 : index + 2] in ("", " "))
        ):
            return raw[:index]
        previous = char
    return raw[:_WINDOW]


def _take_name(raw: str) -> str | None:
    """Read the name at the start of ``raw`` (the text after "we introduce", "called", ...)."""
    rest = latex_to_text(_clause(raw)).strip()
    leading = _LEADING.match(rest)
    if leading:
        rest = rest[leading.end() :]
    rest = rest.lstrip(_QUOTE_CHARS)
    stop = _STOP.search(rest)
    end = stop.start() if stop else len(rest)
    paren = rest.find("(", 0, end)
    if paren != -1:
        head = rest[:paren].strip()
        close = rest.find(")", paren)
        inner = rest[paren + 1 : close].strip() if close != -1 else ""
        if " " in head and _ACRONYM.fullmatch(inner) and not _ACRONYM.fullmatch(head):
            candidate = f"{head} ({inner})"
        else:
            candidate = head
    else:
        candidate = rest[:end].strip()
    candidate = candidate.strip(_QUOTE_CHARS + " ")
    if not _acceptable(candidate):
        return None
    return shorten(candidate, _MAX_TITLE)


def _introduced_name(raw: str) -> str | None:
    """Return the first name the text introduces with "we present X", "called X", etc."""
    for match in _INTRO.finditer(raw):
        name = _take_name(raw[match.end() :])
        if name:
            return name
    subject = _IS_A.match(latex_to_text(raw[:_START]))
    if subject and _acceptable(subject.group(1)) and _DISTINCT.search(subject.group(1)):
        return shorten(subject.group(1), _MAX_TITLE)
    appositive = _APPOSITIVE.search(raw)
    if appositive and _DISTINCT.fullmatch(appositive.group(1)):
        return shorten(appositive.group(1).rstrip("."), _MAX_TITLE)
    return None


def _first_sentence(raw: str) -> str:
    """Return the abstract's first sentence, shortened to about 60 characters."""
    sentence = _SENTENCE_END.split(raw[: _MAX_SENTENCE * 2], maxsplit=1)[0]
    sentence = squash_spaces(latex_to_text(sentence))
    if len(sentence) <= _MAX_SENTENCE:
        return sentence.rstrip(".").strip() or sentence
    return shorten(sentence, _MAX_SENTENCE)


def suggest_title(abstract: str) -> str:
    """Suggest a provisional title from an abstract.

    LaTeX markup is converted (only in the short stretches of text that are used, which keeps
    this cheap on long abstracts).

    Args:
        abstract: The abstract as on the page (LaTeX markup allowed).

    Returns:
        A short, non-empty title: the name the abstract introduces, else the start of its first
        sentence, else :data:`PLACEHOLDER_TITLE`.
    """
    raw = squash_spaces(abstract[:_SCAN])
    if not raw:
        return PLACEHOLDER_TITLE
    return _introduced_name(raw) or _first_sentence(raw) or PLACEHOLDER_TITLE
