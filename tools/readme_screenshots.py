"""Render the README's screenshots from a demo library made of the test fixtures.

Run from the repository root (no display needed)::

    .venv/bin/python tools/readme_screenshots.py [OUT_DIR]

It writes ``main-window.png``, ``export-dialog.png``, ``open-shared-library.png``,
``copied-citation.png``, ``person-page.png``, ``people-window.png``, ``import-review.png``,
``reimport-review.png``, ``import-history.png``, ``related-papers.png``,
``everything-search.png``, ``search-help.png``, ``merge-duplicate.png`` and ``selection.png`` into
``resources/screenshots`` (or OUT_DIR). The demo library is a fresh file in a temporary folder:
two bibliographies and two author pages from ``tests/fixtures``, a few tags.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QPoint, Qt  # noqa: E402
from PySide6.QtGui import QFont, QPainter, QPixmap  # noqa: E402
from PySide6.QtWidgets import QApplication, QMenu, QTextEdit, QWidget  # noqa: E402

from refman.core.importing.values import ImportChoices, SourcedPage  # noqa: E402
from refman.core.library import LibraryService  # noqa: E402
from refman.core.operations import ImportPages  # noqa: E402
from refman.core.values import PaperQuery, Section  # noqa: E402
from refman.importers.author_page import parse  # noqa: E402
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord  # noqa: E402
from refman.importers.sources import load_source  # noqa: E402

from refman.ui.actions import ActionId  # noqa: E402
from refman.ui.app import build_window, create_app, wait_for_drawings  # noqa: E402
from refman.ui.citing import export_formats, release_clipboard  # noqa: E402
from refman.ui.export_dialog import ExportDialog  # noqa: E402
from refman.ui.main_window import MainWindow  # noqa: E402
from refman.ui.open_library import OpenLibraryDialog  # noqa: E402
from refman.ui.settings import WindowSettings  # noqa: E402
from refman.ui.window_chrome import LIST_MENU, build_menu  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
SOURCES = [
    FIXTURES / "bib" / "zotero.bib",
    FIXTURES / "bib" / "betterbibtex-bibtex.bib",
    FIXTURES / "pages" / "list_links.html",
    FIXTURES / "pages" / "abstracts_basic.txt",
]


#: A page of another spelling of José Ángel Ortega's name, listing one of his papers.
ORTEGA_AGAIN = """J. Ortega

Priya Natarajan and José Ángel Ortega

Stochastic gradient estimators for discrete latent variables have high variance. We propose \
Gradient Echo Sampling (GES), a variance-reduced estimator that reuses past samples as \
control variates.

On four benchmarks GES matches the accuracy of exact gradients at a tenth of the cost.
"""
#: Priya Natarajan's page: a paper of the library (Ortega's) and two papers new to it.
NATARAJAN = """Priya Natarajan

Priya Natarajan and José Ángel Ortega

Stochastic gradient estimators for discrete latent variables have high variance. We propose \
Gradient Echo Sampling (GES), a variance-reduced estimator that reuses past samples as \
control variates.

On four benchmarks GES matches the accuracy of exact gradients at a tenth of the cost.

Priya Natarajan, Lena Fischer

Relaxed categorical samplers trade bias for variance. We bound the bias of the Gumbel-softmax \
estimator in terms of its temperature and pick the temperature that minimises the error.

Priya Natarajan

Reparameterised gradients for mixtures fail when components collapse. We show how to keep \
the mixture weights apart with a small penalty, and test it on three density estimation tasks.
"""
#: Lena Fischer's publication list, first with two papers, then with three more.
LENA = [
    ("Tidal Sketches: Streaming Joins over Ocean Sensor Logs", "arXiv2024", "cs.DB↗"),
    ("Quiet Progress in Learned Index Structures", "VLDB2024", "cs.DB↗"),
    ("Columnar Storage for Hydrophone Archives", "arXiv2025", "cs.DB↗"),
    ("Watermarks That Survive Reordering", "SIGMOD2025", "cs.DB↗"),
    ("A Cost Model for Tiered Object Stores", "arXiv2026", "cs.DC↗"),
]


def lena_page(count: int) -> str:
    """Lena Fischer's page with her first ``count`` papers."""
    lines = [
        "arXiv subjects",
        "Lena Fischer",
        "Publications and source records attributed to Lena Fischer.",
        f"{count} recordsLinked to original sources",
    ]
    for title, venue, subject in LENA[:count]:
        abstract = f"We study {title.lower()} and measure it on three real workloads."
        lines += [venue, title, abstract, subject]
    return "\n\n".join(lines) + "\n"


def demo_library(path: Path) -> LibraryService:
    """A library of the fixtures, with tags, some papers read and rated."""
    service = LibraryService.open(path)
    service.import_pages([SourcedPage(load_source(p).parse(), p.name) for p in SOURCES])
    service.import_pages([SourcedPage(parse(ORTEGA_AGAIN), "ortega-short.txt")])
    service.import_pages([SourcedPage(parse(lena_page(2)), "lena-fischer.txt")])
    ids = service.paper_ids(PaperQuery())
    service.tag(ids[:5], ["to read"])
    service.tag(ids[3:9], ["thesis"])
    service.mark(ids[1:4], status="read")
    service.mark(ids[4:5], status="reading")
    service.mark(ids[0:1], rating=4)
    service.mark(ids[2:4], rating=5)
    service.save_search("To read this year", "year:2024..", ["to read"])
    service.save_search("Systems papers", "venue:usenix OR venue:arxiv")
    megascale = next(d.id for d in service.details(ids) if d.title.startswith("MegaScale"))
    service.attach(megascale, [demo_pdf(path.parent / "MegaScale - Jiang et al. 2024.pdf")])
    service.index_files()  # its text in the search (the window does it in the background)
    return service


def demo_pdf(path: Path, pages: int = 14) -> Path:
    """A PDF of a few pages (written with reportlab, as the tests write theirs)."""
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(path))
    lines = (
        "Training at the scale of ten thousand GPUs, one slow machine holds up all the others.",
        "Each machine sends a heartbeat every second; a missing heartbeat marks a straggler.",
        "The straggler is taken out of the job and its work is restarted from a checkpoint.",
    )
    for page in range(pages):
        canvas.drawString(72, 760, f"MegaScale, page {page + 1}")
        for n, line in enumerate(lines):
            canvas.drawString(72, 730 - 16 * n, line)
        canvas.showPage()
    canvas.save()
    return path


#: The papers whose citations the screenshot shows (by the start of their titles).
CITED = ("Attention Is All You Need", "MegaScale", "Deep learning for DNA")


def papers_titled(window: MainWindow, starts: tuple[str, ...]) -> list[int]:
    """The ids of the papers whose titles start so, in that order."""
    service = window.controller.service
    details = service.details(service.paper_ids(PaperQuery()))
    return [next(d.id for d in details if d.title.startswith(s)) for s in starts]


def settle(app: QApplication, window: MainWindow) -> None:
    """Let queued work land and the panes repaint."""
    for _ in range(3):
        for _ in range(10):
            app.processEvents()
        window.controller.wait()
    for _ in range(10):
        app.processEvents()


def wait_for_preview(app: QApplication, window: MainWindow) -> None:
    """Let the detail pane draw the first page of the paper's PDF (off the GUI thread)."""
    wait_for_drawings(app, window)
    settle(app, window)


def export_dialog(window: MainWindow, out: Path) -> None:
    """The export dialog as File ▸ Export Selected… opens it."""
    dialog = ExportDialog(
        "The papers tagged “thesis” (6 papers)", export_formats(), "bibtex", False, window
    )
    dialog.show()
    QApplication.processEvents()
    dialog.grab().save(str(out / "export-dialog.png"), "PNG")
    dialog.close()


def open_library_dialog(window: MainWindow, out: Path) -> None:
    """File ▸ Open Library… on its "Shared library (PostgreSQL)" tab, filled in."""
    dialog = OpenLibraryDialog(window)
    dialog.tabs.setCurrentIndex(1)
    dialog.host_edit.setText("db.lab.example.org")
    dialog.database_edit.setText("lab_papers")
    dialog.user_edit.setText("alice")
    dialog.password_edit.setText("correct horse")
    dialog.keyring_box.setChecked(True)
    dialog.show()
    QApplication.processEvents()
    dialog.grab().save(str(out / "open-shared-library.png"), "PNG")
    dialog.close()


def copied_citation(app: QApplication, window: MainWindow, out: Path) -> None:
    """The list's context menu over three selected papers, and what Copy Citation put on the
    clipboard, pasted into a document."""
    table = window.table
    table.select_papers(papers_titled(window, CITED))
    settle(app, window)
    menu: QMenu = build_menu(table, window.actions_by_id, LIST_MENU)
    menu.popup(QPoint(0, 0))
    app.processEvents()
    menu_image = menu.grab()
    menu.close()
    window.actions_by_id[ActionId.COPY_CITATION].trigger()
    settle(app, window)
    data = QApplication.clipboard().mimeData()
    assert data is not None and data.hasHtml(), "Copy Citation put nothing on the clipboard"
    html = data.html()
    document = QTextEdit()
    document.setHtml(html)
    document.setFont(QFont("Serif", 11))
    document.resize(760, 250)
    document.setFrameShape(QTextEdit.Shape.NoFrame)
    document.show()
    app.processEvents()
    doc_image = document.grab()
    width = menu_image.width() + 24 + doc_image.width()
    height = max(menu_image.height(), doc_image.height()) + 24
    canvas = QPixmap(width + 24, height)
    canvas.fill(Qt.GlobalColor.white)
    painter = QPainter(canvas)
    painter.drawPixmap(12, 12, menu_image)
    painter.drawPixmap(menu_image.width() + 36, 12, doc_image)
    painter.end()
    canvas.save(str(out / "copied-citation.png"), "PNG")
    document.close()


def person_page(app: QApplication, window: MainWindow, out: Path) -> None:
    """José Ángel Ortega's page: his papers, pages, co-authors and another spelling."""
    service = window.controller.service
    ortega = next(p.id for p in service.people() if p.name == "José Ángel Ortega")
    window.tag_pane.select_person(ortega)
    settle(app, window)
    window.table.selectRow(0)
    settle(app, window)
    window.grab().save(str(out / "person-page.png"), "PNG")


def people_window(app: QApplication, window: MainWindow, out: Path) -> None:
    """View ▸ People…: everyone, the most papers first, and the spellings of one name."""
    dialog = window.people.open_people()
    dialog.resize(620, 560)
    settle(app, window)
    dialog.grab().save(str(out / "people-window.png"), "PNG")
    dialog.close()


def reimport_review(app: QApplication, window: MainWindow, out: Path) -> None:
    """The review of Lena Fischer's page imported again, with three papers more."""
    from refman.ui.wizard import ImportWizard

    wizard = ImportWizard(window.controller, window)
    wizard.resize(1000, 640)
    wizard.show()
    wizard.add_text(lena_page(5), "lena-fischer.txt")
    wizard.next()
    for _ in range(50):
        settle(app, window)
        if wizard.review_page.model.rowCount():
            break
    settle(app, window)
    wizard.grab().save(str(out / "reimport-review.png"), "PNG")
    wizard.discard()


def import_review(app: QApplication, window: MainWindow, out: Path) -> None:
    """The review of a new page: a paper already in the library, one that needs a title,
    and one unchecked (left out)."""
    from refman.ui.wizard import ImportWizard

    wizard = ImportWizard(window.controller, window)
    wizard.resize(1000, 640)
    wizard.show()
    wizard.add_text(NATARAJAN, "natarajan.txt")
    wizard.next()
    for _ in range(50):
        settle(app, window)
        if wizard.review_page.model.rowCount():
            break
    wizard.review_page.model.set_rows_checked([2], False)
    settle(app, window)
    wizard.grab().save(str(out / "import-review.png"), "PNG")
    wizard.discard()


def import_history(app: QApplication, window: MainWindow, out: Path) -> None:
    """File ▸ Import History…, with the first import picked: what reverting it would do."""
    dialog = window.history.open_history()
    dialog.resize(860, 560)
    settle(app, window)
    dialog.table.selectRow(dialog.table.rowCount() - 1)
    deadline = time.monotonic() + 10  # (worked out once the picking pauses, off the GUI thread)
    while dialog.plan is None and time.monotonic() < deadline:
        settle(app, window)
    dialog.grab().save(str(out / "import-history.png"), "PNG")
    dialog.close()


def related_papers(app: QApplication, window: MainWindow, out: Path) -> None:
    """The detail pane's Related block for Lena Fischer's Tidal Sketches, with what each
    related paper shares."""
    window.table.select_paper(papers_titled(window, ("Tidal Sketches",))[0])
    settle(app, window)
    pane = window.detail_pane
    pane.scroll_area.ensureWidgetVisible(pane.related, 0, 400)
    settle(app, window)
    pane.grab().save(str(out / "related-papers.png"), "PNG")


def everything_search(app: QApplication, window: MainWindow, out: Path) -> None:
    """An Everything search for a word inside the MegaScale PDF, with where it was found."""
    window.search_box.set_everything(True)
    window.search_box.set_text_now("heartbeat")
    settle(app, window)
    window.table.selectRow(0)
    settle(app, window)
    wait_for_preview(app, window)
    window.grab().save(str(out / "everything-search.png"), "PNG")
    window.search_box.set_text_now("")
    window.search_box.set_everything(False)
    settle(app, window)


def search_help(app: QApplication, window: MainWindow, out: Path) -> None:
    """The search syntax, as the ? at the end of the search field shows it."""
    window.search_box.show_help()
    settle(app, window)
    window.search_box.help.grab().save(str(out / "search-help.png"), "PNG")
    window.search_box.help.hide()
    settle(app, window)


def merge_banner(app: QApplication, window: MainWindow, out: Path) -> None:
    """A possible duplicate an import kept apart (its title differs by a word), with Show
    it, Merge and Not a duplicate above its title."""
    page = ParsedPage(
        "Lena Fischer",
        PageFormat.PUBLICATION_LIST,
        1,
        [
            ParsedRecord(
                "Tidewater: Streaming Joins over Bounded Sensor Logs",
                False,
                "",
                year=2025,
                venue="VLDB",
                type="paper-conference",
                authors=("Lena Fischer", "Marisol Quintana"),
            )
        ],
    )
    kept_apart = ImportChoices(keep_all_separate=True)  # as the review's "Keep separate"
    window.controller.apply(ImportPages((SourcedPage(page, "lena-fischer-vldb.txt"),), kept_apart))
    window.tag_pane.select_section(Section.ALL)
    settle(app, window)
    window.table.select_paper(papers_titled(window, ("Tidewater: Streaming Joins over B",))[0])
    settle(app, window)
    window.detail_pane.grab().save(str(out / "merge-duplicate.png"), "PNG")


def selection(app: QApplication, window: MainWindow, out: Path) -> None:
    """Four papers selected: the right pane acts on all of them."""
    window.tag_pane.select_section(Section.ALL)
    settle(app, window)
    window.table.select_papers([window.model.paper_id(r) or 0 for r in (0, 2, 3, 5)])
    settle(app, window)
    window.grab().save(str(out / "selection.png"), "PNG")


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "resources" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    app = create_app()
    assert isinstance(app, QApplication)
    with tempfile.TemporaryDirectory() as folder:
        service = demo_library(Path(folder) / "demo.sqlite")
        window = build_window(service, WindowSettings(Path(folder) / "settings.ini"))
        assert isinstance(window, QWidget)
        window.resize(1400, 900)
        window.show()
        settle(app, window)
        window.place_panes(window.splitter.width())
        window.table.select_paper(papers_titled(window, ("MegaScale",))[0])
        settle(app, window)
        wait_for_preview(app, window)
        window.grab().save(str(out / "main-window.png"), "PNG")
        export_dialog(window, out)
        open_library_dialog(window, out)
        copied_citation(app, window, out)
        import_review(app, window, out)
        reimport_review(app, window, out)
        people_window(app, window, out)
        import_history(app, window, out)
        related_papers(app, window, out)
        everything_search(app, window, out)
        search_help(app, window, out)
        person_page(app, window, out)
        merge_banner(app, window, out)
        selection(app, window, out)
        window.close()
        window.controller.shutdown()
        service.close()
    # As the window does when it quits (this tool never runs the event loop to its end):
    # the copied citation's data made in Python crashed the exit.
    release_clipboard()
    print(f"wrote the screenshots to {out}")


if __name__ == "__main__":
    main()
