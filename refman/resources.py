"""Locate data files shipped inside the refman package (Qt-free).

Files live in the ``refman.data`` package and are found with
:func:`importlib.resources.files`, so they work from a source checkout, an
installed wheel and a PyInstaller bundle alike.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

__all__ = ["ICON_SIZES", "data_path", "icon_path"]

_DATA_PACKAGE = "refman.data"

#: Pixel sizes for which a PNG application icon ships in ``refman/data/icons``.
ICON_SIZES: tuple[int, ...] = (16, 24, 32, 48, 64, 128, 256, 512)


def data_path(name: str) -> Path:
    """Return the filesystem path of a file in ``refman/data``.

    Args:
        name: A path relative to the data package, using ``/`` as separator,
            e.g. ``"arxiv_categories.json"`` or ``"icons/refman.svg"``.

    Returns:
        The absolute path of the file.

    Raises:
        ValueError: If ``name`` is empty, absolute or climbs out with ``..``.
        FileNotFoundError: If no such file ships with refman.
    """
    parts = name.split("/")
    if not name or name.startswith("/") or any(part in ("", ".", "..") for part in parts):
        raise ValueError(f"invalid data file name: {name!r}")
    resource = files(_DATA_PACKAGE).joinpath(*parts)
    if not resource.is_file():
        raise FileNotFoundError(f"refman data file not found: {name}")
    return Path(str(resource))


def icon_path(size: int | None = None) -> Path:
    """Return the path of the refman application icon.

    Args:
        size: Pixel size of a PNG icon, one of :data:`ICON_SIZES`; ``None`` for the
            scalable SVG.

    Returns:
        The absolute path of ``refman.svg`` or ``refman-<size>.png``.

    Raises:
        ValueError: If ``size`` is not one of :data:`ICON_SIZES`.
    """
    if size is None:
        return data_path("icons/refman.svg")
    if size not in ICON_SIZES:
        raise ValueError(f"no {size}px icon; available sizes: {ICON_SIZES}")
    return data_path(f"icons/refman-{size}.png")
