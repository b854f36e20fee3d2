"""Merging what an import brings into a paper, as pure functions over in-memory state.

The rules: a real title replaces a provisional one; a longer author list replaces a shorter
one, and a complete list an "et al." one naming as many; a missing year, venue, abstract
or subject is filled in (an abstract that only says there is none counts as missing), and an
abstract cut short is completed by the whole one;
attributions accumulate. A field the user edited by hand is never overwritten.
"""

from __future__ import annotations

from collections.abc import Sequence

from refman.common.editor_line import editor_line
from refman.common.identifiers import identifiers_in_link, is_arxiv_doi
from refman.common.text import person_key, plural, sort_name
from refman.core.citekeys import folded
from refman.core.matching import continues, identifiers
from refman.core.paper_state import BIB_FIELDS, PaperState
from refman.core.placeholder_abstracts import is_placeholder_abstract
from refman.core.rules import tag_key
from refman.importers.bib_common import bib_key
from refman.importers.records import ParsedRecord

#: What a merge "adds" when a real title replaces a suggested one (an import's report counts it).
TITLE_ADDED = "a title"


def new_state(
    paper_id: int,
    record: ParsedRecord,
    owner_key: str | None,
    author_keys: list[str],
    *,
    title: str | None = None,
) -> PaperState:
    """The state of a paper created from a record.

    Args:
        paper_id: The id the new paper gets.
        record: The record.
        owner_key: Person key of the page owner (attribution), if any.
        author_keys: Person keys of the record's authors, in order.
        title: A title the user typed for a record without one; it replaces the suggestion
            and counts as the user's.
    """
    user_title = bool(title and title.strip())
    return PaperState(
        id=paper_id,
        title=title.strip() if title and user_title else record.title,
        title_provisional=record.title_provisional and not user_title,
        abstract=record.abstract,
        year=record.year,
        venue=record.venue,
        authors=list(author_keys),
        authors_complete=record.authors_complete,
        attributions=list(dict.fromkeys(key for key, _ in _attributions(record, owner_key))),
        subjects=list(dict.fromkeys(record.subjects)),
        tags=[],
        user_edited={"title"} if user_title else set(),
        type=record.type,
        citekey=record.citekey,
        extra=dict(record.extra),
        aliases=list(record.aliases),
        **{name: getattr(record, name) for name in BIB_FIELDS},
    )


def another_work(state: PaperState, record: ParsedRecord) -> bool:
    """True when a record's DOI or arXiv id is not the paper's (see
    :meth:`~refman.core.matching.MatchKeys.conflicts`): never merged into it, however alike
    (an earlier record of the same import may have given the paper its DOI)."""
    theirs = identifiers(record.doi, record.arxiv_id)
    return theirs.conflicts(identifiers(state.doi, state.arxiv_id))


def merge_into(
    state: PaperState,
    record: ParsedRecord,
    owner_key: str | None,
    owner_name: str | None,
    author_keys: list[str],
) -> list[str]:
    """Merge a record into a paper's state, in place.

    Returns:
        Plain phrases of what the merge added, e.g. ``["a title", "attribution to Liang
        Xiang", "3 authors"]``; empty when the record brought nothing new.
    """
    adds: list[str] = []
    if (
        state.title_provisional
        and not record.title_provisional
        and "title" not in state.user_edited
    ):
        state.title = record.title
        state.title_provisional = False
        adds.append(TITLE_ADDED)
    for key, name in _attributions(record, owner_key, owner_name):
        if key not in state.attributions:
            state.attributions.append(key)
            adds.append(f"attribution to {name or key}")
    adds.extend(_merge_authors(state, record, author_keys))
    adds.extend(_published_version(state, record))
    adds.extend(_fill_missing(state, record))
    adds.extend(_fill_bibliographic(state, record))
    adds.extend(_citation_keys(state, record))
    new_subjects = [s for s in dict.fromkeys(record.subjects) if s not in state.subjects]
    if new_subjects:
        state.subjects.extend(new_subjects)
        word = "subject" if len(new_subjects) == 1 else "subjects"
        adds.append(f"{word} {', '.join(new_subjects)}")
    return adds


def _attributions(
    record: ParsedRecord, owner_key: str | None, owner_name: str | None = None
) -> list[tuple[str, str | None]]:
    """The person keys (and names) a record attributes its paper to: the page's owner, and
    the people refman's own export named (:attr:`ParsedRecord.attributed_to`)."""
    found = [(owner_key, owner_name)] if owner_key else []
    return found + [(person_key(name), name) for name in record.attributed_to]


def _merge_authors(state: PaperState, record: ParsedRecord, author_keys: list[str]) -> list[str]:
    """The list naming more authors stays, and of two naming as many the complete one: a
    complete list replaces an "et al." one of no more names, a longer list a shorter one. A
    list never loses a name another source gave (a paper added by hand with its first author
    typed keeps the three names and the "et al." a page listed), and the result does not
    depend on the order of the sources."""
    if not author_keys or "authors" in state.user_edited:
        return []
    have = (len(state.authors), state.authors_complete)
    if (len(author_keys), record.authors_complete) <= have:
        return []
    gained = len(author_keys) - len(state.authors)
    state.authors = list(author_keys)
    state.authors_complete = record.authors_complete
    return [plural(gained, "author") if gained > 0 else "the complete author list"]


#: The item types of an unpublished work; a record of another type is its published version.
PREPRINT_TYPES = frozenset({"article", "manuscript"})


def _published_version(state: PaperState, record: ParsedRecord) -> list[str]:
    """A preprint (an arXiv paper, say) merged with its published version takes the
    version's type, its year and, in place of "arXiv", its venue. A record that names no venue, or
    arXiv's, is no published version, whatever its type says (an author page's record
    without a venue is a conference paper only by default)."""
    if (
        state.type not in PREPRINT_TYPES
        or record.type in PREPRINT_TYPES
        or not record.venue
        or record.venue.casefold() == "arxiv"
        or "type" in state.user_edited
    ):
        return []
    state.type = record.type
    adds = [f"the type ({record.type})"]
    adds.extend(_not_the_preprints(state, record))
    if (state.venue or "").casefold() == "arxiv" and "venue" not in state.user_edited:
        state.venue = record.venue
        adds.append("the venue")
    if record.year is not None and record.year != state.year and "year" not in state.user_edited:
        state.year = record.year  # a citation of the published paper gives its year
        adds.append("the year of publication")
    return adds


_FIELD_WORDS = {"doi": "the DOI", "arxiv_id": "the arXiv id", "url": "a link"}
#: Fields of a preprint that are not its published version's: arXiv's note ("arXiv:… [cs]")
#: and number, and the date it was put online (its month printed as the paper's).
_PREPRINT_ONLY = ("note", "number", "issued")


def _not_the_preprints(state: PaperState, record: ParsedRecord) -> list[str]:
    """A preprint that became its published version keeps none of the preprint's own DOI,
    publisher (arXiv), note and date (the published version's when it names them)."""
    adds = []
    if is_arxiv_doi(state.doi) and "doi" not in state.user_edited:
        state.doi = None if is_arxiv_doi(record.doi) else record.doi
        adds.extend(["the DOI of the published version"] if state.doi else [])
    if "arxiv" in (state.publisher or "").casefold() and "publisher" not in state.user_edited:
        state.publisher = record.publisher
    if _arxiv_link(state.url) and "url" not in state.user_edited:  # (and when it was read)
        state.url, state.extra["accessed"] = record.url, record.extra.get("accessed")
        state.extra = {k: v for k, v in state.extra.items() if v is not None}
    for key in _PREPRINT_ONLY:
        if key in record.extra:
            state.extra[key] = record.extra[key]
        else:
            state.extra.pop(key, None)
    return adds


def _from_preprint(state: PaperState, record: ParsedRecord, name: str, value: object) -> bool:
    """True for a field of a preprint record that its published version must not take."""
    if state.type in PREPRINT_TYPES or record.type not in PREPRINT_TYPES:
        return False
    if name == "doi":
        return is_arxiv_doi(str(value))
    if name == "publisher":
        return "arxiv" in str(value).casefold()
    if name in ("url", "accessed"):  # arXiv's page, and when it was read
        return _arxiv_link(record.url)
    return name in _PREPRINT_ONLY


def _arxiv_link(url: str | None) -> bool:
    return bool(url) and identifiers_in_link(url or "")[1] is not None


def _fill_bibliographic(state: PaperState, record: ParsedRecord) -> list[str]:
    """Fill in a missing DOI, arXiv id, link, volume, issue, pages, publisher, and the
    further fields a bibliography gives (never over a field the user edited)."""
    adds = []
    for name in BIB_FIELDS:
        value = getattr(record, name)
        if (
            value
            and not getattr(state, name)
            and name not in state.user_edited
            and not _from_preprint(state, record, name, value)
        ):
            setattr(state, name, value)
            adds.append(_FIELD_WORDS.get(name, f"the {name}"))
    new_extra = {
        k: v
        for k, v in record.extra.items()
        if k not in state.extra
        and not _from_preprint(state, record, k, v)
        and not (k == "status" and record.year is None and state.year is not None)  # (out now)
    }
    if new_extra:
        state.extra.update(new_extra)
        adds.append(plural(len(new_extra), "further field"))
    return adds


def _citation_keys(state: PaperState, record: ParsedRecord) -> list[str]:
    """The keys of a record of the paper become the paper's (its first) or its other keys:
    a ``\\cite`` of any of them still finds it (:mod:`refman.core.citekey_aliases`)."""
    keys = record.cite_keys()
    if keys and not state.citekey and "citekey" not in state.user_edited:
        state.citekey = keys.pop(0)  # a new paper of this import, with no key of its own yet
    own = state.citekey or ""  # (as a .bib export writes it too: an older key's entry)
    have = {folded(k) for k in (own, bib_key(own), *state.aliases)}
    gained = [k for k in dict.fromkeys(keys) if folded(k) not in have]
    state.aliases.extend(gained)
    return [f"{k} as another citation key" for k in gained]


def _fill_missing(state: PaperState, record: ParsedRecord) -> list[str]:
    """Fill in a missing year, venue (with its record's type) or abstract (unless the user
    cleared it by hand), and complete an abstract cut short."""
    adds = []
    if state.year is None and record.year is not None and "year" not in state.user_edited:
        state.year = record.year
        adds.append("the year")
        _out_now(state, record)
    if not state.venue and record.venue and "venue" not in state.user_edited:
        state.venue = record.venue
        adds.append("the venue")
        if state.type != record.type and "type" not in state.user_edited:
            # A paper without a venue had its type by default only (an author page's
            # record without one is a conference paper): the record naming the venue
            # says what it is, whichever came first.
            state.type = record.type
            adds.append(f"the type ({record.type})")
    adds.extend(_fill_abstract(state, record.abstract))
    return adds


def _out_now(state: PaperState, record: ParsedRecord) -> None:
    """A paper that gains its year is out: the status that stood for the year ("in press",
    "forthcoming") goes, unless the record gives one with its year (BibLaTeX's ``pubstate``),
    and a record's without a year never comes to a paper that has one
    (:func:`_fill_bibliographic`)."""
    if "status" in record.extra:
        state.extra["status"] = record.extra["status"]
    else:
        state.extra.pop("status", None)


def _fill_abstract(state: PaperState, abstract: str) -> list[str]:
    """Fill in a missing abstract, or complete one cut short. An abstract that only says there
    is none (:func:`~refman.core.placeholder_abstracts.is_placeholder_abstract`) is missing:
    a real one replaces it, and it fills in nothing."""
    if not abstract or abstract == state.abstract or is_placeholder_abstract(abstract):
        return []
    if not state.abstract or is_placeholder_abstract(state.abstract):
        state.abstract = abstract
        return ["the abstract"]
    return _completed(state, abstract)


def _completed(state: PaperState, abstract: str) -> list[str]:
    """Complete the paper's abstract when it was cut short and ``abstract`` is the whole."""
    if continues(abstract, state.abstract):
        state.abstract = abstract
        return ["the rest of the abstract"]
    return []


def add_tags(state: PaperState, names: list[str]) -> None:
    """Add tags (case-insensitively new ones only) to a paper's state."""
    have = {tag_key(t) for t in state.tags}
    for name in names:
        if tag_key(name) not in have:
            state.tags.append(name)
            have.add(tag_key(name))


def author_line(names: list[str], complete: bool, editors: Sequence[str] = ()) -> str:
    """The list's author column: "First Author", or "First Author et al."; a book that names
    no authors by its editors (:func:`~refman.common.editor_line.editor_line`)."""
    if not names:
        return editor_line(editors)
    if len(names) > 1 or not complete:
        return f"{names[0]} et al."
    return names[0]


def sort_author(names: list[str], editors: Sequence[str] = ()) -> str:
    """Sort key of the first author (:func:`~refman.common.text.sort_name`), or of the first
    editor of a book that names no authors (sorted among the authors)."""
    first = names or editors
    return sort_name(first[0]) if first else ""
