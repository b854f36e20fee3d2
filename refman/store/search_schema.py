"""The search indexes' tables on SQLite, and their repair.

The papers' index reads its words through the ``paper_search`` view (external content: the
index holds no copy of the text); tags, notes and the text of attached files have indexes of
their own, kept in step by triggers. Migrations 0003 and 0009 create them from these
definitions; :func:`repair_search` creates again whatever is missing from a library (a tool
that dropped a table, a partial copy) and fills it from the papers, tags, notes and texts.
"""

from __future__ import annotations

from typing import Any

#: How the three indexes split words (the same everywhere, so a word found in one is found
#: in all), and the prefix lengths indexed.
TOKENIZE = "unicode61 remove_diacritics 2"
PREFIXES = "1 2"

#: A paper's authors' names, one after the other.
_AUTHORS = """(SELECT group_concat(pe.name, ' ') FROM authorships a
            JOIN persons pe ON pe.id = a.person_id WHERE a.paper_id = p.id)"""
#: Its page owners' names: what the list shows where a page gave no authors (and searched so
#: since revision 0023).
_OWNERS = """(SELECT group_concat(pe.name, ' ') FROM attributions t
            JOIN persons pe ON pe.id = t.person_id WHERE t.paper_id = p.id)"""
_SUBJECTS = """coalesce((SELECT group_concat(s.code, ' ') FROM paper_subjects ps
            JOIN subjects s ON s.id = ps.subject_id WHERE ps.paper_id = p.id), '')"""


def _paper_text(fold: str, authors: str) -> str:
    """The SELECT of a paper's searched text, each text through ``fold`` ("%s": as it is)."""
    return f"""
SELECT p.id AS id,
  {fold % "p.title"} AS title,
  {fold % "refman_readable(p.abstract)"} AS abstract,
  {fold % authors} AS authors,
  {fold % "coalesce(p.venue, '')"} AS venue,
  {_SUBJECTS} AS subjects
FROM papers p
"""


#: A paper's searched text as refman shows it: title, readable abstract, authors (its page
#: owners where the page gave none), venue and subjects (what a quoted phrase is checked in:
#: the check folds letters itself).
PAPER_TEXT = _paper_text("%s", f"coalesce({_AUTHORS}, {_OWNERS}, '')")
#: The view the papers' index read its words from until revision 0019 (as the migrations
#: that made it, and the one that replaces it, know it): the text as it is.
PAPER_SEARCH_VIEW = "CREATE VIEW paper_search AS" + _paper_text("%s", f"coalesce({_AUTHORS}, '')")
#: The view it read them from from revision 0019 to 0023: folded, the authors alone.
PAPER_SEARCH_VIEW_0019 = "CREATE VIEW paper_search AS" + _paper_text(
    "refman_fold(%s)", f"coalesce({_AUTHORS}, '')"
)

#: The views the indexes read their words from (external content), since revision 0019:
#: the text with ø, æ, ł, ß... written as o, ae, l, ss (``refman_fold``, SQLite's function of
#: :func:`refman.common.text.index_form`), which the tokenizer does not fold itself — it
#: drops accents only. The words typed are folded alike (:mod:`refman.store.search_terms`).
#: Since revision 0023 a paper's page owners stand for its authors where it has none.
SEARCH_VIEWS = {
    "paper_search": "CREATE VIEW paper_search AS"
    + _paper_text("refman_fold(%s)", f"coalesce({_AUTHORS}, {_OWNERS}, '')"),
    "tag_search": "CREATE VIEW tag_search AS SELECT id, refman_fold(name) AS name FROM tags",
    "note_search": "CREATE VIEW note_search AS SELECT id, refman_fold(text) AS text FROM notes",
    "file_text_search": (
        "CREATE VIEW file_text_search AS SELECT id, refman_fold(text) AS text FROM file_texts"
    ),
}

#: Each index: its table, its columns and what it reads them from.
INDEXES = (
    ("papers_fts", "title, abstract, authors, venue, subjects", "paper_search"),
    ("tags_fts", "name", "tag_search"),
    ("notes_fts", "text", "note_search"),
    ("file_texts_fts", "text", "file_text_search"),
)
#: The tables whose rows triggers keep in their index, and the column indexed.
TRIGGERED = (("tags", "name"), ("notes", "text"), ("file_texts", "text"))


def fts_table(name: str, columns: str, content: str) -> str:
    """The statement that creates an index (external content, no word positions)."""
    return (
        f"CREATE VIRTUAL TABLE {name} USING fts5({columns}, content='{content}', "
        f"content_rowid='id', tokenize='{TOKENIZE}', prefix='{PREFIXES}', detail=column)"
    )


def fts_triggers(table: str, column: str, *, folded: bool = True) -> list[str]:
    """Triggers that keep ``{table}_fts`` (external content) in step with ``table``: the
    text folded as its view folds it (``folded=False``: as it is, before revision 0019)."""
    fts = f"{table}_fts"
    old, new = (f"refman_fold({row}.{column})" for row in ("old", "new"))
    if not folded:
        old, new = f"old.{column}", f"new.{column}"
    out = f"INSERT INTO {fts}({fts}, rowid, {column}) VALUES ('delete', old.id, {old});"
    into = f"INSERT INTO {fts}(rowid, {column}) VALUES (new.id, {new});"
    return [
        f"CREATE TRIGGER {fts}_ai AFTER INSERT ON {table} BEGIN {into} END",
        f"CREATE TRIGGER {fts}_ad AFTER DELETE ON {table} BEGIN {out} END",
        f"CREATE TRIGGER {fts}_au AFTER UPDATE OF {column} ON {table} BEGIN {out} {into} END",
    ]


def _trigger_names(table: str) -> list[str]:
    return [f"{table}_fts_{suffix}" for suffix in ("ai", "ad", "au")]


def repair_search(conn: Any) -> list[str]:
    """Create again the parts of the search indexes a library lacks, and fill them.

    Args:
        conn: A SQLAlchemy connection inside a write transaction.

    Returns:
        The names of what was created again (empty when nothing was missing).
    """
    found = {row[0] for row in conn.exec_driver_sql("SELECT name FROM sqlite_master")}
    repaired: list[str] = []
    for view, statement in SEARCH_VIEWS.items():
        if view not in found:
            conn.exec_driver_sql(statement)
            repaired.append(view)
    for name, columns, content in INDEXES:
        if name not in found:
            conn.exec_driver_sql(fts_table(name, columns, content))
            conn.exec_driver_sql(f"INSERT INTO {name}({name}) VALUES ('rebuild')")
            repaired.append(name)
    for table, column in TRIGGERED:
        if any(t not in found for t in _trigger_names(table)):
            for trigger in _trigger_names(table):
                conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {trigger}")
            for statement in fts_triggers(table, column):
                conn.exec_driver_sql(statement)
            conn.exec_driver_sql(f"INSERT INTO {table}_fts({table}_fts) VALUES ('rebuild')")
            repaired.append(f"{table}_fts triggers")
    return repaired


def search_is_whole(conn: Any) -> bool:
    """True when no part of the search indexes is missing (a read of the schema only)."""
    found = {row[0] for row in conn.exec_driver_sql("SELECT name FROM sqlite_master")}
    wanted = [*SEARCH_VIEWS, *(name for name, _, _ in INDEXES)]
    wanted += [t for table, _ in TRIGGERED for t in _trigger_names(table)]
    return all(name in found for name in wanted)


def damaged_indexes(conn: Any) -> list[str]:
    """The search indexes whose contents do not match the rows they index (FTS5's own
    ``integrity-check`` against the content; reads the whole index)."""
    damaged: list[str] = []
    for name, _, _ in INDEXES:
        try:
            conn.exec_driver_sql(f"INSERT INTO {name}({name}, rank) VALUES ('integrity-check', 1)")
        except Exception as exc:  # SQLite says "database disk image is malformed" here
            if "malformed" not in str(exc) and "corrupt" not in str(exc).lower():
                raise
            damaged.append(name)
    return damaged


def rebuild_indexes(conn: Any, names: list[str]) -> None:
    """Fill these search indexes again from the rows they index."""
    for name in names:
        conn.exec_driver_sql(f"INSERT INTO {name}({name}) VALUES ('rebuild')")
