"""JabRef's groups, which become tags.

JabRef 3 and later write each entry's static groups in its ``groups`` field (read with the
other fields). JabRef 2 wrote the members of each explicit group into the file's metadata::

    @comment{jabref-meta: groupstree:
    0 AllEntriesGroup:;
    1 ExplicitGroup:Reading\\;0\\;smith2019\\;doe2020\\;;
    }

:func:`jabref_memberships` reads that tree: for each entry key, the groups that list it.
"""

from __future__ import annotations

import re

__all__ = ["jabref_memberships"]

_ITEM = re.compile(r"(?<!\\);")
_PART = re.compile(r"\\;")
_HEAD = re.compile(r"^\s*(\d+)\s+(\w+):(.*)$", re.DOTALL)
_MEMBER_GROUPS = frozenset({"ExplicitGroup", "StaticGroup"})


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
    for comment in comments:
        text = comment.strip()
        if not text.startswith("jabref-meta:"):
            continue
        body = text[len("jabref-meta:") :].lstrip()
        if not body.startswith("groupstree:"):
            continue
        for name, keys in _tree_groups(body[len("groupstree:") :]):
            for key in keys:
                members.setdefault(key.lower(), []).append(name)
    return members
