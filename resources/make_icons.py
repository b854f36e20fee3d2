"""Render the refman SVG icon into PNGs for every hicolor size.

Run from anywhere (Qt runs headless if no display is available)::

    QT_QPA_PLATFORM=offscreen .venv/bin/python resources/make_icons.py

Outputs:

* ``resources/icons/hicolor/<N>x<N>/apps/io.github.refman.Refman.png`` for every
  size in :data:`SIZES`, plus ``resources/icons/hicolor/scalable/apps/...svg``;
* ``refman/data/icons/refman.svg`` and ``refman/data/icons/refman-<N>.png`` so the
  icon travels inside the Python package.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

RESOURCES = Path(__file__).resolve().parent
REPO = RESOURCES.parent
SOURCE_SVG = RESOURCES / "icons" / "refman.svg"
HICOLOR = RESOURCES / "icons" / "hicolor"
PACKAGE_ICONS = REPO / "refman" / "data" / "icons"
APP_ID = "io.github.refman.Refman"
SIZES: tuple[int, ...] = (16, 24, 32, 48, 64, 128, 256, 512)


def render_png(svg: Path, size: int, target: Path) -> None:
    """Render ``svg`` into a square, transparent, antialiased PNG.

    Args:
        svg: The SVG file to render.
        size: Width and height of the PNG in pixels.
        target: Where to write the PNG; parent folders are created.

    Raises:
        RuntimeError: If the SVG cannot be parsed or the PNG cannot be written.
    """
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise RuntimeError(f"cannot parse SVG {svg}")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        renderer.render(painter, QRectF(0, 0, size, size))
    finally:
        painter.end()
    out = image.convertToFormat(QImage.Format.Format_ARGB32)
    target.parent.mkdir(parents=True, exist_ok=True)
    if not out.save(str(target)):  # format from the .png suffix
        raise RuntimeError(f"cannot write {target}")


def make_icons(svg: Path = SOURCE_SVG) -> list[Path]:
    """Generate every hicolor PNG and the package copies from ``svg``.

    Args:
        svg: The master SVG icon.

    Returns:
        The paths of all files written.
    """
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # keep alive
    written: list[Path] = []
    PACKAGE_ICONS.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        png = HICOLOR / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        render_png(svg, size, png)
        package_png = PACKAGE_ICONS / f"refman-{size}.png"
        shutil.copyfile(png, package_png)
        written += [png, package_png]
    scalable = HICOLOR / "scalable" / "apps" / f"{APP_ID}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable)
    package_svg = PACKAGE_ICONS / "refman.svg"
    shutil.copyfile(svg, package_svg)
    written += [scalable, package_svg]
    return written


def main() -> int:
    """Command-line entry point.

    Returns:
        The process exit status.
    """
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    for path in make_icons():
        print(path.relative_to(REPO))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
