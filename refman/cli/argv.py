"""The command line's words as argparse should read them."""

from __future__ import annotations

import argparse

from refman.common.errors import InvalidValueError
from refman.common.identifiers import MAX_ROW_ID, row_id


def words_as_query(parser: argparse.ArgumentParser, argv: list[str]) -> tuple[list[str], list[str]]:
    """``argv`` without the words of ``refman search``, and those words, so that a query may
    start with "-" (``refman search -rnn`` searches for "-rnn"): every word after the command
    that is neither one of its options nor an option's value, and every word after a bare
    "--". (argparse itself never sees them: it reads a value "--" as no value at all.)"""
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    start = _command_index(parser, argv)
    if start is None or argv[start] != "search":
        return argv, []
    options = commands.choices["search"]._option_string_actions
    out, expect_value = argv[: start + 1], False
    words: list[str] = []
    rest = iter(argv[start + 1 :])
    for token in rest:
        if expect_value:
            out.append(token)
            expect_value = False
        elif token == "--":  # the end of the options: the rest is the query
            words.extend(rest)
        elif (token.split("=", 1)[0] in options and token.startswith("--")) or token in options:
            out.append(token)
            expect_value = "=" not in token and options[token.split("=", 1)[0]].nargs != 0
        else:
            words.append(token)
    return out, words


def _command_index(parser: argparse.ArgumentParser, argv: list[str]) -> int | None:
    """Where the command stands in ``argv`` (after the options of ``refman`` itself)."""
    takes_value = {o for a in parser._actions if a.nargs != 0 for o in a.option_strings}
    i = 0
    while i < len(argv):
        if argv[i] in takes_value:
            i += 2
        elif argv[i].startswith("-"):
            i += 1
        else:
            return i
    return None


#: Arguments that name files: any bytes a file system allows are fine there.
_PATHS = frozenset({"db", "files", "out", "output", "to", "style", "command", "backup", "dest"})


def undecodable(args: argparse.Namespace) -> str | None:
    """The first argument that is not valid UTF-8 text and would be stored or searched (a
    tag, a note, a field, a search), or None. File names may hold any bytes."""
    for name, value in vars(args).items():
        if name in _PATHS:
            continue
        for item in value if isinstance(value, list | tuple) else [value]:
            if isinstance(item, str) and not _is_text(item):
                return item
    return None


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # bytes the terminal could not decode (surrogate escapes)
        return False
    return True


def paper_id(text: str) -> int:
    """Parse a paper, note or person id given on the command line.

    Raises:
        argparse.ArgumentTypeError: The text is not a positive whole number, or one larger
            than any id.
    """
    found = row_id(text)
    if found is not None:
        return found
    value = text.strip().removeprefix("#")
    if value.isascii() and value.isdigit() and int(value) > MAX_ROW_ID:
        raise argparse.ArgumentTypeError(f"“{text}” is larger than any id")
    raise argparse.ArgumentTypeError(f"“{text}” is not an id (a number such as 12)")


def how_many(text: str) -> int:
    """Parse how many of something (1 or more) given on the command line; a number larger
    than any library holds counts as all."""
    return _whole_number(text, 1)


def count(text: str) -> int:
    """Parse a whole number of 0 or more given on the command line (a limit, an offset); a
    number larger than any library holds counts as all."""
    return _whole_number(text, 0)


def _whole_number(text: str, least: int) -> int:
    """A whole number of ``least`` or more, at most :data:`MAX_ROW_ID`.

    Raises:
        argparse.ArgumentTypeError: The text is not a whole number of ``least`` or more.
    """
    value = text.strip()
    if not (value.isascii() and value.isdigit()) or int(value) < least:
        raise argparse.ArgumentTypeError(f"“{text}” is not a whole number of {least} or more")
    return min(int(value), MAX_ROW_ID)


def library_arg(text: str) -> str:
    """Parse ``--db``: a library file or URL, never empty (``--db "$UNSET"`` in a script
    would otherwise open the default library).

    Raises:
        argparse.ArgumentTypeError: The value is empty or blank.
    """
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty: name a library file or URL")
    return text


def papers_and_tags(words: list[str], tags: list[str], verb: str) -> tuple[list[int], list[str]]:
    """The papers and tags of ``refman tag|untag ID... TAG...``: the leading words that read
    as ids (12, #12) name papers, the others tags; the last word is a tag whatever it reads
    as (``refman tag 12 2024``). ``tags``: those given with ``--tag`` (a tag that reads as a
    number after several papers: ``refman tag 12 15 --tag 2024``).

    Raises:
        InvalidValueError: No paper, or no tag, was given.
    """
    ids: list[int] = []
    rest = list(words)
    while rest and (number := row_id(rest[0])) is not None and (len(rest) > 1 or tags):
        ids.append(number)
        rest.pop(0)
    example = f"refman {verb} 12 15 to-read"
    if not ids and row_id(words[0]) is None:
        try:
            paper_id(words[0])
        except argparse.ArgumentTypeError as why:  # (as an argument of one id says it)
            raise InvalidValueError(f"{why}.", f"Ids first: {example}") from None
    if not ids or not rest + tags:  # (an id alone)
        raise InvalidValueError("No tag was given.", f"Tags after the ids: {example}")
    return ids, rest + tags
