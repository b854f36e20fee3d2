"""Greek letters as the search reads them: spelled out in Latin letters (α as "alpha", NF-κB
as "NF-kappaB", Δ as "Delta"), as PubMed indexes them, so that a title refman keeps as the
text its LaTeX prints (``$\\alpha$-synuclein`` → "α-synuclein") is found by "alpha" as by
"α", and the ASCII spelling of an older record ("alpha-synuclein") by "α".

A letter is spelled where it stands, with no space around it: a Greek word stays one word
(its letters' names side by side), found by the same word typed in Greek. Accents go with
the letter (ά is "alpha"), as the search drops accents anyway.
"""

from __future__ import annotations

import re
import unicodedata

#: The names of the Greek letters (lower case; final sigma as sigma).
GREEK_NAMES = {
    "α": "alpha",
    "β": "beta",
    "γ": "gamma",
    "δ": "delta",
    "ε": "epsilon",
    "ζ": "zeta",
    "η": "eta",
    "θ": "theta",
    "ι": "iota",
    "κ": "kappa",
    "λ": "lambda",
    "μ": "mu",
    "ν": "nu",
    "ξ": "xi",
    "ο": "omicron",
    "π": "pi",
    "ρ": "rho",
    "σ": "sigma",
    "ς": "sigma",
    "τ": "tau",
    "υ": "upsilon",
    "φ": "phi",
    "χ": "chi",
    "ψ": "psi",
    "ω": "omega",
}
#: Each letter in both cases, with its name (a capital's capitalised: Δ → "Delta").
SPELLED = {
    **GREEK_NAMES,
    **{letter.upper(): name.capitalize() for letter, name in GREEK_NAMES.items() if letter != "ς"},
}
#: Greek letters, with or without accents (Greek and Coptic, Greek Extended).
_GREEK = re.compile("[\u0370-\u03ff\u1f00-\u1fff]")


def _spelled(match: re.Match[str]) -> str:
    letter = match.group()
    return SPELLED.get(unicodedata.normalize("NFD", letter)[0], letter)


def spell_greek(text: str) -> str:
    """``text`` with its Greek letters spelled out (``"α-synuclein"`` → ``"alpha-synuclein"``;
    a letter without a name, such as a Coptic one, as it is).

    Args:
        text: Any text.

    Returns:
        The text spelled; text without Greek letters unchanged, at once.
    """
    if text.isascii() or _GREEK.search(text) is None:
        return text
    return _GREEK.sub(_spelled, text)
