"""Abstracts that only say there is none: "No abstract available.", "Abstract: Not
available", "[No abstract available]", "N/A", "To appear.", "Résumé non disponible", "Kein
Abstract verfügbar", "Sin resumen".

Pages and databases put such a sentence where a paper's abstract would be. It names no
paper: two unrelated papers may carry the same one. So it is no evidence anywhere — never an
exact match key nor a blocking key (:mod:`refman.core.matching`), never compared by the
look-alike checks, never a word that makes papers related — and a merge takes it for no
abstract: a real abstract replaces it, and it fills in none.
The paper keeps it as the source gave it (shown, searched and exported so), as it keeps
every other field a source gives.

The rule: a short text (at most :data:`LONGEST` characters) each of whose words, case and
accents set aside, is one of the few words such sentences are made of (:data:`_WORDS`, in
English, French, German, Spanish, Portuguese, Italian, Dutch, Russian, Chinese, Japanese
and Korean). A text of no word at all ("—", "…") says nothing either. A real abstract,
however short, has words of its own.
"""

from __future__ import annotations

import re
import unicodedata

from refman.common.text import latex_to_text

#: The longest placeholder, as given (the longest of the sentences above, with room to
#: spare); a longer text is an abstract. An upgrade reads only texts this short.
LONGEST = 160

#: Words and letters, once case and accents are set aside.
_WORD = re.compile(r"[^\W_]+")


def _folded_words(text: str) -> list[str]:
    """The words of a text, case-folded and without accents ("Résumé" → "resume")."""
    decomposed = unicodedata.normalize("NFKD", latex_to_text(text).casefold())
    return _WORD.findall("".join(c for c in decomposed if not unicodedata.combining(c)))


#: What placeholders are made of: words for "abstract", "none", "not available", "to
#: appear", and the small words around them ("This article has no abstract", "Il n'y a pas
#: de résumé pour cet article"). None of them says what a paper is about.
_WORDS = frozenset(
    _folded_words(
        """
        abstract abstracts summary summaries no not none nil null n a na an the this that
        is are be has have does do there here for of to at in yet currently time moment
        available unavailable provided given supplied included missing empty pending
        forthcoming appear appears coming soon tba tbd tbc see please full text pdf online
        publisher s website version item article paper record entry chapter publication work
        résumé résumés non disponible disponibles indisponible pas de d aucun aucune il y ce
        cet cette pour est
        kein keine keinen nicht verfügbar vorhanden zusammenfassung kurzfassung liegt vor
        für diesen dieses diese artikel beitrag ist es gibt
        sin resumen resúmenes hay este esta artículo para el la
        resumo sem não disponível indisponível artigo o
        riassunto sommario disponibile nessun nessuno questo articolo per
        geen samenvatting niet beschikbaar voor dit
        аннотация реферат резюме нет не отсутствует доступна недоступна доступен
        暂无摘要 无摘要 没有摘要 摘要暂缺 摘要 暂无 无 抄録なし 要旨なし 초록 요약 없음
        """
    )
)


def is_placeholder_abstract(text: str) -> bool:
    """True when an abstract only says that there is none (see the module): it names no
    paper. An empty abstract is none, not a placeholder.

    Args:
        text: An abstract, as given or normalized for matching.

    Returns:
        Whether it is a placeholder.
    """
    if not text or len(text) > LONGEST:
        return False  # (a real abstract is longer: no work for most)
    return all(word in _WORDS for word in _folded_words(text))
