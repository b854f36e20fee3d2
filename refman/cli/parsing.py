"""How refman's argument parsers look: a usage error said in one line, as refman says its
own errors; descriptions wrapped to the terminal; the options every command accepts after
its name."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TYPE_CHECKING, NoReturn

from refman.cli.argv import library_arg
from refman.common.controls import terminal_safe

if TYPE_CHECKING:
    #: The object that adds the subcommands.
    Subparsers = argparse._SubParsersAction["RefmanParser"]

#: Exit status of a usage error (as of every user error).
USAGE_ERROR = 2


class Formatter(argparse.RawDescriptionHelpFormatter):
    """A description or epilog written in lines (examples) is kept as written; one written
    as one paragraph is wrapped to the terminal, as the options are."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return super()._fill_text(text, width, indent)
        return textwrap.fill(
            text, width, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
        )


class RefmanParser(argparse.ArgumentParser):
    """An argument parser whose usage errors read like refman's other errors: one line on
    stderr, "refman: " then what is wrong, and where to read how the command is used."""

    def error(self, message: str) -> NoReturn:
        """Say what is wrong with the arguments and exit with status 2."""
        said = message[:1].upper() + message[1:]
        said += "" if said.endswith(".") else "."
        sys.stderr.write(f"refman: {terminal_safe(said)} See “{self.prog} --help”.\n")
        sys.exit(USAGE_ERROR)


def common_options() -> RefmanParser:
    """Options accepted after the command name too (they keep a value given before it)."""
    common = RefmanParser(add_help=False)
    common.add_argument("--db", type=library_arg, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    common.add_argument(
        "-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    return common


class Commands:
    """Adds subcommands that share the common options, the formatter and ``args.command``."""

    def __init__(self, sub: Subparsers) -> None:
        self.sub = sub
        self.common = common_options()

    def add(
        self,
        name: str,
        help_text: str,
        description: str,
        examples: str = "",
        *,
        epilog: str = "",
        command: str = "",
    ) -> argparse.ArgumentParser:
        """A subcommand with its examples (or a whole ``epilog``); ``command`` names its
        handler when it is not ``name``."""
        p = self.sub.add_parser(
            name,
            parents=[self.common],
            formatter_class=Formatter,
            help=help_text,
            description=description,
            epilog=epilog or "examples:\n" + examples,
        )
        p.set_defaults(command=command or name, help_of=p.prog)
        return p


def parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """``argv`` parsed as :meth:`~argparse.ArgumentParser.parse_args` does, but words that
    no option takes are said with the help of the command they were given to."""
    parsed, extra = parser.parse_known_args(argv)
    if extra:
        told = RefmanParser(prog=getattr(parsed, "help_of", None) or parser.prog)
        told.error(f"unrecognized arguments: {' '.join(extra)}")
    return parsed
