"""The CSL-JSON items refman hands to citeproc-py, prepared so that it renders them the way
citeproc-js (the engine of Zotero) does. Private to :mod:`refman.core.citations`.

citeproc-py takes the data more literally than citeproc-js; these are the differences that
can be fixed in the data (the others are listed in tests/fixtures/citations/DIFFERENCES.md):

* only CSL variables are passed (names and dates only those citeproc-py knows), and Zotero's
  ``journalAbbreviation`` is passed as ``container-title-short``, as citeproc-js reads it;
* dates are always ``date-parts`` of whole numbers: a ``raw`` or EDTF date, which citeproc-py
  drops silently or crashes on, is read the way citeproc-js reads the common forms;
* for HTML, the data is escaped (citeproc-py copies it into the markup as it is), except the
  rich-text tags CSL allows in data (``<i>``, ``<b>``, ``<sub>``, ``<sup>``, small caps),
  which citeproc-js renders; for plain text those tags are dropped, as citeproc-js does;
* quotation marks and apostrophes in the data are replaced by private marks
  (:mod:`refman.core._citeproc_quotes`), rendered by depth once citeproc-py is done;
* words citeproc-js never changes the case of are protected with ``<span class="nocase">``:
  words with capitals inside (``arXiv``, ``mRNA``: citeproc-py capitalised them), one-letter
  words and the prepositions citeproc-js keeps lower case in titles ("than", "von", ...);
* a Chinese, Japanese or Korean name (:func:`refman.common.east_asian.east_asian`) is one
  literal name, family name first and nothing between ("山田太郎"), as citeproc-js writes it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping
from typing import Any

from citeproc import DATES, NAMES, NUMBERS, VARIABLES
from citeproc.source.json import CiteProcJSON

from refman.common.east_asian import east_asian
from refman.core._citeproc_quotes import MARKS, Quotes, mark_quotes

__all__ = ["HYPHEN_MARK", "citeproc_source", "particle_joins", "prepare_item"]

#: Variable names of CSL-JSON exports (Zotero) → the CSL names both engines read.
_RENAMED = {"journalAbbreviation": "container-title-short"}
#: Text variables of CSL 1.0.2 that citeproc-py 0.11 does not know: they are passed all the
#: same (styles such as Chicago's test them), added to its references after they are made so
#: that it does not warn. Names and dates it does not know are left out.
_NEWER_TEXT = {
    "archive-collection",
    "citation-key",
    "division",
    "event-title",
    "part",
    "part-number",
    "part-title",
    "printing",
    "printing-number",
    "reviewed-genre",
    "reviewed-title",
    "scale",
    "supplement",
    "supplement-number",
    "volume-title",
    "volume-title-short",
}
_KNOWN = {n.replace("_", "-") for n in VARIABLES} | _NEWER_TEXT | {"shortTitle", "title-short"}
_NAMES = {name.replace("_", "-") for name in NAMES}
_DATES = {name.replace("_", "-") for name in DATES}
#: Variables citeproc-py formats as numbers (``&`` there is its own delimiter).
_NUMBERS = {name.replace("_", "-") for name in NUMBERS} | {"page", "page-first"}
#: The page variables, which citeproc-py splits at "&" (and escapes) itself.
_PAGES = frozenset({"page", "page-first"})
#: Identifiers and links: never re-cased, never re-quoted.
_VERBATIM = {"DOI", "URL", "ISBN", "ISSN", "PMID", "PMCID", "call-number", "language"}
_NAME_PARTS = ("family", "given", "non-dropping-particle", "dropping-particle", "suffix")

#: The rich-text tags of CSL data: citeproc-js renders them (and citeproc-py takes nocase).
_TAG = re.compile(
    r'</?(?:i|b|sub|sup|sc)>|<span\s+style="font-variant:\s*small-caps;?">|</span>'
    r'|(?P<nocase><span\s+class="nocase">)',
    re.IGNORECASE,
)
_NOCASE_OPEN = '<span class="nocase">'
#: Private-use characters standing for the tags of a text while it is worked on.
_TAG_MARK = 0xE100

#: Words citeproc-js leaves lower case in title case (its SKIP_WORDS, single words only).
_SKIP_WORDS = frozenset(
    "about above across afore after against al along alongside amid amidst among amongst "
    "anenst apropos apud around as aside astride at athwart atop barring before behind below "
    "beneath beside besides between beyond but by circa despite down during et except for "
    "forenenst from given in inside into lest like modulo near next notwithstanding of off on "
    "onto out over per plus pro qua sans since than through thru throughout thruout till to "
    "toward towards under underneath until unto up upon versus vs v via vis-à-vis with "
    "within without or yet so and nor a an the de d von van c ca".split()
)
#: The stop words citeproc-py's title case leaves lower case (a subset of the above).
_PY_STOP_WORDS = frozenset(
    "a an and as at but by down for from in into nor of on onto or over so the till to up "
    "via with yet".split()
)
#: Where citeproc-js splits words for title case (besides spaces).
_JS_WORD_BREAK = re.compile(r"[-–—/.,;?!:()\[\]" + MARKS + "]")
#: Stands for "-" in given names while citeproc-py renders them (see :func:`_name`): a
#: private mark, as the non-breaking hyphen is real text (French page ranges: "1‑12").
HYPHEN_MARK = "\ue00d"
_HYPHEN = re.compile(r"-(\w)")
#: What is stripped from a word to find its letters.
_PUNCTUATION = MARKS + "([{}]),;.:?!"
_DATE_TEXT = re.compile(r"^\s*(-?\d{1,4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?")


def _escape(text: str, variable: str) -> str:
    """HTML-escape data (citeproc-py copies data into its markup as it is; it splits a page
    range at "&" and escapes that itself, but not a volume's or an issue's)."""
    if variable in _PAGES:
        return text.replace("<", "&lt;").replace(">", "&gt;")
    return html.escape(text, quote=False)


def _holds_tag(word: str) -> bool:
    return any(_TAG_MARK <= ord(c) < _TAG_MARK + 0x100 for c in word)


def _protected(word: str, previous: str, last: bool) -> bool:
    """Whether citeproc-js would leave the case of a word (not the first) alone where
    citeproc-py would change it."""
    core = word.strip(_PUNCTUATION)
    if not any(c.isalpha() for c in core) or _holds_tag(word):
        return False
    if core[0].islower() and not core.islower():
        return True  # arXiv, mRNA: citeproc-js never capitalises a word with capitals
    if not word.islower() or previous.endswith((":", "?", "!")):
        return False
    py_capitalises = word not in _PY_STOP_WORDS or previous.endswith(".")
    pieces = [p for p in _JS_WORD_BREAK.split(core) if p]
    js_keeps = not last and all(len(p) == 1 or p in _SKIP_WORDS for p in pieces)
    return py_capitalises and js_keeps


def _protect_case(text: str) -> str:
    """Wrap the words of ``text`` whose case citeproc-js would leave alone in nocase spans."""
    words = text.split(" ")
    filled = [at for at, word in enumerate(words) if word]
    for number, at in enumerate(filled):
        word = words[at]
        if number == 0:
            first = word.lstrip(MARKS + "([{")
            if first and first[0].islower() and not first.islower():
                words[at] = word.replace(first, _NOCASE_OPEN + first + "</span>", 1)
            continue
        if _protected(word, words[filled[number - 1]], number == len(filled) - 1):
            core = word.strip(_PUNCTUATION)
            words[at] = word.replace(core, _NOCASE_OPEN + core + "</span>", 1)
    return " ".join(words)


def _text(value: Any, variable: str, html_out: bool, quotes: Quotes, *, recase: bool = True) -> str:
    """A string variable (or name part) prepared for citeproc-py; see the module doc."""
    text = str(value)
    if variable in _VERBATIM:
        return html.escape(text, quote=False) if html_out else text
    tags: list[tuple[str, bool]] = []  # (tag, kept in plain text)
    spans: list[bool] = []  # the open <span>s: nocase or not

    def hold(match: re.Match[str]) -> str:
        tag = match.group(0).lower()
        if match.group("nocase"):
            tag = _NOCASE_OPEN
        if tag.startswith("<span"):
            spans.append(tag == _NOCASE_OPEN)
        nocase = tag == _NOCASE_OPEN or (tag == "</span>" and bool(spans) and spans.pop())
        tags.append((tag, nocase))
        return chr(_TAG_MARK + len(tags) - 1)

    text = mark_quotes(_TAG.sub(hold, text), quotes)
    text = _escape(text, variable) if html_out else text
    if recase and variable not in _NUMBERS - {"number"} and (_NOCASE_OPEN, True) not in tags:
        text = _protect_case(text)
    for number, (tag, nocase) in enumerate(tags):
        text = text.replace(chr(_TAG_MARK + number), tag if html_out or nocase else "")
    return text


def _name(name: Mapping[str, Any], html_out: bool, quotes: Quotes) -> dict[str, str] | None:
    """A name's parts prepared; a hyphen before a lower-case letter in given names ("Min-ji")
    becomes a private mark (taken back after rendering), so that citeproc-py initialises
    the name as citeproc-js does ("M.") instead of "M.-. ji ."."""
    if name.get("literal"):
        return {"literal": _text(name["literal"], "literal", html_out, quotes, recase=False)}
    parts = {
        part: _text(name[part], part, html_out, quotes, recase=False)
        for part in _NAME_PARTS
        if isinstance(name.get(part), str | int) and str(name[part]).strip()
    }
    # citeproc-js writes a Chinese, Japanese or Korean name family name first, given name
    # after, with nothing between and no initials ("山田太郎"; citeproc-py: "山田, . 太郎 .").
    if east_asian(parts.get("family", "")) and east_asian(parts.get("given", "") or "字"):
        return {"literal": parts["family"] + parts.get("given", "")}
    if "given" in parts:
        parts["given"] = _HYPHEN.sub(
            lambda m: (HYPHEN_MARK if m[1].islower() else "-") + m[1], parts["given"]
        )
    return parts if parts.get("family") or parts.get("given") else None


def _int(value: Any) -> int | None:
    text = str(value).strip()
    return int(text) if re.fullmatch(r"-?\d{1,5}", text) else None


def _date_parts(parts: Any) -> list[list[int]]:
    out = []
    for part in parts if isinstance(parts, list) else []:
        numbers = [_int(p) for p in (part if isinstance(part, list) else [])][:3]
        whole = list(_leading(numbers))
        if whole:
            out.append(whole)
    return out[:2]


#: The largest month (21–24 are the seasons of CSL) and day a date part may have.
_LIMITS = (None, 24, 31)


def _leading(numbers: list[int | None]) -> Iterator[int]:
    """The year, month and day up to the first missing or impossible one."""
    for number, limit in zip(numbers, _LIMITS, strict=False):
        if not number or (limit is not None and not 0 < number <= limit):
            return
        yield number


def _parsed_date(text: str) -> list[list[int]]:
    """``2020``, ``2020-05``, ``2020-05-01`` and ranges ``2019/2020`` as date-parts."""
    out = []
    for piece in text.split("/")[:2]:
        match = _DATE_TEXT.match(piece)
        if match:
            out.append(list(_leading([None if g is None else int(g) for g in match.groups()])))
    return [parts for parts in out if parts]


def _date(value: Any) -> dict[str, Any] | None:
    """A date as citeproc-py needs it: whole-number date-parts (or a literal date)."""
    if isinstance(value, str):
        parts = _parsed_date(value)
        return {"date-parts": parts} if parts else None
    if not isinstance(value, Mapping):
        return None
    parts = _date_parts(value.get("date-parts"))
    if not parts and isinstance(value.get("raw"), str):
        parts = _parsed_date(value["raw"])
    date: dict[str, Any] = {"date-parts": parts} if parts else {}
    if parts and value.get("circa"):
        date["circa"] = 1
    if not parts and isinstance(value.get("literal"), str) and value["literal"].strip():
        date["literal"] = value["literal"].strip()
    return date or None


def _value(variable: str, value: Any, html_out: bool, quotes: Quotes) -> Any:
    if variable in _NAMES:
        if not isinstance(value, list | tuple):
            return None
        names = [_name(n, html_out, quotes) for n in value if isinstance(n, Mapping)]
        return [n for n in names if n] or None
    if variable in _DATES:
        return _date(value)
    if isinstance(value, str | int | float) and str(value).strip():
        return _text(value, variable, html_out, quotes)
    return None


def prepare_item(
    item: Mapping[str, Any], key: str, html_out: bool, quotes: Quotes
) -> dict[str, Any]:
    """The item as citeproc-py should get it, under the id ``key``.

    Args:
        item: A CSL-JSON item (as :func:`refman.core.csl.csl_item` makes it).
        key: The id to give it (citeproc-py lower-cases ids; refman gives its own).
        html_out: The output is HTML (the data is escaped).
        quotes: The quotes of the style's locale (the data's own are read as markup).

    Returns:
        A new dict; ``item`` is not changed.
    """
    prepared: dict[str, Any] = {"id": key, "type": str(item.get("type") or "article")}
    for variable, value in item.items():
        variable = _RENAMED.get(variable, variable)
        if variable in ("id", "type") or variable not in _KNOWN or variable in prepared:
            continue
        converted = _value(variable, value, html_out, quotes)
        if converted is not None:
            prepared[variable] = converted
    return prepared


#: The languages whose typography ties a name's particle to the family name with a
#: no-break space ("van\u00a0Leeuwen"), as citeproc-js does.
_TIED_PARTICLES = ("fr", "ru", "cs")


def particle_joins(item: Mapping[str, Any], language: str) -> list[tuple[str, str]]:
    """For an item prepared (:func:`prepare_item`) and rendered in ``language`` ("fr-FR"):
    each "particle family" of its names, with what it is written as in that language
    (none in most languages)."""
    if language.split("-")[0] not in _TIED_PARTICLES:
        return []
    joins = []
    for variable in _NAMES & item.keys():
        for name in item[variable] if isinstance(item[variable], list) else []:
            particle, family = name.get("non-dropping-particle"), name.get("family")
            if particle and family:
                joins.append((f"{particle} {family}", f"{particle}\u00a0{family}"))
    return joins


def citeproc_source(items: list[dict[str, Any]]) -> CiteProcJSON:
    """citeproc-py's bibliography source of prepared items (see :func:`prepare_item`)."""
    known = [{k: v for k, v in item.items() if k not in _NEWER_TEXT} for item in items]
    source = CiteProcJSON(known)
    for item in items:
        reference = source[str(item["id"]).lower()]
        for variable in _NEWER_TEXT & item.keys():
            reference[variable.replace("-", "_")] = source.parse_string(item[variable])
    return source
