"""Recognisers of people's names and author lists ("Ziheng Jiang, Haibin Lin et al.").

Checks are bounded (length limits and cheap counts before any regular expression) so long
abstract lines are rejected quickly.
"""

from __future__ import annotations

import re

from refman.common.east_asian import east_asian
from refman.importers.records import PersonName

__all__ = [
    "looks_like_name",
    "looks_like_organisation",
    "looks_like_person",
    "name_parts",
    "parse_author_line",
]

_PARTICLES = frozenset(
    "van von der den de del della delle degli dei di da do dos das du la las le los ter ten zu "
    "bin al af y e".split()
)
#: Particles that are words of prose too ("Materiales y Métodos", "Graphs do Work"): part of a
#: name only where a name is expected.
_PROSE_PARTICLES = frozenset("y e do".split())
#: Words of prose that are also people's names (Yang You, Can Xu, Or Litany, Bo An, Minh Do):
#: one of them may be a word of a name of two words or more.
_PROSE_OR_NAME = frozenset("An You Do Can Or No To On".split())
#: Those that end a name alone as well ("Yang You", "Bo An", "Minh Do"; not "Hands On").
_ENDS_A_NAME = frozenset("An You Do".split())
#: Marks after a name for equal contribution or a footnote ("Ziheng Jiang*", "Lin†").
_MARKS = "*∗†‡§¶"
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
# Capitalised function words of titles and prose that are never part of a person's name.
_NOT_NAME_WORDS = frozenset(
    [
        "An",
        "The",
        "Is",
        "Are",
        "Was",
        "Were",
        "Be",
        "Of",
        "For",
        "And",
        "Or",
        "To",
        "In",
        "On",
        "At",
        "By",
        "With",
        "From",
        "Into",
        "Via",
        "Using",
        "Towards",
        "Toward",
        "Beyond",
        "Through",
        "Over",
        "Under",
        "All",
        "You",
        "We",
        "Our",
        "Your",
        "Their",
        "This",
        "That",
        "These",
        "Those",
        "It",
        "Its",
        "Not",
        "No",
        "Yes",
        "Do",
        "Does",
        "Can",
        "Should",
        "Need",
        "Needs",
        "How",
        "Why",
        "What",
        "When",
        "Where",
        "Which",
        "Who",
        "Introduction",
        "Abstract",
        "Conclusion",
        "Conclusions",
        "Results",
        "Methods",
        "Background",
        "Keywords",
        "Summary",
        # Headings of an abstract's parts and of pages ("Significance Statement", "Authors").
        "Significance",
        "Statement",
        "Highlights",
        "Points",
        "Broader",
        "Ethics",
        "Impact",
        "Acknowledgments",
        "Acknowledgements",
        "Availability",
        "Supplementary",
        "Motivation",
        "Limitations",
        "Discussion",
        "Objective",
        "Objectives",
        "Purpose",
        "Findings",
        "Overview",
        "Project",
        "Contributions",
        "Authors",
        "Publications",
        "Design",
        "Registration",
        "Outcomes",
        "Measures",
        "Terms",
        "Repository",
        "GitHub",
        "Demo",
        "Video",
        # A CV's heading ("Curriculum Vitae", "Selected Publications").
        "Curriculum",
        "Vitae",
        "Selected",
        # A reference list's heading ("Works Cited", "Literature Cited", "Reference List").
        "Works",
        "Cited",
        "Literature",
        "Reference",
        "References",
        "Bibliography",
    ]
)
_NAME_CHARS = re.compile(r"[^\W\d_]+(?:[-'’.][^\W\d_]*)*\.?")
_MAX_NAME = 80


def _name_token_ok(token: str) -> bool:
    """Return True if ``token`` can be one word of a person's name."""
    first = token[0]
    if not first.isalpha():
        return False
    if first.islower():
        if token.startswith(("al-", "el-")):  # al-Sayed
            return len(token) > 3 and token[3].isupper() and _name_token_ok(token[3:])
        return token in _PARTICLES or (token.startswith(("d'", "d’")) and len(token) > 2)
    if token in _NOT_NAME_WORDS:
        return False
    if _NAME_CHARS.fullmatch(token) is None:
        return False
    return not (token.endswith(".") and len(token) > 4 and "." not in token[:-1])


def _is_caseless(token: str) -> bool:
    """Return True for a token in a script without letter case (e.g. Chinese, Japanese)."""
    first = token[0]
    return first.isalpha() and not first.isupper() and not first.islower()


def _words_ok(tokens: list[str], prose: bool) -> bool:
    """Every word can be a word of a name (see :func:`looks_like_name`)."""
    # Alone, such a word ends a name ("Yang You", "Minh Do"); prose starts with it ("To Appear").
    short, last = 2 <= len(tokens) <= 3, len(tokens) - 1
    return all(
        (_name_token_ok(t) and (prose or t not in _PROSE_PARTICLES))
        or (short and (t in _PROSE_OR_NAME if prose else i == last and t in _ENDS_A_NAME))
        for i, t in enumerate(tokens)
    )


def looks_like_name(text: str, *, single_word: bool = False, prose: bool = False) -> bool:
    """Return True if ``text`` reads like one person's name ("Zoë Müller", "李明").

    Args:
        text: A stripped candidate.
        single_word: Accept a single capitalised word (a mononym) as well.
        prose: Where a name is expected (a list of names, a page's owner): a name of two or
            three words may hold words of prose that are names too ("Yang You", "An Do"); a
            line such as "To Appear" or "Can Transformers Reason" is no name elsewhere.

    Returns:
        Whether every word looks like part of a name.
    """
    if not text or len(text) > _MAX_NAME:
        return False
    tokens = text.split()
    if len(tokens) > 6:
        return False
    if not _words_ok(tokens, prose) or tokens[0].islower():
        return False
    if len(tokens) == 1:
        return single_word or (_is_caseless(tokens[0]) and len(tokens[0]) >= 2)
    return True


#: Words of organisations' names ("World Health Organization", "ACM Special Interest Group").
_BODY_WORDS = frozenset(
    "organization organisation institute institut committee consortium group association "
    "university universität université society center centre council foundation department "
    "agency laboratory laboratories collaboration team project network board commission "
    "corporation company inc inc. ltd ltd. llc gmbh ministry office bureau service services "
    "school college hospital academy federation alliance union trust initiative program "
    "programme panel investigators working research lab labs systems technologies national "
    "international".split()
)
#: Companies whose research groups sign papers ("Google DeepMind", "Microsoft Research").
_COMPANY_WORDS = frozenset(
    "google deepmind microsoft nvidia openai facebook baidu alibaba tencent huawei anthropic "
    "bytedance".split()
)
_MAX_PERSON_WORDS = 4
_INITIAL = re.compile(r"[^\W\d_]\.?")


def _is_acronym(word: str) -> bool:
    """True for "ACM", "WHO" or Vancouver initials ("MD" in "Fox MD"), never "III"."""
    return len(word) > 1 and word.isupper() and "." not in word and word.casefold() not in _SUFFIXES


def looks_like_person(text: str) -> bool:
    """Return True if a name written without a comma reads as a person's, given names first
    ("C. Li", "M. D. Fox", "Jane Q. Public"), so that :func:`name_parts` may split it.

    Organisations ("World Health Organization", "ACM SIGPLAN"), mononyms, names longer than
    four words (particles aside), names in a script without letter case and the Vancouver
    form ("Fox MD", "Li C": family name first) do not: splitting them would misplace the
    family name.
    """
    words = text.split()
    main = [w for w in words if w not in _PARTICLES and w.casefold() not in _SUFFIXES]
    if not 2 <= len(main) <= _MAX_PERSON_WORDS or not looks_like_name(text, prose=True):
        return False
    if looks_like_organisation(text) or any(_is_caseless(w) or _is_acronym(w) for w in words):
        return False
    return _INITIAL.fullmatch(main[-1]) is None  # "Li C.": the family name comes first


def looks_like_organisation(text: str) -> bool:
    """True for a name of more than one word with a word of organisations' names ("World
    Health Organization", "Google DeepMind", "ATLAS Collaboration"): a name never split
    into given and family names."""
    words = text.split()
    return len(words) > 1 and any(
        w.casefold().strip(".,") in _BODY_WORDS or w.casefold() in _COMPANY_WORDS for w in words
    )


_ET_AL = re.compile(
    r"[\s,;]*\bet\.?\s*al\b\.?$|[\s,;]*\bet\s+alii\.?$|[\s,;]*(?:…|\.\.\.)$", re.IGNORECASE
)
_INITIAL_END = re.compile(r"(?:^|[\s.\-])(?:[^\W\d_]|Jr|Sr)\.$")
_AUTHOR_SPLIT = re.compile(r"\s*(?:[,;]|\s&\s|\sand\s)\s*")
_MAX_AUTHOR_LINE = 3000
_JOINED_ON = re.compile(r"(?:\s+and|\s*&)$")


def _split_et_al(line: str) -> tuple[str, bool] | None:
    """The names part of an author line and whether the list is complete (no "et al."),
    or None when the line ends like a sentence rather than a list of names."""
    tail = line[-16:]
    et_al = _ET_AL.search(tail)
    if et_al is None and line[-1] == "." and _INITIAL_END.search(tail) is None:
        return None
    body = line[: len(line) - len(tail) + et_al.start()] if et_al else line
    return (body, et_al is None) if body else None


def _names(parts: list[str], complete: bool) -> list[str] | None:
    """The parts of an author line as names, or None when one of them is not a name."""
    if len(parts) == 1 and complete and len(parts[0].split()) > 4:
        return None  # a lone "name" of five or more words is more likely a heading
    names: list[str] = []
    for part in parts:
        name = part.removeprefix("and ").strip()
        listed = len(parts) > 1
        if not looks_like_name(name, single_word=listed or not complete, prose=listed):
            return None
        names.append(name)
    return names


_INITIALS = re.compile(r"(?:[^\W\d_]\.[\s-]?)+")


def _family_first(parts: list[str]) -> list[str]:
    """ "Jiang", "Z.", "Lin", "H. J." (a list written family name first) as "Z. Jiang",
    "H. J. Lin"; other lists as they are."""
    if len(parts) < 2 or len(parts) % 2 or not all(map(_INITIALS.fullmatch, parts[1::2])):
        return parts
    if any("." in family for family in parts[::2]):  # "J. Smith", "K. L.": given names first
        return parts
    return [f"{given} {family}" for family, given in zip(parts[::2], parts[1::2], strict=True)]


def _with_suffixes(parts: list[str]) -> list[str]:
    """ "Martin Luther King", "Jr." (a suffix set off by a comma, as people write it) as
    "Martin Luther King Jr.": a suffix alone is no author."""
    joined: list[str] = []
    for part in parts:
        if joined and " " in joined[-1] and part.casefold() in _SUFFIXES:
            joined[-1] = f"{joined[-1]} {part}"
        else:
            joined.append(part)
    return joined


def _author_parts(body: str, complete: bool) -> tuple[list[str], bool]:
    """The names of an author line's list, and whether it is complete."""
    body = _JOINED_ON.sub("", body)  # "Jie Chen, Xin Liu and" goes on on the next line
    pairs = body.split(";")
    if len(pairs) > 1 and all(pair.count(",") == 1 for pair in pairs):  # "Jiang, Ziheng; Lin, H."
        body = ", ".join(" ".join(w.strip() for w in reversed(pair.split(","))) for pair in pairs)
    parts = []
    for part in _AUTHOR_SPLIT.split(body):
        # "Ziheng Jiang*", "Jiang, Z.†", "Lin, H., & Zhong, Y."
        name = part.strip().rstrip(_MARKS).rstrip().removeprefix("& ").removeprefix("and ")
        if name.startswith(("…", "...")):  # "Ziheng Jiang, …, Xin Liu", "… Xin Liu"
            name, complete = name.lstrip("…. "), False
        if name:
            parts.append(name)
    return _family_first(_with_suffixes(parts)), complete


def parse_author_line(line: str) -> tuple[tuple[str, ...], bool] | None:
    """Read an author line such as "Ziheng Jiang, Haibin Lin, Yinmin Zhong et al.".

    Names are separated by commas, semicolons, "and" or "&"; a trailing "et al." marks an
    incomplete list.

    Args:
        line: A stripped line.

    Returns:
        ``(names, complete)``, or None if the line does not look like a list of names.
    """
    if len(line) > _MAX_AUTHOR_LINE or not line[0].isalpha():
        return None
    # Cheap rejection of prose: names have at most a few words between separators.
    separators = line.count(",") + line.count(";") + line.count(" and ") + line.count("&") + 1
    if line.count(" ") > 7 * separators + 2:
        return None
    split = _split_et_al(line)
    if split is None:
        return None
    parts, complete = _author_parts(*split)
    names = _names(parts, complete)
    if not names:
        return None
    multi_word = sum(1 for name in names if " " in name or _is_caseless(name))
    if multi_word * 2 < len(names):
        return None
    return tuple(names), complete


def name_parts(display: str) -> PersonName:
    """The parts of a name written as people write it ("Zhuo Jiang", "Jan van der Berg",
    "Sammy Davis Jr."): the last word is the family name, lower-case words before it are its
    particle, a trailing "Jr."/"III" its suffix, the rest the given names; a Chinese,
    Japanese or Korean name written with a space is family name first ("山田 太郎"). An
    organisation's name (:func:`looks_like_organisation`) is kept whole, as a literal name."""
    words = display.split()
    if not words:
        return PersonName("")
    if len(words) == 2 and all(map(east_asian, words)):
        return PersonName(words[0], words[1])
    if looks_like_organisation(display):
        return PersonName(" ".join(words), literal=True)
    suffix = ""
    if len(words) > 2 and words[-1].casefold() in _SUFFIXES:
        suffix = words.pop()
    family = words.pop()
    particle: list[str] = []
    while words and words[-1].casefold() in _PARTICLES and words[-1][:1].islower():
        particle.insert(0, words.pop())
    return PersonName(family, " ".join(words), " ".join(particle), suffix)
