"""Where refman keeps its files: the one module that asks appdirs.

The data directory holds the default library; the config directory the settings; the log
directory the rotating log file. ``REFMAN_HOME`` (or :func:`set_base_dir`) puts all of them
below one folder, which is how tests and throwaway runs stay away from the user's real files.
"""

from __future__ import annotations

import os
from pathlib import Path

import appdirs

APP_NAME = "refman"
LIBRARY_FILE = "library.sqlite"

_base_dir: Path | None = None


def set_base_dir(path: str | Path | None) -> None:
    """Put data, config, cache and logs below ``path`` (None returns to the platform dirs)."""
    global _base_dir
    _base_dir = Path(path).expanduser() if path is not None else None


def _base() -> Path | None:
    if _base_dir is not None:
        return _base_dir
    env = os.environ.get("REFMAN_HOME")  # "~/refman-test" as a library's path reads it
    return Path(env).expanduser() if env else None


def _dir(kind: str) -> Path:
    base = _base()
    if base is not None:
        path = base / kind
    elif kind == "data":
        path = Path(appdirs.user_data_dir(APP_NAME, appauthor=False))
    elif kind == "config":
        path = Path(appdirs.user_config_dir(APP_NAME, appauthor=False))
    elif kind == "cache":
        path = Path(appdirs.user_cache_dir(APP_NAME, appauthor=False))
    else:
        path = Path(appdirs.user_log_dir(APP_NAME, appauthor=False))
    return path


def data_dir() -> Path:
    """The folder that holds the default library."""
    return _dir("data")


def config_dir() -> Path:
    """The folder that holds the settings file."""
    return _dir("config")


def cache_dir() -> Path:
    """The folder for caches that may be deleted at any time."""
    return _dir("cache")


def backup_dir() -> Path:
    """The folder of the libraries' backups (one folder per library inside)."""
    return data_dir() / "backups"


def check_record() -> Path:
    """The file where refman remembers which libraries it checked and left whole."""
    return cache_dir() / "checked.json"


def log_dir() -> Path:
    """The folder that holds ``refman.log``."""
    return _dir("log")


def default_library() -> Path:
    """The library used when neither ``--db`` nor ``REFMAN_DB`` names another."""
    return data_dir() / LIBRARY_FILE


def library_location(cli_value: str | None = None) -> str:
    """The library to open: ``--db`` first, then ``REFMAN_DB``, then the default file.

    Args:
        cli_value: The value of ``--db``, if given.

    Returns:
        A file path or an SQLAlchemy URL.
    """
    if cli_value:
        return cli_value
    env = os.environ.get("REFMAN_DB")
    if env:
        return env
    return str(default_library())
