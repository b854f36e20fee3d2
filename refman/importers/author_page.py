"""Read a researcher's author page (pasted text or a saved file) into candidate records.

Three page formats are recognised (see :class:`~refman.importers.records.PageFormat`): the
publication list (venue+year, title, abstract, subjects per record), the author-abstracts
page (author line and abstract per record) and a list of references as a bibliography style
prints them (:mod:`~refman.importers.reference_list`). Anything else raises
:class:`~refman.importers.errors.NotAnAuthorPageError`.
"""

from __future__ import annotations

from dataclasses import replace

from refman.common.identifiers import is_web_address
from refman.common.text import plural
from refman.importers.author_abstracts import parse_author_abstracts
from refman.importers.lines import Lines, split_lines
from refman.importers.list_header import owner_name
from refman.importers.messages import LINK_HINT, not_a_page, web_address
from refman.importers.orcid_works import parse_orcid_works
from refman.importers.publication_list import (
    PublicationList,
    find_header,
    parse_publication_list,
)
from refman.importers.records import PageFormat, ParsedPage
from refman.importers.reference_blocks import has_scholar_rows
from refman.importers.reference_list import parse_reference_list

__all__ = ["parse"]


def _count_warning(claimed: int, found: int) -> str:
    """Return the warning for a page whose stated record count differs from what was found."""
    if found == 0:
        found_text = "none were found"
    else:
        only = "only " if found < claimed else ""
        found_text = f"{only}{found} {'was' if found == 1 else 'were'} found"
    return f"The page says {plural(claimed, 'record')} but {found_text}."


def _publication_page(result: PublicationList) -> ParsedPage:
    """Wrap a parsed publication list as a page, adding the count check."""
    warnings = list(result.warnings)
    if result.claimed is not None and result.claimed != len(result.records):
        warnings.insert(0, _count_warning(result.claimed, len(result.records)))
    return ParsedPage(
        owner=owner_name(result.owner) if result.owner else result.owner,
        format=PageFormat.PUBLICATION_LIST,
        claimed=result.claimed,
        records=result.records,
        warnings=warnings,
    )


def _abstracts_or_references(lines: Lines) -> ParsedPage | None:
    """An author-abstracts page or a list of references; a page with Google Scholar's rows
    is read as references first (its author lines, venue lines and titles would read as an
    author-abstracts page's), any other as abstracts, unless it reads as more references
    than abstracts (a CV whose heading, "Curriculum Vitae", reads as an author line and the
    rest of it as the abstract of one paper)."""
    scholar = has_scholar_rows(lines)
    if scholar and (references := parse_reference_list(lines)) is not None:
        return references
    abstracts = parse_author_abstracts(lines)
    if abstracts is not None:
        references = None if scholar else parse_reference_list(lines)
        if references is not None and len(references.records) > len(abstracts.records):
            return references  # (a CV: its heading "Curriculum Vitae" read as an author line)
        return ParsedPage(
            owner=abstracts.owner,
            format=PageFormat.AUTHOR_ABSTRACTS,
            claimed=None,
            records=abstracts.records,
            warnings=abstracts.warnings,
        )
    return None if scholar else parse_reference_list(lines)


def _parse_lines(lines: Lines) -> ParsedPage:
    """Recognise the page format of ``lines`` and parse it."""
    header = find_header(lines)
    has_header = header.owner_index is not None or header.claimed is not None
    listed = parse_publication_list(lines, header)
    if listed.records and (has_header or any(record.subjects for record in listed.records)):
        return _publication_page(listed)
    found = parse_orcid_works(lines) or _abstracts_or_references(lines)
    if found is not None:
        return replace(found, owner=owner_name(found.owner)) if found.owner else found
    if has_header:
        who = f"the page names {listed.owner}" if listed.owner else "the page has a header"
        raise not_a_page(
            f"{who} but no line looks like the start of a paper (a venue and year such as "
            "“arXiv 2024” followed by a title)"
        )
    if all(is_web_address(line) for line in lines.text):  # (a profile's address pasted)
        raise not_a_page(f"{web_address(lines.text[0])}. {LINK_HINT.removesuffix('.')}")
    raise not_a_page(
        "no line looks like the start of a paper (a venue and year such as “arXiv 2024”, or a "
        "list of authors followed by an abstract)"
    )


def parse(text: str) -> ParsedPage:
    """Parse the text of an author page.

    Args:
        text: The page as copied from a browser or read from a file. Any line endings (LF,
            CRLF, CR), blank-line runs and surrounding spaces are accepted.

    Returns:
        The owner, format, stated count, records and warnings.

    Raises:
        NotAnAuthorPageError: The text is empty or holds no publication records. No other
            exception is raised for any string.
    """
    if not text:
        raise not_a_page("the text is empty")
    lines = split_lines(text)
    if not lines.text:
        raise not_a_page("the text contains only blank lines")
    return _parse_lines(lines)
