"""CSL's rule for groups where citeproc-py gets it wrong (difference C4 of
``tests/fixtures/citations/DIFFERENCES.md``). Private to :mod:`refman.core._citeproc_render`.

A ``<group>`` prints nothing, not even its fixed text, when it calls variables and every
variable it calls is empty. citeproc-py decides whether a child "calls a variable" from the
style alone: a ``<choose>`` calls one if any of its branches does, a nested ``<group>``
always does. So a group whose chosen branch printed fixed text ("Publication", APA's word for
a thesis's number) counted as having printed a variable, and the text came out beside an
empty number: "(Publication) [PhD thesis]"; Chicago wrote "Edition." after a conference paper
without proceedings. Here each group records, while it renders, the variables its children
actually looked up (through macros and choices) and whether any of them had a value; a nested
group or a macro counts as one variable, empty when it printed nothing (Accessed: with no
date), not when it printed fixed text only (IEEE's "[Online]", Chicago's "Preprint"), as
citeproc-js does.
"""

from __future__ import annotations

import threading
from typing import Any

from citeproc.model import Choose, Date, Group, Names, Number, Text, VariableError

_local = threading.local()


class _Calls:
    """What the children of one group being rendered looked up."""

    __slots__ = ("called", "printed")

    def __init__(self) -> None:
        self.called = False
        self.printed = False


def _groups() -> list[_Calls]:
    """The groups being rendered, innermost last."""
    stack: list[_Calls] | None = getattr(_local, "groups", None)
    if stack is None:
        stack = _local.groups = []
    return stack


def _note(printed: bool) -> None:
    stack = _groups()
    if stack:
        stack[-1].called = True
        stack[-1].printed = stack[-1].printed or printed


def _recorded(original: Any, generated: tuple[str, ...] = ()) -> Any:
    """``original`` (an element's method that looks a variable up), noting in the innermost
    group that it was called and whether it gave anything."""

    def looked_up(self: Any, *args: Any, **kwargs: Any) -> Any:
        if self.get("variable") in generated:
            return original(self, *args, **kwargs)
        try:
            result = original(self, *args, **kwargs)
        except VariableError:
            _note(False)
            raise
        _note(bool(result[0] if isinstance(result, tuple) else result))
        return result

    return looked_up


def _macro_output(original: Any) -> Any:
    """``Text.process``, noting in the innermost group a macro call that printed something:
    to its group, a macro is a variable as a nested group is (Chicago's "Preprint", a term
    of a macro, stands beside an empty publisher)."""

    def process(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = original(self, *args, **kwargs)
        if "macro" in self.attrib and result[0]:
            _note(True)
        return result

    return process


def _process(self: Any, item: Any, context: Any = None, **kwargs: Any) -> Any:
    """citeproc-py's ``Group.process``, deciding from what the children looked up."""
    stack = _groups()
    calls = _Calls()
    stack.append(calls)
    output = []
    delimiter = self.get("delimiter", "")
    try:
        for child in self.iterchildren():
            try:
                if isinstance(child, Choose):
                    text = child.render(item, context=context, delimiter=delimiter, **kwargs)
                else:
                    text = child.render(item, context=context, **kwargs)
            except VariableError:
                continue
            if text is not None:
                output.append(text)
    finally:
        stack.pop()
    shown = bool(output) and (not calls.called or calls.printed)
    if stack and (shown or calls.called):  # to its parent, a nested group is a variable:
        stack[-1].called = True  # empty when it prints nothing, not when it prints text only
        stack[-1].printed = stack[-1].printed or shown
    if shown:
        return self.join(output)
    raise VariableError


def install() -> None:
    """Make citeproc-py's groups follow the rule (idempotent; after
    :mod:`refman.core._citeproc_substitute`, whose methods it wraps)."""
    if getattr(Group.process, "__name__", "") == "_process":
        return
    Text._variable = _recorded(Text._variable, Text.generated_variables)
    Text.process = _macro_output(Text.process)
    Number.process = _recorded(Number.process)
    Date.process = _recorded(Date.process)
    Names.process = _recorded(Names.process)
    Group.process = _process
