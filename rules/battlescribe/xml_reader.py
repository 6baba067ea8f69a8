"""Hardened reading of BattleScribe files: plain XML or a zip holding one XML file.

Everything a user uploads passes through here before any other code sees it, so every
limit lives here: the size of an upload, the size and compression ratio of a zip member,
and an XML parser (defusedxml) that refuses DTDs, entity declarations and external
references, which rules out "billion laughs" and XXE without relying on parser defaults.
Errors are `BattleScribeError`s whose messages name the file (and element or line).
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

#: Largest upload accepted per file (compressed or not).
MAX_FILE_BYTES = 32 * 1024 * 1024
#: Largest XML text a file may expand to (a zip member after decompression). The parsed tree
#: takes about 15 times the text, so this and the total below keep an import under ~300 MB;
#: the largest real catalogues are well below it.
MAX_XML_BYTES = 16 * 1024 * 1024
#: Largest XML text of all the files of one import together.
MAX_TOTAL_XML_BYTES = 20 * 1024 * 1024
#: Largest decompressed/compressed ratio of a zip member (real catalogues compress ~10×).
MAX_ZIP_RATIO = 100
#: Deepest nesting of elements a file may have. The 240 public catalogues, game systems and
#: rosters read for issue 38 nest at most 21 deep; the readers walk entries recursively, and a
#: file nested 200,000 deep ended in a RecursionError the import could only call "failed".
MAX_XML_DEPTH = 200
#: Most files one import may take.
MAX_FILES = 64
#: XML files inside a BattleScribe zip carry these suffixes.
XML_SUFFIXES = (".gst", ".cat", ".ros", ".xml")
ZIP_SUFFIXES = (".gstz", ".catz", ".rosz", ".zip")
_CHUNK = 1024 * 1024


class BattleScribeError(Exception):
    """Input that cannot be imported; `errors` lists every problem as "file: where: message"."""

    def __init__(self, errors: list[str]):
        self.errors = list(errors)
        super().__init__("\n".join(self.errors))


@dataclass(frozen=True)
class SourceFile:
    """One uploaded file: its name (for messages and its kind) and its raw bytes."""

    name: str
    data: bytes


def local_name(tag: str) -> str:
    """`{namespace}catalogue` -> `catalogue` (BattleScribe files carry one default namespace)."""
    return tag.rsplit("}", 1)[-1]


def xml_bytes(source: SourceFile) -> bytes:
    """The XML text of `source`, unzipped when it is a zip, within the size and ratio limits."""
    if len(source.data) > MAX_FILE_BYTES:
        raise BattleScribeError(
            [f"{source.name}: the file is {len(source.data)} bytes; the limit is {MAX_FILE_BYTES} bytes"]
        )
    if not source.data.startswith(b"PK"):
        if source.name.lower().endswith(ZIP_SUFFIXES):
            raise BattleScribeError([f"{source.name}: not a zip archive"])
        return source.data
    try:
        archive = zipfile.ZipFile(io.BytesIO(source.data))
    except (zipfile.BadZipFile, ValueError) as exc:
        raise BattleScribeError([f"{source.name}: not a readable zip archive ({exc})"]) from None
    members = [m for m in archive.infolist() if not m.is_dir()]
    xml_members = [m for m in members if m.filename.lower().endswith(XML_SUFFIXES)] or members
    if len(xml_members) != 1:
        raise BattleScribeError(
            [
                f"{source.name}: a BattleScribe zip holds exactly one XML file, "
                f"this one holds {len(xml_members)}"
            ]
        )
    member = xml_members[0]
    if member.file_size > MAX_XML_BYTES:
        raise BattleScribeError(
            [
                f"{source.name}: {member.filename} expands to {member.file_size} bytes; "
                f"the limit is {MAX_XML_BYTES}"
            ]
        )
    if member.compress_size and member.file_size / member.compress_size > MAX_ZIP_RATIO:
        raise BattleScribeError(
            [
                f"{source.name}: {member.filename} is compressed "
                f"{member.file_size // member.compress_size}:1, "
                f"more than {MAX_ZIP_RATIO}:1 (a zip bomb?)"
            ]
        )
    # The sizes in the directory can lie: count what really comes out, and stop at the cap.
    out = bytearray()
    try:
        with archive.open(member) as stream:
            while chunk := stream.read(_CHUNK):
                out += chunk
                if len(out) > MAX_XML_BYTES or len(out) > MAX_ZIP_RATIO * max(member.compress_size, 1):
                    raise BattleScribeError(
                        [f"{source.name}: {member.filename} expands beyond the limits (a zip bomb?)"]
                    )
    except (zipfile.BadZipFile, EOFError, OSError, RuntimeError, NotImplementedError) as exc:
        raise BattleScribeError([f"{source.name}: {member.filename} cannot be unzipped ({exc})"]) from None
    return bytes(out)


def parse(source: SourceFile, text: bytes | None = None) -> Element:
    """The root element of `source` (or of its already unzipped `text`); DTDs, entities and
    external references are refused."""
    text = xml_bytes(source) if text is None else text
    try:
        root = fromstring(text, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise BattleScribeError(
            [
                f"{source.name}: refused: {type(exc).__name__} "
                "(DTDs, entities and external references are not allowed)"
            ]
        ) from None
    except ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        raise BattleScribeError(
            [f"{source.name}: line {line}, column {column}: malformed XML ({exc})"]
        ) from None
    if _deeper_than(root, MAX_XML_DEPTH):
        raise BattleScribeError(
            [f"{source.name}: elements nest deeper than the limit of {MAX_XML_DEPTH} levels"]
        )
    return root


def _deeper_than(root: Element, limit: int) -> bool:
    """Whether any element lies more than `limit` levels below the root (walked without
    recursion, so the check itself never overflows the stack)."""
    stack = [(root, 1)]
    while stack:
        element, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in element)
    return False
