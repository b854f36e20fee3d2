"""CSL's substitution rule where citeproc-py leaves it out (difference C2 of
``tests/fixtures/citations/DIFFERENCES.md``). Private to :mod:`refman.core._citeproc_render`.

A style's ``<substitute>`` puts another variable in the author's place — the title of a paper
without authors, in APA, Chicago and Harvard — and CSL says that variable is not printed again
in the entry. citeproc-py remembers it only when the substitute names the variable itself
(``<text variable="title"/>``); through a macro (``<text macro="title"/>``, as those styles
write it) the title was printed twice: in the author's place and again after the date. Here
the substitute remembers the variables its rendered child actually printed, whatever macros
they came through. (Names in the author's place — an editor — are still printed twice:
citeproc-py never suppresses names.)
"""

from __future__ import annotations

import threading
from typing import Any

from citeproc.model import Names, Substitute, Text, VariableError

_local = threading.local()
_ORIGINAL_VARIABLE = Text._variable


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


def _render_child(substitute: Any, child: Any, item: Any, context: Any, **kwargs: Any) -> Any:
    if isinstance(child, Names) and child.name is None:
        names = substitute.xpath_search("./parent::cs:names[1]")[0]
        return child.render(item, names_context=names, context=context, **kwargs)
    return child.render(item, context=context, **kwargs)


def _render(self: Any, item: Any, context: Any = None, **kwargs: Any) -> Any:
    """citeproc-py's ``Substitute.render``, remembering every variable the child printed."""
    text = None
    stack = _printed()
    for child in self.getchildren():
        stack.append([])
        try:
            text = _render_child(self, child, item, context, **kwargs)
        except VariableError:
            continue
        finally:
            printed = stack.pop()
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
    Substitute.render = _render
