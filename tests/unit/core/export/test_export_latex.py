"""Text to LaTeX for .bib fields: whatever the text, BibTeX's brace count stays balanced and a
LaTeX reader gets the same text back."""

from __future__ import annotations

import unicodedata

from hypothesis import assume, given
from hypothesis import strategies as st
from pylatexenc.latex2text import LatexNodes2Text

from refman.core.export.latex import (
    braces_pair,
    fits_as_is,
    latex_text,
    latex_title,
    math_spans,
    protect,
    verbatim,
)
from refman.importers.bib_values import bib_text, resolve
from tests.unit.core.export.bibcheck import decode

#: Letters, LaTeX's special characters, accents, Greek, CJK and punctuation (no "-", "'", "`",
#: "!" or "?": LaTeX turns "--", "''", "!`" into other characters by design).
ALPHABET = 'abcXYZ019 &%$#_{}~^\\<>",.:;()/éüøÅßłÑΩα中'
TEXTS = st.text(alphabet=ALPHABET, max_size=40)
#: Pieces of math as titles hold them.
FORMULAS = st.lists(
    st.sampled_from(
        [
            *("x", "s", "L", "7", " ", "=", "+", "(", ")", "^{2}", "_i", "^-", "α", "é", "\\"),
            *(r"\sqrt{s}", r"\,", r"\mathcal{L}", r"\text{fb}", r"\frac{1}{2}", r"\{x\}"),
        ]
    ),
    min_size=1,
    max_size=8,
).map("".join)


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


def _written(text: str, ascii_only: bool) -> list[str]:
    """The text as LaTeX, and as a title unless it holds math (which a title keeps)."""
    written = [latex_text(text, ascii_only=ascii_only)]
    if not math_spans(text):
        written.append(latex_title(text, ascii_only=ascii_only))
    return written


@given(TEXTS, st.booleans())
def test_any_text_survives_the_trip_through_latex(text: str, ascii_only: bool) -> None:
    assume(_tidy(text))
    for latex in _written(text, ascii_only):
        assert _bibtex_balanced(latex), latex
        assert decode(latex) == text, latex


@given(TEXTS, FORMULAS, TEXTS, st.booleans())
def test_math_in_a_title_goes_out_as_it_is(
    before: str, formula: str, after: str, ascii_only: bool
) -> None:
    text = f"{before} ${formula}$ {after}"
    start = len(before) + 1
    assume(math_spans(text) == [(start, start + len(formula) + 2)])
    latex = latex_title(text, ascii_only=ascii_only)
    assert _bibtex_balanced(latex), latex
    if ascii_only and "中" not in text:
        assert latex.isascii(), latex
    if (formula.isascii() or not ascii_only) and not math_spans(f"{before} x {after}"):
        # braced, and the words around it as they were
        prose = latex_title(f"{before} x {after}", ascii_only=ascii_only)
        assert latex.replace(f" {{${formula}$}} ", " x ", 1) == prose, latex


def test_what_is_math_in_a_title() -> None:
    title = r"$\sqrt{s}=7$ TeV and $\mathcal{L} = 4.6\,\text{fb}^{-1}$"
    assert latex_title(title, ascii_only=True) == (
        r"{$\sqrt{s}=7$} {TeV} and {$\mathcal{L} = 4.6\,\text{fb}^{-1}$}"
    )
    assert (
        latex_title("H$_2$O and $α$", ascii_only=True)
        == r"{H{$_2$}O} and {${\ensuremath{\alpha}}$}"
    )
    assert latex_title("$5 and $10", ascii_only=True) == r"{\$}5 and {\$}10"  # money
    assert latex_title("$x$ costs $5", ascii_only=True) == r"{\$}x{\$} costs {\$}5"  # odd
    assert latex_title("$a%$ $}$", ascii_only=True) == r"{\$}a{\%}{\$} {\$}\textbraceright{}{\$}"


#: pylatexenc's own LaTeX reader, as it comes.
LATEX2TEXT = LatexNodes2Text()


def test_every_latin_extended_a_letter_reads_back_as_itself() -> None:
    wrong = {}
    for char in map(chr, range(0x100, 0x180)):
        for latex in (latex_text(char, ascii_only=True), latex_title(f"{char}x", ascii_only=True)):
            read = LATEX2TEXT.latex_to_text(latex)
            if read not in (char, f"{char}x") or bib_text(latex) != read:
                wrong[f"U+{ord(char):04X} {unicodedata.name(char)}"] = (latex, read)
    assert not wrong
    assert (
        latex_text("Szűcs Győr Ű Ő", ascii_only=True) == r"Sz{\H{u}}cs Gy{\H{o}}r {\H{U}} {\H{O}}"
    )
    assert latex_text("Szu\u030bcs", ascii_only=True) == r"Sz{\H{u}}cs"  # a combining double acute
    assert latex_text("ħ Ħ ŧ Ŧ ŉ ĸ ŀ", ascii_only=True) == "ħ Ħ ŧ Ŧ ŉ ĸ ŀ"  # no LaTeX for them


def test_letters_with_several_accents_are_written_accent_by_accent() -> None:
    wrong = {}
    # Latin Extended Additional (Vietnamese, dots below, ...) and Extended-B.
    for char in (*map(chr, range(0x1E00, 0x1F00)), *map(chr, range(0x180, 0x250))):
        latex = latex_text(char, ascii_only=True)
        if LATEX2TEXT.latex_to_text(latex) != char or bib_text(latex) != char:
            wrong[f"U+{ord(char):04X} {unicodedata.name(char)}"] = latex
    assert not wrong
    assert latex_text("Nguyễn Phạm Thị Đạo", ascii_only=True) == (
        r"Nguy{\~{\^{e}}}n Ph{\d{a}}m Th{\d{i}} {\DJ}{\d{a}}o"
    )
    assert latex_text("ả ơ ư", ascii_only=True) == "ả ơ ư"  # a hook, a horn: no plain LaTeX


def test_symbols_are_written_with_plain_latex() -> None:
    assert latex_text("√ ℒ ℋ 𝒜", ascii_only=True) == (
        r"{\ensuremath{\surd}} {\ensuremath{\mathcal{L}}} {\ensuremath{\mathcal{H}}} "
        r"{\ensuremath{\mathcal{A}}}"
    )
    for char in "√ℒℋ𝒜ℬ𝒵":
        assert LATEX2TEXT.latex_to_text(latex_text(char, ascii_only=True)) == char


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
    for latex in _written(text, ascii_only):
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
