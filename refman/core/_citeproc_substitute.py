"""CSL's substitution rule where citeproc-py leaves it out (difference C2 of
``tests/fixtures/citations/DIFFERENCES.md``). Private to :mod:`refman.core._citeproc_render`.

A style's ``<substitute>`` puts another variable in the author's place — the title of a paper
without authors, in APA, Chicago and Harvard — and CSL says that variable is not printed again
in the entry. citeproc-py remembers it only when the substitute names the variable itself
(``<text variable="title"/>``); through a macro (``<text macro="title"/>``, as those styles
write it) the title was printed twice: in the author's place and again after the date. Here
the substitute remembers the variables its rendered child actually printed, whatever macros
they came through — names too: an editor in the author's place of an edited book is not
printed again as "Edited by …". And names a substitute prints take the ``<name>`` and
``<label>`` of the ``<names>`` it stands in for, as CSL says, even from inside a
``<choose>`` (citeproc-py gave them those only when they were the substitute's own children,
so the editor came out as a plain "J. van Leeuwen" where the style inverts and labels it).
"""

from __future__ import annotations

import threading
from typing import Any

from citeproc.model import Names, Substitute, Text, VariableError

_local = threading.local()
_ORIGINAL_VARIABLE = Text._variable
_ORIGINAL_NAMES = Names.process


def _printed() -> list[list[tuple[str, str]]]:
    """Per substitute being rendered (innermost last), the (tag, variable) printed so far."""
    stack: list[list[tuple[str, str]]] | None = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


def _variable(self: Any, item: Any, context: Any) -> Any:
    text = _ORIGINAL_VARIABLE(self, item, context)
    stack = _printed()
    if stack and text:
        stack[-1].append((self.tag, self.get("variable")))
    return text


def _standing_in() -> list[Any]:
    """The ``<names>`` each substitute being rendered stands in for (innermost last)."""
    stack: list[Any] | None = getattr(_local, "names", None)
    if stack is None:
        stack = _local.names = []
    return stack


def _names(
    self: Any, item: Any, names_context: Any = None, context: Any = None, **kwargs: Any
) -> Any:
    """citeproc-py's ``Names.process``: names a substitute printed are not printed again, and
    names inside a substitute take the options of the ``<names>`` it stands in for."""
    written = str(self.get("variable", ""))
    roles = written.split()
    layout = (context if context is not None else self).get_layout()
    printed_before = layout.repressed.get(self.tag, [])
    kept = [r for r in roles if r not in printed_before or r not in item.reference]
    if not kept:
        return None
    parents = _standing_in()
    if names_context is None and self.name is None and parents:
        names_context = parents[-1]
    self.set("variable", " ".join(kept))  # the style is this rendering's own (not shared)
    try:
        text = _ORIGINAL_NAMES(self, item, names_context=names_context, context=context, **kwargs)
    finally:
        self.set("variable", written)
    roles = kept
    stack = _printed()
    if stack and text:
        stack[-1].extend((self.tag, role) for role in roles if role in item.reference)
    return text


def _render_child(substitute: Any, child: Any, item: Any, context: Any, **kwargs: Any) -> Any:
    if isinstance(child, Names) and child.name is None:
        names = substitute.xpath_search("./parent::cs:names[1]")[0]
        return child.render(item, names_context=names, context=context, **kwargs)
    return child.render(item, context=context, **kwargs)


def _render(self: Any, item: Any, context: Any = None, **kwargs: Any) -> Any:
    """citeproc-py's ``Substitute.render``, remembering every variable the child printed."""
    text = None
    stack = _printed()
    parents = _standing_in()
    for child in self.getchildren():
        stack.append([])
        parents.append(self.xpath_search("./parent::cs:names[1]")[0])
        try:
            text = _render_child(self, child, item, context, **kwargs)
        except VariableError:
            continue
        finally:
            printed = stack.pop()
            parents.pop()
        if text:
            self.add_to_repressed_list(child, context)
            repressed = context.get_layout().repressed
            for tag, variable in printed:
                repressed.setdefault(tag, []).append(variable)
            break
    return text


def install() -> None:
    """Make citeproc-py follow the rule (idempotent)."""
    Text._variable = _variable
    Names.process = _names
    Substitute.render = _render
