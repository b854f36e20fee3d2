"""JabRef's metadata: its groups, which become tags, and the folders of its files.

JabRef 3 and later write each entry's static groups in its ``groups`` field (read with the
other fields). JabRef 2 wrote the members of each explicit group into the file's metadata::

    @comment{jabref-meta: groupstree:
    0 AllEntriesGroup:;
    1 ExplicitGroup:Reading\\;0\\;smith2019\\;doe2020\\;;
    }

:func:`jabref_memberships` reads that tree: for each entry key, the groups that list it.
:func:`jabref_file_folders` reads the folders a library's relative ``file`` paths start from
(*Library properties*: ``@comment{jabref-meta: fileDirectory:papers;}``, and one per user).
"""

from __future__ import annotations

import re

__all__ = ["jabref_file_folders", "jabref_memberships"]

_ITEM = re.compile(r"(?<!\\);")
_PART = re.compile(r"\\;")
_HEAD = re.compile(r"^\s*(\d+)\s+(\w+):(.*)$", re.DOTALL)
_MEMBER_GROUPS = frozenset({"ExplicitGroup", "StaticGroup"})
#: A file folder's setting: the library's, a user's ("fileDirectory-alice-laptop"), JabRef 2's.
_FOLDER = re.compile(r"^(fileDirectory(-[^:]*)?|pdfDirectory):((?:[^\\;]|\\.)*)", re.S)
_ESCAPE = re.compile(r"\\(.)")


def _unescape(text: str) -> str:
    return text.replace("\\\\", "\\").strip()


def _tree_groups(tree: str) -> list[tuple[str, list[str]]]:
    """(group name, member keys) of each explicit group of a JabRef 2 groups tree."""
    groups: list[tuple[str, list[str]]] = []
    for item in _ITEM.split(tree):
        parts = _PART.split(item.strip())
        head = _HEAD.match(parts[0])
        if head is None or head.group(2) not in _MEMBER_GROUPS:
            continue
        name = _unescape(head.group(3))
        keys = [_unescape(k) for k in parts[2:] if k.strip()]
        if name:
            groups.append((name, keys))
    return groups


def jabref_memberships(comments: list[str]) -> dict[str, list[str]]:
    """For each entry key (lower case), the names of the JabRef 2 groups listing it.

    Args:
        comments: The texts of the file's ``@comment`` blocks.

    Returns:
        Group names by lower-case key; empty when the file has no JabRef 2 groups tree.
    """
    members: dict[str, list[str]] = {}
    for body in _metadata(comments):
        if not body.startswith("groupstree:"):
            continue
        for name, keys in _tree_groups(body[len("groupstree:") :]):
            for key in keys:
                members.setdefault(key.lower(), []).append(name)
    return members


def jabref_file_folders(comments: list[str]) -> list[str]:
    """The folders JabRef reads the library's relative ``file`` paths from, as written.

    Args:
        comments: The texts of the file's ``@comment`` blocks.

    Returns:
        Each user's folder first (JabRef prefers the one of the user it runs for), then the
        library's; empty when the file names none.
    """
    users: list[str] = []
    shared: list[str] = []
    for body in _metadata(comments):
        found = _FOLDER.match(body)
        folder = _ESCAPE.sub(r"\1", found.group(3)).strip() if found else ""
        if found and folder:
            (users if found.group(2) else shared).append(folder)
    return users + shared


def _metadata(comments: list[str]) -> list[str]:
    """The settings JabRef keeps in ``@comment{jabref-meta: name:value;}`` blocks."""
    texts = (comment.strip() for comment in comments)
    return [t[len("jabref-meta:") :].lstrip() for t in texts if t.startswith("jabref-meta:")]
