"""The measured process of the GUI benchmark (started by ``bench_gui.py``).

It starts refman's window on a library the way ``refman`` does, notes when the paper list is
first painted, then types searches and clicks tags through the real widgets, timing each
from the input to the repainted list. It prints one JSON object.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import time

T0 = float(os.environ.get("REFMAN_BENCH_T0", time.time()))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from refman.ui.app import build_window, create_app, open_service  # noqa: E402
from refman.ui.settings import WindowSettings  # noqa: E402

QUERIES = [
    "s",
    "sp",
    "spa",
    "spar",
    "spars",
    "sparse",
    "g",
    "gr",
    "gra",
    "grap",
    "graph",
    "d",
    "di",
    "dif",
    "diff",
    "diffu",
    "diffusion",
    "r",
    "ro",
    "rob",
    "robu",
    "robust",
    "sparse g",
    "sparse gr",
    "sparse gra",
    "sparse graph",
    "l",
    "la",
    "lan",
    "lang",
    "langu",
    "language",
    "language m",
    "language mo",
    "language mod",
    "language model",
    "q",
    "qu",
    "que",
    "quer",
    "query",
    "p",
    "ph",
    "pho",
    "phot",
    "photonic",
    '"protein f',
    '"protein fo',
    '"protein fol',
    '"protein folds"',
]


class FirstPaint(QObject):
    """Notes the time of the first paint of the paper list."""

    def __init__(self) -> None:
        super().__init__()
        self.at: float | None = None

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self.at is None:
            self.at = time.time()
        return False


def _settle(app: QApplication, window: object) -> None:
    app.processEvents()
    window.table.viewport().repaint()  # type: ignore[attr-defined]


def _stats(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return {"median_ms": statistics.median(ordered) * 1000, "p95_ms": p95 * 1000}


def main() -> None:
    library = sys.argv[1]
    app = create_app()
    service = open_service(library)
    window = build_window(service)
    window.settings = WindowSettings(None)
    first = FirstPaint()
    window.table.viewport().installEventFilter(first)
    window.resize(1400, 900)
    window.show()
    while first.at is None:
        app.processEvents()
    first_paint = first.at - T0

    search = []
    for query in QUERIES:
        start = time.perf_counter()
        window.search_box.set_text_now(query)
        _settle(app, window)
        search.append(time.perf_counter() - start)
    window.search_box.set_text_now("")
    _settle(app, window)

    tags = []
    names = [t.name for t in service.tags()]
    for i in range(50):
        start = time.perf_counter()
        if i % 5 == 4:
            window.tag_pane.select_tags([names[i % len(names)], names[(i + 3) % len(names)]])
        else:
            window.tag_pane.select_tags([names[i % len(names)]])
        _settle(app, window)
        tags.append(time.perf_counter() - start)
    rows = window.model.rowCount()
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "papers": service.count(),
                "first_paint_s": first_paint,
                "search": _stats(search),
                "tag_filter": _stats(tags),
                "rows_in_last_view": rows,
                "rows_fetched": window.model.rows_fetched,
                "peak_rss_mb": peak_kb / 1024,
            }
        )
    )
    window.close()


if __name__ == "__main__":
    main()
