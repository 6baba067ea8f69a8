"""The hand-written BattleScribe test files (invented data) and builders of bad input."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from rules.battlescribe.xml_reader import SourceFile

FILES = Path(__file__).resolve().parents[1] / "battlescribe_files"
GRIMDARK = ("grimdark.gst", "armoury.cat", "marines.cat")
OLDWORLD = ("oldworld.gst", "oldworld_spearmen.cat")


def source(name: str) -> SourceFile:
    return SourceFile(name, (FILES / name).read_bytes())


def sources(*names: str) -> list[SourceFile]:
    return [source(n) for n in names]


def zipped(name: str, member: str, data: bytes) -> SourceFile:
    """A .gstz/.catz/.rosz: a zip holding one XML file."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, data)
    return SourceFile(name, buffer.getvalue())


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<gameSystem id="x" name="&lol3;" xmlns="http://www.battlescribe.net/schema/gameSystemSchema"/>"""
EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE gameSystem [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<gameSystem id="x" name="&secret;" xmlns="http://www.battlescribe.net/schema/gameSystemSchema"/>"""
MALFORMED = b"""<?xml version="1.0"?>
<gameSystem id="x" name="broken" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="p" name="pts"></costTypes>
</gameSystem>"""
