"""Turn the bytes of a saved author page into text, detecting the encoding and binary data."""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field

from refman.importers.messages import not_a_page

__all__ = ["BINARY_REASON", "CP1252_WARNING", "MIXED_WARNING", "DecodedText", "decode_bytes"]

#: Reason given when bytes are not text at all.
BINARY_REASON = "the file looks like binary data, not text"
#: Warning added when the bytes had to be read as Windows-1252.
CP1252_WARNING = (
    "The file is not UTF-8; it was read as Windows-1252 (cp1252). Check accented letters."
)
#: Warning added when some lines of a UTF-8 file had to be read as Windows-1252.
MIXED_WARNING = (
    "The file is UTF-8 but for {lines} (the first is line {first}), read as Windows-1252 "
    "(cp1252). Check their accented letters."
)
_REPLACED_WARNING = (
    "Some bytes of the file are not valid {name}; they were replaced by the symbol �."
)
# Share of control characters (or undecodable bytes) above which the data is not text.
_MAX_CONTROL_RATIO = 0.05
_SAMPLE = 1 << 16
_TEXT_CONTROLS = frozenset("\t\n\r\f\v\x1b")


@dataclass(frozen=True, slots=True)
class DecodedText:
    """Text decoded from bytes.

    Attributes:
        text: The decoded text, without a byte-order mark.
        encoding: Codec used, e.g. "utf-8", "utf-8-sig", "utf-16-le", "cp1252".
        warnings: Plain sentences about the decoding (guessed encoding, replaced bytes).
    """

    text: str
    encoding: str
    warnings: list[str] = field(default_factory=list)


def _looks_binary(text: str) -> bool:
    """Return True when too many characters of ``text`` are controls or replacement marks."""
    sample = text[:_SAMPLE]
    if not sample:
        return False
    if "\x00" in sample:
        return True
    bad = sum(
        1
        for char in sample
        if char == "\ufffd" or (char < " " and char not in _TEXT_CONTROLS) or char == "\x7f"
    )
    return bad / len(sample) > _MAX_CONTROL_RATIO


def _bom_less_utf16(data: bytes) -> str | None:
    """Return the codec of BOM-less UTF-16 data (NULs in alternate bytes), if it looks so."""
    if len(data) < 4 or len(data) % 2:
        return None
    sample = data[: _SAMPLE * 2]
    even_nuls = sample[0::2].count(0)
    odd_nuls = sample[1::2].count(0)
    half = len(sample) // 2
    if odd_nuls >= 0.3 * half and even_nuls <= 0.02 * half:
        return "utf-16-le"
    if even_nuls >= 0.3 * half and odd_nuls <= 0.02 * half:
        return "utf-16-be"
    return None


def _decode_with(data: bytes, codec: str, name: str) -> DecodedText:
    """Decode ``data`` with ``codec``; on failure replace bad bytes and add a warning."""
    try:
        return DecodedText(data.decode(codec), codec)
    except UnicodeDecodeError:
        text = data.decode(codec, errors="replace")
        return DecodedText(text, codec, [_REPLACED_WARNING.format(name=name)])


def _decode_unchecked(data: bytes) -> DecodedText:
    """Decode ``data`` by byte-order mark, then UTF-8, then cp1252, without the binary check."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)) and len(data) % 4 == 0:
        decoded = _decode_with(data, "utf-32", "UTF-32")
        codec = "utf-32-le" if data.startswith(codecs.BOM_UTF32_LE) else "utf-32-be"
        return DecodedText(decoded.text, codec, decoded.warnings)
    if data.startswith(codecs.BOM_UTF8):
        return _decode_with(data, "utf-8-sig", "UTF-8")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        codec = "utf-16-le" if data.startswith(codecs.BOM_UTF16_LE) else "utf-16-be"
        decoded = _decode_with(data[2:], codec, "UTF-16")
        return decoded
    if b"\x00" in data:
        codec16 = _bom_less_utf16(data)
        if codec16 is None:
            raise not_a_page(BINARY_REASON)
        return _decode_with(data, codec16, "UTF-16")
    try:
        return DecodedText(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        return _utf8_or_cp1252(data)


def _utf8_or_cp1252(data: bytes) -> DecodedText:
    """Decode each line of ``data`` as UTF-8 when it is UTF-8, else as cp1252.

    A bibliography kept for years (a JabRef file, say) may hold entries written in UTF-8 and
    a few pasted in Windows-1252: each line is read as what it is, so the UTF-8 ones keep
    their accents. A file with no UTF-8 line but ASCII ones is read as cp1252 throughout.
    """
    pieces: list[str] = []
    foreign: list[int] = []  # the 1-based lines read as cp1252
    utf8 = False
    for number, line in enumerate(data.splitlines(keepends=True), start=1):
        try:
            pieces.append(line.decode("utf-8"))
            utf8 = utf8 or not line.isascii()
        except UnicodeDecodeError:
            pieces.append(line.decode("cp1252", errors="replace"))
            foreign.append(number)
    if not utf8:
        return DecodedText(data.decode("cp1252", errors="replace"), "cp1252", [CP1252_WARNING])
    lines = f"{len(foreign)} lines" if len(foreign) > 1 else "1 line"
    warning = MIXED_WARNING.format(lines=lines, first=foreign[0])
    return DecodedText("".join(pieces), "utf-8", [warning])


def decode_bytes(data: bytes) -> DecodedText:
    """Decode the bytes of an author page.

    Tries, in order: a byte-order mark (UTF-8, UTF-16 LE/BE, UTF-32), BOM-less UTF-16, strict
    UTF-8, UTF-8 with the lines that are not UTF-8 read as Windows-1252, and finally
    Windows-1252; the last two with a warning.

    Args:
        data: The raw file content.

    Returns:
        The decoded text, the codec used and any warnings.

    Raises:
        NotAnAuthorPageError: The data is binary (NUL bytes outside UTF-16, or many control
            characters).
    """
    decoded = _decode_unchecked(data)
    text = decoded.text.removeprefix("\ufeff")
    if _looks_binary(text):
        raise not_a_page(BINARY_REASON)
    return DecodedText(text, decoded.encoding, decoded.warnings)
