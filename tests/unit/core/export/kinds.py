"""A library that holds every kind of paper and every awkward character, imported through the
service as a bibliography would bring it in; the export tests read their exports back and
compare them with it (the bibtex-program test exports it too)."""

from __future__ import annotations

from typing import Any

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperDetail
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord, PersonName

#: Every character LaTeX treats specially, in a title.
SPECIALS = "& % $ # _ { } ~ ^ \\"

RECORDS = (
    ParsedRecord(
        title="Attention Is Not All You Need: 50% of R&D Costs $5 (C_2H_5#OH) {Revisited} ~ ^ \\",
        title_provisional=False,
        abstract="Costs & 50% of \\$5 for #tags_with_underscores {x} ~ ^ \\textbackslash{} too; "
        "a lone { brace and $x^2$.\n\nSecond paragraph.",
        year=2023,
        venue="arXiv",
        subjects=("cs.LG", "cs.CL"),
        authors=("Jane Doe", "Richard Roe"),
        author_names=(PersonName("Doe", "Jane"), PersonName("Roe", "Richard")),
        authors_complete=False,
        type="article",
        arxiv_id="2306.01234",
        citekey="doe2023attention",
        extra={"issued": {"date-parts": [[2023, 6]]}},
        tags=("to-read", "R&D"),
        notes=("Check section 4 & the 100% claim.", "A second note with {braces} and ~."),
    ),
    ParsedRecord(
        title="MegaScale: Scaling Large Language Model Training to More Than 10,000 GPUs",
        title_provisional=False,
        abstract="We present the design of a production system for training at scale.",
        year=2024,
        venue="21st USENIX Symposium on Networked Systems Design and Implementation (NSDI 24)",
        authors=("Jan van der Berg", "Sammy Davis Jr.", "Ludwig von Neumann-Kessler"),
        author_names=(
            PersonName("Berg", "Jan", particle="van der"),
            PersonName("Davis", "Sammy", suffix="Jr."),
            PersonName("Neumann-Kessler", "Ludwig", particle="von"),
        ),
        authors_complete=True,
        type="paper-conference",
        doi="10.5555/3691825.3691877",
        pages="745-760",
        publisher="USENIX Association",
        citekey="berg2024megascale",
        tags=("systems",),
    ),
    ParsedRecord(
        title="Déjà Vu in Ångström-Scale DNA: Müller's α-Helix and the Øresund Effect — 中文",
        title_provisional=False,
        abstract="Jürgen Müller, José Pérez and Łukasz Żółć measured naïve café crème at 25 °C.",
        year=2020,
        venue="Journal of Computational Biology",
        authors=("Jürgen Müller", "José Pérez", "Łukasz Żółć", "Søren Ørsted"),
        author_names=(
            PersonName("Müller", "Jürgen"),
            PersonName("Pérez", "José"),
            PersonName("Żółć", "Łukasz"),
            PersonName("Ørsted", "Søren"),
        ),
        authors_complete=True,
        type="article-journal",
        doi="10.1089/cmb.2019.0123",
        url="https://example.org/papers/a_b%20c?x=1&y=2#frag",
        volume="27",
        issue="3",
        pages="100–110",
        publisher="Mary Ann Liebert",
        citekey="muller2020deja",
        extra={"issued": {"date-parts": [[2020, 3, 15]]}, "ISSN": "1066-5277"},
        tags=("biology", "Ökologie"),
        notes=("Read again.",),
    ),
    ParsedRecord(
        title="Handbook of Reference Management",
        title_provisional=False,
        abstract="An edited volume on keeping bibliographies tidy.",
        year=2019,
        authors=(),
        authors_complete=False,  # as every reader has it: no author list is a complete one
        type="book",
        publisher="MIT Press",
        citekey="taylor2019handbook",
        extra={
            "editor": [
                {"family": "Taylor", "given": "Richard"},
                {"family": "Nguyen", "given": "Thị Minh"},
            ],
            "ISBN": "978-0-262-03384-8",
            "publisher-place": "Cambridge, MA",
            "edition": "3",
        },
    ),
    ParsedRecord(
        title="Citation Keys in Practice",
        title_provisional=False,
        abstract="A chapter on citation keys.",
        year=2019,
        venue="Handbook of Reference Management",
        authors=("Ada Lovelace",),
        author_names=(PersonName("Lovelace", "Ada"),),
        authors_complete=True,
        type="chapter",
        pages="33-58",
        publisher="MIT Press",
        citekey="lovelace2019citation",
        extra={"editor": [{"family": "Taylor", "given": "Richard"}]},
    ),
    ParsedRecord(
        title="Global Tuberculosis Report 2021",
        title_provisional=False,
        abstract="The annual report on tuberculosis.",
        year=2021,
        authors=("World Health Organization",),
        author_names=(PersonName("World Health Organization", literal=True),),
        authors_complete=True,
        type="report",
        publisher="World Health Organization",
        citekey="who2021global",
        extra={"number": "WHO/UCN/TB/2021.1", "publisher-place": "Geneva"},
    ),
    ParsedRecord(
        title="Learning to Cite: A Thesis",
        title_provisional=False,
        abstract="A doctoral thesis.",
        year=2022,
        authors=("Élodie Côté",),
        author_names=(PersonName("Côté", "Élodie"),),
        authors_complete=True,
        type="thesis",
        publisher="Université de Montréal",
        citekey="cote2022learning",
    ),
    ParsedRecord(
        title="The refman Home Page",
        title_provisional=False,
        abstract="",
        year=2025,
        authors=("Grace Hopper",),
        author_names=(PersonName("Hopper", "Grace"),),
        authors_complete=True,
        type="webpage",
        url="https://example.org/refman_home?page=1&lang=en#top",
        citekey="hopper2025refman",
    ),
    ParsedRecord(
        title="Tidewater: Streaming Joins over Unbounded Sensor Logs",
        title_provisional=False,
        abstract="Sensor networks emit logs faster than batch systems can join them.",
        year=2025,
        venue="ICLR",
        authors=("Zhuo Jiang", "Kaihua Zhang"),
        authors_complete=False,
        type="paper-conference",
        citekey="jiang2025tidewater",
    ),
    ParsedRecord(
        title="Robust LLM Training Infrastructure at ByteDance",
        title_provisional=False,
        abstract="An author page's record: no authors, no arXiv id, just the venue arXiv.",
        year=2025,
        venue="arXiv",
        type="article",
        citekey="xiang2025robust",
    ),
    ParsedRecord(
        title="A lone } closing brace, then an opening { one",
        title_provisional=False,
        abstract="Unpaired } and { braces.",
        year=2021,
        venue="Journal of Odd Characters",
        authors=("Mary Smith",),
        author_names=(PersonName("Smith", "Mary"),),
        authors_complete=True,
        type="article-journal",
        volume="1",
        pages="1-2",
        citekey="smith2021lone",
    ),
)


#: The raw abstract of the first paper: LaTeX with braces of its text, one of them lone.
_LONE_BRACE_ABSTRACT = RECORDS[0].abstract
#: What each format's own fields cannot give back of these papers: refman's extension
#: (``x-refman``, RIS ``C8``, CSL ``custom.refman``) by citation key, notes aside (see
#: :func:`extension_of`).
EXTENSIONS: dict[str, dict[str, dict[str, Any]]] = {
    "bibtex": {
        # braces of the text: written as braces (\{x\}, \textbraceleft{}), which read
        # back as escaped braces, not as refman keeps them; the first subject only is a
        # field (primaryClass)
        "doe2023attention": {"abstract": _LONE_BRACE_ABSTRACT, "subjects": ["cs.LG", "cs.CL"]},
        "cote2022learning": {"extra": {"genre": None}},  # @phdthesis says "PhD thesis"
        "hopper2025refman": {"type": "webpage"},  # a web page is a @misc
        "smith2021lone": {"abstract": "Unpaired } and { braces."},
    },
    "biblatex": {
        "doe2023attention": {"abstract": _LONE_BRACE_ABSTRACT, "subjects": ["cs.LG", "cs.CL"]},
        "who2021global": {"extra": {"genre": None}},  # type = {techreport}, as biblatex asks
        "cote2022learning": {"extra": {"genre": None}},  # type = {phdthesis}
        "smith2021lone": {"abstract": "Unpaired } and { braces."},
    },
    "ris": {
        # the readable abstract is written; no tag for the arXiv categories or "et al."; a
        # title's braces and backslash read back as LaTeX (a RIS or CSL title may hold it)
        "doe2023attention": {
            "title": RECORDS[0].title,
            "abstract": _LONE_BRACE_ABSTRACT,
            "subjects": ["cs.LG", "cs.CL"],
            "authors_complete": False,
        },
        "jiang2025tidewater": {"authors_complete": False},
    },
}
EXTENSIONS["csl-json"] = EXTENSIONS["ris"]


def extension_of(fmt: str, paper: PaperDetail, *, with_notes: bool) -> dict[str, Any]:
    """The extension a format writes for one of these papers: :data:`EXTENSIONS`, plus the
    notes when there are two of them and the format has one field for both (RIS has an
    ``N1`` per note)."""
    out = dict(EXTENSIONS[fmt].get(str(paper.citekey), {}))
    if with_notes and len(paper.notes) > 1 and fmt != "ris":
        out["notes"] = [n.text for n in paper.notes]
    return out


def import_kinds(library: LibraryService) -> list[PaperDetail]:
    """Import :data:`RECORDS` as one bibliography; the papers in record order."""
    page = ParsedPage("", PageFormat.BIBTEX, None, list(RECORDS))
    result = library.import_pages([SourcedPage(page, "kinds.bib")])
    assert len(result.new_ids) == len(RECORDS), "every kind must be a paper of its own"
    by_key = {d.citekey: d for d in library.details(result.new_ids)}
    return [by_key[r.citekey] for r in RECORDS]
