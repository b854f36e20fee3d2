"""Citation keys read from a bibliography that BibTeX or biber could not read back: a key
holding a space, a parenthesis, a ``%``… is imported as a ``.bib`` export writes it (each such
character a "-"), and the import says so — the key the paper shows is the key its entry has
in every export, so a ``\\cite`` of it finds the paper."""

from __future__ import annotations

import json

from refman.importers.bibtex import parse_bibtex
from refman.importers.csljson import parse_csl_json


def test_a_bibtex_key_biber_cannot_read_is_imported_with_dashes_and_said() -> None:
    page = parse_bibtex(
        "@article{key(with)parens,\n  title = {Parentheses},\n}\n\n"
        "@article{Smith 2020,\n  title = {A space},\n}\n\n"
        "@article{O%27Neil2020,\n  title = {A percent sign},\n}\n\n"
        "@article{O'Neil2021,\n  title = {An apostrophe, which BibTeX and biber take},\n}\n"
    )
    keys = [r.citekey for r in page.records]
    assert keys == ["key-with-parens", "Smith-2020", "O-27Neil2020", "O'Neil2021"]
    assert page.warnings == [
        "The entry ‘key(with)parens’ on line 1: its key ‘key(with)parens’ holds a character "
        "BibTeX or biber does not take in a key; it was imported as ‘key-with-parens’.",
        "The entry ‘Smith 2020’ on line 5: its key ‘Smith 2020’ holds a character BibTeX or "
        "biber does not take in a key; it was imported as ‘Smith-2020’.",
        "The entry ‘O%27Neil2020’ on line 9: its key ‘O%27Neil2020’ holds a character BibTeX "
        "or biber does not take in a key; it was imported as ‘O-27Neil2020’.",
    ]


def test_a_csl_json_citation_key_biber_cannot_read_is_imported_with_dashes() -> None:
    item = {"id": "item1", "type": "book", "title": "A", "citation-key": "Ku(2020)"}
    page = parse_csl_json(json.dumps([item]))
    assert [r.citekey for r in page.records] == ["Ku-2020-"]
    assert page.warnings == [
        "The item ‘item1’: its key ‘Ku(2020)’ holds a character BibTeX or biber does not take "
        "in a key; it was imported as ‘Ku-2020-’."
    ]


def test_an_older_exports_extension_key_reads_as_the_entrys_key() -> None:
    """An export made before keys were read so holds the entry under the key made readable
    and the paper's key in ``x-refman``: the paper gets the entry's key, without a word."""
    page = parse_bibtex(
        "@article{key-with-parens,\n  title = {Parentheses},\n"
        '  x-refman = {{"citekey": "key(with)parens"}},\n}\n'
    )
    assert [r.citekey for r in page.records] == ["key-with-parens"]
    assert page.warnings == []
