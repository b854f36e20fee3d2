"""Text to LaTeX for .bib fields: whatever the text, BibTeX's brace count stays balanced and a
LaTeX reader gets the same text back."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from refman.core.export.latex import (
    braces_pair,
    fits_as_is,
    latex_text,
    latex_title,
    protect,
    verbatim,
)
from refman.importers.bib_values import bib_text, resolve
from tests.unit.core.export.bibcheck import decode

#: Letters, LaTeX's special characters, accents, Greek, CJK and punctuation (no "-", "'", "`",
#: "!" or "?": LaTeX turns "--", "''", "!`" into other characters by design).
ALPHABET = 'abcXYZ019 &%$#_{}~^\\<>",.:;()/éüøÅßłÑΩα中'
TEXTS = st.text(alphabet=ALPHABET, max_size=40)


def _bibtex_balanced(latex: str) -> bool:
    """BibTeX counts every brace, escaped or not."""
    depth = 0
    for char in latex:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    return depth == 0


def _tidy(text: str) -> bool:
    return text == text.strip() and "  " not in text


@given(TEXTS, st.booleans())
def test_any_text_survives_the_trip_through_latex(text: str, ascii_only: bool) -> None:
    assume(_tidy(text))
    for latex in (
        latex_text(text, ascii_only=ascii_only),
        latex_title(text, ascii_only=ascii_only),
    ):
        assert _bibtex_balanced(latex), latex
        assert decode(latex) == text, latex


@given(st.text(alphabet=ALPHABET.replace("中", ""), max_size=40))
def test_bibtex_text_is_ascii(text: str) -> None:
    assert latex_text(text, ascii_only=True).isascii()
    assert latex_title(text, ascii_only=True).isascii()


def test_examples() -> None:
    assert (
        latex_text("R&D: 50% of $5 #1 a_b", ascii_only=True)
        == r"R{\&}D: 50{\%} of {\$}5 {\#}1 a{\_}b"
    )
    assert latex_text("Müller {x}", ascii_only=True) == r"M{\"u}ller \{x\}"
    assert latex_text("Müller {x", ascii_only=False) == r"Müller \textbraceleft{}x"
    assert latex_text('say "hi" ~ ^ \\', ascii_only=False) == (
        r'say "hi" {\textasciitilde} {\textasciicircum} {\textbackslash}'
    )
    assert latex_title("The DNA of iPhones", ascii_only=True) == "{The} {DNA} of {iPhones}"
    assert latex_title("Études {Now}", ascii_only=True) == r"{{\'E}tudes} {{\{Now\}}}"


def test_protect_keeps_a_leading_command_out_of_bibtex_special_characters() -> None:
    assert protect("DNA") == "{DNA}"
    assert protect(r"\{Now\}") == r"{{\{Now\}}}"


def test_identifiers_are_verbatim_unless_a_brace_is_unpaired() -> None:
    assert verbatim("10.1000/a_b%20{c}") == "10.1000/a_b%20{c}"
    assert verbatim("https://x.org/a}b{") == "https://x.org/a%7Db%7B"
    assert verbatim("https://x.org/{a") == "https://x.org/%7Ba"


@given(TEXTS, st.booleans())
def test_refmans_own_reader_gets_any_text_back(text: str, ascii_only: bool) -> None:
    assume(_tidy(text))
    for latex in (
        latex_text(text, ascii_only=ascii_only),
        latex_title(text, ascii_only=ascii_only),
    ):
        assert bib_text(latex) == text, latex


@given(st.text(alphabet=ALPHABET + "\n@", max_size=40))
def test_what_is_written_as_it_is_reads_back_as_written(text: str) -> None:
    if fits_as_is(text):  # an abstract as refman keeps it
        assert resolve("{" + text + "}", {}, []) == text
    for written in (verbatim(text), latex_text(text, ascii_only=True)):
        assert braces_pair(written)
        assert resolve("{" + written + "}", {}, []) is not None, written


def test_what_cannot_be_written_as_it_is() -> None:
    assert not fits_as_is("a lone { brace")
    assert not fits_as_is("escaped \\} and bare }{ braces")  # pairs for BibTeX, not for readers
    assert not fits_as_is("ends in a backslash \\")  # it would hide the closing brace
    assert not fits_as_is("one\n\n@misc{two,")  # a reader would take it for an entry
    assert fits_as_is("\\textbf{Orca-4} and $x^{2}$ and \\{x\\}")
    assert latex_text("one\n\n@misc{two,", ascii_only=True) == "one\n\n{@}misc\\textbraceleft{}two,"
    assert verbatim("https://x.org/a\\") == "https://x.org/a%5C"
