"""Tests of the text helpers: LaTeX to Unicode, title match keys and person-name keys."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refman.common.text import (
    fold_letters,
    latex_to_text,
    normalize_for_match,
    person_key,
    plural,
)
from refman.common.words import first_sentence


@pytest.mark.parametrize(
    ("latex", "readable"),
    [
        (r"\textbf{T1}", "T1"),
        (r"\emph{x}", "x"),
        (r"speed-up of $1.67$x", "speed-up of 1.67x"),
        (r"density error of 0.01 g/cm$^3$", "density error of 0.01 g/cm³"),
        (r"H$_2$O and CO$_2$", "H₂O and CO₂"),
        (r"a rate of $10^{-3}$ per step", "a rate of 10⁻³ per step"),
        (r"rotated by 90$^\circ$", "rotated by 90°"),
        (r"improves by $10.6\%$ overall", "improves by 10.6% overall"),
        (r"\textbf{B}yte\textbf{D}ance \textbf{A}I", "ByteDance AI"),
        (r"$\alpha$-divergence", "α-divergence"),
        (r"M\"uller and \'Etienne \c{C}elik", "Müller and Étienne Çelik"),
        (r"{\bf bold} words", "bold words"),
        (r"\textbf{nested {braces} inside}", "nested braces inside"),
        (r"$O(n \log n)$ time", "O(n log n) time"),
        (r"\LaTeX{} typesetting", "LaTeX typesetting"),
        (r"Fast \texttt{grep} for genomes", "Fast grep for genomes"),  # (it lost "grep")
        (
            r"\textsf{Sans}, \textup{up}, \textmd{medium} and \mbox{a box}",
            "Sans, up, medium and a box",
        ),
    ],
)
def test_latex_markup_becomes_readable_text(latex: str, readable: str) -> None:
    assert latex_to_text(latex) == readable


@pytest.mark.parametrize(
    "plain",
    [
        "improves by 30% over the baseline and keeps the rest of the line",
        "R&D budgets of <b>large</b> labs",
        "snake_case names, #hashtags and ~10 ms latency",
        "Fig. 1 shows {braces} in prose",
        "",
        "   spaced   out   ",
    ],
)
def test_plain_text_is_left_exactly_as_written(plain: str) -> None:
    assert latex_to_text(plain) == plain


@pytest.mark.parametrize(
    ("latex", "readable"),
    [
        (r"{\noopsort{a}}A Paper", "A Paper"),  # BibTeX's own example defines it so
        (r"\noopsort{1973b}1973", "1973"),
        (r"{\SortNoop{Smith}}de Smith and {\sortnoop{b}}Brown", "de Smith and Brown"),
    ],
)
def test_a_macro_that_only_sorts_prints_nothing(latex: str, readable: str) -> None:
    assert latex_to_text(latex) == readable


@pytest.mark.parametrize(
    ("latex", "readable"),
    [
        # Better BibTeX's escape of $\alpha$ in a field that holds no LaTeX
        (r"\$\textbackslash alpha\$", r"$\alpha$"),
        (r"C:\textbackslash  Users", "C:\\Users"),
        (r"Stra\ss e", "Straße"),
        (r"\v s and \c c", "š and ç"),  # an accent takes the letter after the spaces
        ("ends with \\textbackslash\n  alpha", "ends with \\alpha"),  # and one line break
    ],
)
def test_a_control_word_eats_the_spaces_after_it_as_tex_does(latex: str, readable: str) -> None:
    assert latex_to_text(latex) == readable


def test_what_ends_a_control_word_keeps_the_space_after_it() -> None:
    assert (
        latex_to_text(r"\LaTeX{} typesetting and \LaTeX\ too") == "LaTeX typesetting and LaTeX too"
    )
    assert latex_to_text("a \\ss\n\nSecond paragraph") == "a ß\n\nSecond paragraph"


def test_percent_in_prose_is_not_a_comment_when_latex_is_present() -> None:
    text = r"the \emph{new} cache improves by 30% over LRU and halves misses"
    assert latex_to_text(text) == "the new cache improves by 30% over LRU and halves misses"


def test_ampersand_and_tilde_in_prose_survive_latex_elsewhere() -> None:
    text = r"Q&A with \textbf{bold} claims of ~5 ms"
    assert latex_to_text(text) == "Q&A with bold claims of ~5 ms"


def test_dollar_amounts_are_not_treated_as_math() -> None:
    assert latex_to_text(r"costs $5 and $10 per \emph{run}") == "costs $5 and $10 per run"
    assert latex_to_text("a single $ sign") == "a single $ sign"


@pytest.mark.parametrize(
    ("latex", "readable"),
    [
        (r"Bounds on $f''(x)$ for convex maps", "Bounds on f''(x) for convex maps"),
        (r"$f'(x)$ and $g'''$", "f'(x) and g'''"),
        (r"the second derivative \(u''\) of $u$", "the second derivative u'' of u"),
    ],
)
def test_primes_in_math_stay_primes_not_closing_quotes(latex: str, readable: str) -> None:
    assert latex_to_text(latex) == readable


def test_paragraph_breaks_of_an_abstract_are_kept() -> None:
    text = "First part with $x^2$.\n\nSecond part with \\textbf{bold}."
    assert latex_to_text(text) == "First part with x².\n\nSecond part with bold."


@pytest.mark.parametrize(
    "broken",
    [r"\begin{itemize", "{{{{", r"\href{http://x}{y}", "$$", "\\", r"\textbf{", "$x", r"\\\\"],
)
def test_broken_latex_never_raises(broken: str) -> None:
    assert isinstance(latex_to_text(broken), str)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab \\${}^_%&~#[]()'\"`\n.0123"))))
def test_latex_to_text_never_raises_on_latex_like_noise(text: str) -> None:
    assert isinstance(latex_to_text(text), str)


@settings(max_examples=200, deadline=None)
@given(st.text().filter(lambda s: "\\" not in s and "$" not in s))
def test_text_without_backslash_or_dollar_is_unchanged(text: str) -> None:
    assert latex_to_text(text) == text


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("Attention Is All You Need", "attention is all you need."),
        ("  Attention   Is\tAll You Need ", "Attention Is All You Need!"),
        (r"Technical Report of \textbf{T1}", "Technical report of T1"),
        ("“Quoted” Titles — Dashes", '"quoted" titles - dashes'),
        ("ﬁne-grained ＡＰＩ", "fine-grained API"),
        ("Scaling to 10,000 GPUs?", "scaling to 10,000 gpus"),
    ],
)
def test_titles_that_differ_only_in_form_share_a_match_key(left: str, right: str) -> None:
    assert normalize_for_match(left) == normalize_for_match(right)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("GPT-4 Technical Report", "GPT-5 Technical Report"),
        ("Learning to Rank", "Learning to Rank Fast"),
        ("Is it 1.5?", "Is it 15?"),
    ],
)
def test_different_titles_keep_different_match_keys(left: str, right: str) -> None:
    assert normalize_for_match(left) != normalize_for_match(right)


@given(st.text(st.characters(max_codepoint=0x7F, exclude_characters="\\$"), max_size=60))
@settings(max_examples=300, deadline=None)
def test_an_ascii_text_and_its_wide_twin_share_a_match_key(text: str) -> None:
    # ASCII takes a short way (case alone); the wide forms of its characters (NFKC) must
    # land on the same key. (Without LaTeX: a wide backslash starts no macro.)
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)
    assert normalize_for_match(text) == normalize_for_match(wide)


def test_match_key_is_blank_for_blank_text() -> None:
    assert normalize_for_match("  .  ") == ""


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("Zhuo  Jiang", "zhuo jiang"),
        ("Zoë Müller", "Zoe Muller"),
        ("José Ángel", "jose angel"),
        ("J. R. Smith", "J R Smith"),
        ("Smith, John", "Smith John"),
        (r"M\"uller", "Müller"),
        ("Jørn Østerberg", "Jorn Osterberg"),
        ("Łukasz Dębski", "Lukasz Debski"),
        ("Ægir Þórsson", "AEgir Thorsson"),
        ("Đorđe Đokić", "Dorde Dokic"),
        (r"J{\o}rn", "Jørn"),
    ],
)
def test_spellings_of_the_same_person_share_a_key(left: str, right: str) -> None:
    assert person_key(left) == person_key(right)


def test_different_people_keep_different_keys() -> None:
    assert person_key("Zhuo Jiang") != person_key("Kaihua Jiang")
    assert person_key("李明") == "李明"


def test_a_count_of_thousands_is_grouped_as_the_status_bar_groups_it() -> None:
    assert plural(1, "paper") == "1 paper"
    assert plural(6000, "new paper") == "6,000 new papers"
    assert plural(1_000_000, "person", "people") == "1,000,000 people"


def test_letters_of_their_own_fold_to_the_letters_typed_for_them() -> None:
    assert fold_letters("Østerberg, Łódź, Straße, Æsir, œuvre, Đakovo, Þingvellir") == (
        "Osterberg, Lódź, Strasse, AEsir, oeuvre, Dakovo, THingvellir"
    )
    assert fold_letters("plain ASCII") == "plain ASCII"
    assert fold_letters("Zoë Müller 李明") == "Zoë Müller 李明"  # accents are another matter


@pytest.mark.parametrize(
    ("report", "said"),
    [
        (
            "consuming input failed: server closed the connection unexpectedly\n"
            "\tThis probably means the server terminated abnormally\n"
            "\tbefore or while processing the request.",
            "consuming input failed: server closed the connection unexpectedly",
        ),
        (
            'connection to server at "127.0.0.1", port 5432 failed: FATAL:  database "lab" '
            "does not exist",
            'connection to server at "127.0.0.1", port 5432 failed: FATAL: database "lab" '
            "does not exist",
        ),
        (
            "terminating connection due to administrator command",
            "terminating connection due to administrator command",
        ),
        ("\n  The disk is full. Free some space.", "The disk is full"),
        ("", ""),
    ],
)
def test_a_drivers_report_is_quoted_by_its_first_sentence_on_one_line(
    report: str, said: str
) -> None:
    assert first_sentence(report) == said
