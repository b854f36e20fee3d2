"""Real PDF files for tests, written with reportlab (text, metadata, several pages), and
made encrypted (pypdf) or damaged (cut short)."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader, PdfWriter
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas


def make_pdf(
    path: Path,
    pages: int = 2,
    *,
    title: str = "A Study of Stragglers",
    lines: tuple[str, ...] = ("Pipeline parallelism loses throughput to stragglers.",),
    author: str = "Zhuo Jiang",
) -> Path:
    """A PDF of ``pages`` pages: the title large at the top of the first, then ``lines``;
    the title and author in its document information."""
    canvas = Canvas(str(path), pagesize=A4)
    canvas.setTitle(title)
    canvas.setAuthor(author)
    width, height = A4
    for page in range(pages):
        if page == 0:
            canvas.setFont("Helvetica-Bold", 20)
            canvas.drawString(72, height - 90, title)
        canvas.setFont("Helvetica", 11)
        for n, line in enumerate(lines):
            canvas.drawString(72, height - 140 - 16 * n, line)
        canvas.drawString(width / 2, 40, str(page + 1))
        canvas.showPage()
    canvas.save()
    return path


def encrypted_pdf(path: Path, password: str = "secret") -> Path:
    """A PDF that opens only with a password."""
    plain = make_pdf(path.with_name(path.stem + "-plain.pdf"))
    writer = PdfWriter(clone_from=PdfReader(plain))
    writer.encrypt(password)
    with path.open("wb") as out:
        writer.write(out)
    plain.unlink()
    return path


def damaged_pdf(path: Path) -> Path:
    """A PDF cut off in the middle (its cross-reference table lost)."""
    whole = make_pdf(path.with_name(path.stem + "-whole.pdf"), pages=3).read_bytes()
    path.write_bytes(whole[: len(whole) // 3])
    path.with_name(path.stem + "-whole.pdf").unlink()
    return path
