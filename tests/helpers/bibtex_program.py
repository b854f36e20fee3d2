"""The real BibTeX over a ``.bib`` file: the bibliography it typesets with the ``plain``
style, which it must make without one complaint.

CI installs Debian's texlive-binaries (``bibtex``) and texlive-base (``plain.bst``), see
``.ci/run``; elsewhere the tests that need them skip and say what is missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

#: What BibTeX prints when something is wrong with a .bib file or an entry.
COMPLAINT = re.compile(
    r"warning|error|illegal|skipping|expecting|repeated entry|too many commas|"
    r"comma at the end|unbalanced|isn't a brace-balanced",
    re.IGNORECASE,
)
#: The .blg's count of built-in function calls ("warning$ -- 0") is no complaint.
STATISTIC = re.compile(r"^\s*[\w.]+\$ -- \d+\s*$")


def run_tool(tool: str, *args: str, cwd: Path) -> tuple[int, str]:
    """Run a program in ``cwd``: its exit status and everything it printed."""
    done = subprocess.run(
        [tool, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )
    return done.returncode, done.stdout + done.stderr


def bibtex_with_plain_style() -> str:
    """The ``bibtex`` program, when it and its ``plain`` style are installed (else skip)."""
    bibtex = shutil.which("bibtex")
    if bibtex is None:
        pytest.skip("bibtex is not installed (Debian: apt-get install texlive-binaries)")
    kpsewhich = shutil.which("kpsewhich")
    found = (
        kpsewhich
        and subprocess.run(
            [kpsewhich, "plain.bst"], capture_output=True, text=True, check=False
        ).stdout.strip()
    )
    if not found:
        pytest.skip("BibTeX's plain.bst is not installed (Debian: apt-get install texlive-base)")
    return bibtex


def typeset(bib: str, folder: Path, cited: Sequence[str] = ("*",)) -> str:
    """The ``.bbl`` BibTeX makes of the entries of ``bib`` a document cites (``cited``: the
    keys of its ``\\cite``s; every entry by default) with the ``plain`` style; the test fails
    when BibTeX fails or complains (a key cited that the file lacks, say)."""
    bibtex = bibtex_with_plain_style()
    (folder / "refs.bib").write_text(bib, encoding="utf-8")
    citations = "".join(f"\\citation{{{key}}}\n" for key in cited)
    (folder / "refs.aux").write_text(
        f"\\relax\n{citations}\\bibstyle{{plain}}\n\\bibdata{{refs}}\n", encoding="utf-8"
    )
    code, output = run_tool(bibtex, "refs", cwd=folder)
    log = output + (folder / "refs.blg").read_text(encoding="utf-8", errors="replace")
    assert code == 0, log
    complaints = [
        line for line in log.splitlines() if COMPLAINT.search(line) and not STATISTIC.match(line)
    ]
    assert not complaints, log
    return (folder / "refs.bbl").read_text(encoding="utf-8")
