"""BattleScribe XML (.gst/.cat, read by the hardened `xml_reader`) in the engine's dict shape.

The conformance suite writes data as YAML with the XML's own names: attributes become keys,
a plural container element (`<constraints>`, `<selectionEntries>`…) becomes a list of its
children, and a text element (`<description>`) becomes a string. This turns an XML element
into exactly that, so `GameData` loads both forms through one path.
"""

from __future__ import annotations

from xml.etree.ElementTree import Element

from ..xml_reader import SourceFile, local_name, parse
from .model import GameData

#: BattleScribe 2.01 files (BSData's AoS at v1.50.9) name the type of a cost, profile or
#: characteristic `costTypeId`, `profileTypeId`, `characteristicTypeId`; 2.03 calls each
#: `typeId`, the name the engine reads.
_LEGACY_TYPE_IDS = {
    "cost": "costTypeId",
    "profile": "profileTypeId",
    "characteristic": "characteristicTypeId",
}
#: Their profile's type name, written `profileTypeName` by 2.01 and `typeName` by 2.03.
_LEGACY_TYPE_NAMES = {"profile": "profileTypeName"}


def element_to_dict(element: Element) -> dict:
    """`element` in the suite's dict shape. A characteristic's value is its text (2.02+), or its
    `value` attribute in a 2.01 file, under `value`, the key the suite's YAML gives it."""
    out: dict = dict(element.attrib)
    tag = local_name(element.tag)
    legacy = _LEGACY_TYPE_IDS.get(tag)
    if legacy is not None and "typeId" not in out and legacy in out:
        out["typeId"] = out.pop(legacy)
    legacy_name = _LEGACY_TYPE_NAMES.get(tag)
    if legacy_name is not None and "typeName" not in out and legacy_name in out:
        out["typeName"] = out.pop(legacy_name)
    if tag == "characteristic":
        out["value"] = (element.text or "").strip() or str(out.get("value", "")).strip()
    for child in element:
        tag = local_name(child.tag)
        if len(child) == 0 and not child.attrib:
            text = (child.text or "").strip()
            if tag.endswith("s") and not text:
                out[tag] = []
            else:
                out[tag] = text
            continue
        if not child.attrib and tag.endswith("s"):
            out[tag] = [element_to_dict(grand) for grand in child]
        else:
            out[tag] = element_to_dict(child)
    return out


def load_files(game_system: SourceFile, catalogues: list[SourceFile]) -> GameData:
    """A `GameData` from a .gst and its .cat files (read with the hardened XML reader)."""
    gs = element_to_dict(parse(game_system))
    cats = [element_to_dict(parse(c)) for c in catalogues]
    return GameData(gs, cats)
