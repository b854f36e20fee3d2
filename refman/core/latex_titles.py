"""Titles an older refman kept with their LaTeX markup, read as text once (an upgrade to
revision 0032; to 0033 for TeX's dashes and quotes, "1990--2000").

Before that revision a title an author page, a RIS or a CSL-JSON file gave with LaTeX markup
(``{\\"U}ber $\\alpha$-Divergenzen``, as arXiv writes titles) was kept as written: the list
showed the markup, ``title:über`` did not find it and exports escaped it. Such a title is
read as the text it prints (:func:`~refman.importers.titles.title_text`, as an import reads
it now), unless the person edited it, or a BibTeX entry gave it (read as text already: what
markup is left is what the entry wrote as text, ``\\$\\alpha\\$``).
"""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from refman.common.typeset import has_tex_ligature
from refman.core.state_io import load_states, write_mended
from refman.importers.titles import title_text
from refman.store.bulk import chunks, row_stream
from refman.store.models import BatchPaper, Paper
from refman.store.models_upkeep import LibraryTask
from refman.store.search import SearchIndex

__all__ = ["TASK", "mend_latex_titles"]

#: The task revisions 0032 and 0033 leave for the library service.
TASK = "latex_titles"


def mend_latex_titles(session: Session, search: SearchIndex) -> int:
    """Give the papers whose titles hold LaTeX markup the text it prints; how many."""
    if session.get(LibraryTask, TASK) is None:
        return 0
    marked = [
        pid
        for pid, title in row_stream(session, select(Paper.id, Paper.title))
        if ("\\" in title or "$" in title or has_tex_ligature(title)) and title_text(title) != title
    ]
    mended = 0
    for part in chunks(marked):
        from_bib = _from_bibtex(session, part)
        changed = [
            state
            for state in load_states(session, part).values()
            if "title" not in state.user_edited and state.id not in from_bib
        ]
        for state in changed:
            state.title = title_text(state.title)
        if changed:
            write_mended(session, changed, search)
            mended += len(changed)
    session.execute(delete(LibraryTask).where(LibraryTask.task == TASK))
    return mended


def _from_bibtex(session: Session, paper_ids: list[int]) -> set[int]:
    """Those of the papers a BibTeX entry brought (its import kept the entry)."""
    rows = session.execute(
        select(BatchPaper.paper_id, BatchPaper.raw).where(
            BatchPaper.paper_id.in_(paper_ids), BatchPaper.raw.is_not(None)
        )
    )
    return {int(pid) for pid, raw in rows if raw and raw.lstrip().startswith("@")}
