"""Writes editable game data (`gamedata.DataNode`) as BattleScribe 2.03 XML, and reads it back.

The output is what BattleScribe's own editor saves: the same element and attribute order, the
defaults it fills in on load (`hidden="false"`, `import="true"`, a query's flags), numbers of
constraints, conditions, repeats and costs as Java doubles (`2.0`), and entities for quotes in
text. A file written here and read back gives the same tree, which is what "reload" means.
Reading goes through the hardened XML reader (no DTDs or entities).
"""

from __future__ import annotations

from xml.etree.ElementTree import Element
from xml.sax.saxutils import escape

from ..xml_reader import SourceFile, local_name, parse
from .gamedata import TEXT_FIELDS, DataFiles, DataNode, field_text

NAMESPACES = {
    "catalogue": "http://www.battlescribe.net/schema/catalogueSchema",
    "gameSystem": "http://www.battlescribe.net/schema/gameSystemSchema",
}
_QUERY = ["field", "scope", "value", "percentValue", "shared", "includeChildSelections", "includeChildForces"]
#: Attribute order per element, as BattleScribe writes it; others follow in the order set.
ATTRIBUTE_ORDER: dict[str, list[str]] = {
    "catalogue": [
        "id",
        "name",
        "revision",
        "battleScribeVersion",
        "authorName",
        "authorContact",
        "authorUrl",
        "library",
        "gameSystemId",
        "gameSystemRevision",
    ],
    "gameSystem": [
        "id",
        "name",
        "revision",
        "battleScribeVersion",
        "authorName",
        "authorContact",
        "authorUrl",
    ],
    "selectionEntry": ["id", "name", "publicationId", "page", "hidden", "collective", "import", "type"],
    "selectionEntryGroup": [
        "id",
        "name",
        "publicationId",
        "page",
        "hidden",
        "collective",
        "import",
        "defaultSelectionEntryId",
    ],
    "entryLink": [
        "id",
        "name",
        "publicationId",
        "page",
        "hidden",
        "collective",
        "import",
        "targetId",
        "type",
    ],
    "infoLink": ["id", "name", "publicationId", "page", "hidden", "targetId", "type"],
    "categoryLink": ["id", "name", "publicationId", "page", "hidden", "targetId", "primary"],
    "catalogueLink": ["id", "name", "targetId", "type", "importRootEntries"],
    "rule": ["id", "name", "publicationId", "page", "hidden"],
    "profile": ["id", "name", "publicationId", "page", "hidden", "typeId", "typeName"],
    "infoGroup": ["id", "name", "publicationId", "page", "hidden"],
    "forceEntry": ["id", "name", "publicationId", "page", "hidden"],
    "categoryEntry": ["id", "name", "publicationId", "page", "hidden"],
    "costType": ["id", "name", "defaultCostLimit", "hidden"],
    "publication": ["id", "name", "shortName", "publisher", "publicationDate", "publisherUrl"],
    "constraint": [*_QUERY, "id", "type"],
    "condition": [*_QUERY, "childId", "type"],
    "repeat": [*_QUERY, "childId", "repeats", "roundUp"],
    "modifier": ["type", "field", "value"],
    "conditionGroup": ["type"],
}
#: Attributes BattleScribe fills in when it loads an element without them.
LOAD_DEFAULTS: dict[str, dict[str, str]] = {
    "catalogue": {
        "revision": "1",
        "battleScribeVersion": "2.03",
        "library": "false",
        "gameSystemRevision": "1",
    },
    "gameSystem": {"revision": "1", "battleScribeVersion": "2.03"},
    "selectionEntry": {"hidden": "false", "collective": "false", "import": "true"},
    "selectionEntryGroup": {"hidden": "false", "collective": "false", "import": "true"},
    "entryLink": {"hidden": "false", "collective": "false", "import": "true"},
    "infoLink": {"hidden": "false"},
    "categoryLink": {"hidden": "false", "primary": "false"},
    "catalogueLink": {"type": "catalogue", "importRootEntries": "false"},
    "rule": {"hidden": "false"},
    "profile": {"hidden": "false"},
    "infoGroup": {"hidden": "false"},
    "forceEntry": {"hidden": "false"},
    "categoryEntry": {"hidden": "false"},
    "costType": {"defaultCostLimit": "-1.0", "hidden": "false"},
    **{
        kind: {
            "percentValue": "false",
            "shared": "false",
            "includeChildSelections": "false",
            "includeChildForces": "false",
        }
        for kind in ("constraint", "condition", "repeat")
    },
}
LOAD_DEFAULTS["repeat"] = {**LOAD_DEFAULTS["repeat"], "repeats": "1", "roundUp": "false"}
#: Attributes written as Java doubles.
DOUBLE_FIELDS = {
    "constraint": {"value"},
    "condition": {"value"},
    "repeat": {"value"},
    "costType": {"defaultCostLimit"},
}
#: Child containers of a file's root, in BattleScribe's order.
ROOT_ORDER = [
    "publications",
    "costTypes",
    "profileTypes",
    "categoryEntries",
    "forceEntries",
    "selectionEntries",
    "entryLinks",
    "rules",
    "infoLinks",
    "sharedSelectionEntries",
    "sharedSelectionEntryGroups",
    "sharedRules",
    "sharedProfiles",
    "sharedInfoGroups",
    "catalogueLinks",
]
#: Child containers of any other element, in BattleScribe's order.
ENTRY_ORDER = [
    "repeats",
    "conditions",
    "conditionGroups",
    "modifiers",
    "modifierGroups",
    "constraints",
    "characteristicTypes",
    "profiles",
    "rules",
    "infoGroups",
    "infoLinks",
    "forceEntries",
    "categoryLinks",
    "selectionEntries",
    "selectionEntryGroups",
    "entryLinks",
]


def java_double(text: str) -> str:
    """`2` -> `2.0`, `0.5` -> `0.5` (how Java prints a double); text that is no number stays."""
    try:
        number = float(text)
    except ValueError:
        return text
    return repr(number) if abs(number) < 1e7 else text


def _attr(value: str) -> str:
    return escape(value, {'"': "&quot;"})


def _attributes(node: DataNode) -> list[tuple[str, str]]:
    attrs = {k: v for k, v in node.attrs.items() if k not in TEXT_FIELDS}
    for key, value in LOAD_DEFAULTS.get(node.kind, {}).items():
        attrs.setdefault(key, value)
    doubles = DOUBLE_FIELDS.get(node.kind, set())
    order = ATTRIBUTE_ORDER.get(node.kind, [])
    keys = [k for k in order if k in attrs] + [k for k in attrs if k not in order]
    return [(k, java_double(attrs[k]) if k in doubles else attrs[k]) for k in keys]


def _containers(node: DataNode) -> list[str]:
    order = ROOT_ORDER if node.parent is None else ENTRY_ORDER
    present: list[str] = []
    for child in node.children:
        if child.container not in present:
            present.append(child.container)
    return [c for c in order if c in present] + [c for c in present if c not in order]


def _entry_costs(node: DataNode, cost_types: dict[str, str]) -> list[tuple[str, str, str]]:
    """(name, typeId, value) of a selection entry's costs as BattleScribe saves them: its own
    costs with the cost type's name, then a zero for every other cost type, by id."""
    if node.kind != "selectionEntry" or not cost_types:
        return [(c.name, c.type_id, c.value) for c in node.costs]
    own = [(cost_types.get(c.type_id, c.name), c.type_id, c.value) for c in node.costs]
    have = {c.type_id for c in node.costs}
    return own + [(cost_types[t], t, "0") for t in sorted(cost_types) if t not in have]


def write_node(
    node: DataNode,
    indent: str,
    lines: list[str],
    root: bool = False,
    cost_types: dict[str, str] | None = None,
) -> None:
    attrs = " ".join(f'{k}="{_attr(v)}"' for k, v in _attributes(node))
    if root:
        attrs += f' xmlns="{NAMESPACES.get(node.kind, NAMESPACES["catalogue"])}"'
    head = f"{indent}<{node.kind}" + (f" {attrs}" if attrs else "")
    inner = indent + "  "
    body: list[str] = []
    for text_field in TEXT_FIELDS:
        if node.attrs.get(text_field):
            body.append(f"{inner}<{text_field}>{_attr(node.attrs[text_field])}</{text_field}>")
    for container in _containers(node):
        body.append(f"{inner}<{container}>")
        for child in node.in_container(container):
            write_node(child, inner + "  ", body, cost_types=cost_types)
        body.append(f"{inner}</{container}>")
    if node.characteristics:
        body.append(f"{inner}<characteristics>")
        for c in node.characteristics:
            head_c = f'<characteristic name="{_attr(c.name)}" typeId="{_attr(c.type_id)}">'
            body.append(f"{inner}  {head_c}{_attr(c.value)}</characteristic>")
        body.append(f"{inner}</characteristics>")
    costs = _entry_costs(node, cost_types or {})
    if costs:
        body.append(f"{inner}<costs>")
        for name, type_id, value in costs:
            cost = f'<cost name="{_attr(name)}" typeId="{_attr(type_id)}" value="{java_double(value)}"/>'
            body.append(f"{inner}  {cost}")
        body.append(f"{inner}</costs>")
    if body:
        lines.append(head + ">")
        lines.extend(body)
        lines.append(f"{indent}</{node.kind}>")
    else:
        lines.append(head + "/>")


def write_file(node: DataNode, data: DataFiles | None = None) -> str:
    """The file `node` (a game system or catalogue) as BattleScribe XML text; with `data`, its
    selection entries carry a cost for every cost type of the game system and the file."""
    cost_types: dict[str, str] = {}
    if data is not None:
        for f in (data.game_system(), node):
            if f is not None:
                for ct in f.in_container("costTypes"):
                    cost_types[ct.id] = ct.attrs.get("name", "")
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>']
    write_node(node, "", lines, root=True, cost_types=cost_types)
    return "\n".join(lines) + "\n"


def element_to_raw(element: Element) -> dict:
    """An XML element in the suite's dict form (containers as lists, text fields as strings)."""
    out: dict = dict(element.attrib)
    for child in element:
        tag = local_name(child.tag)
        if tag in TEXT_FIELDS:
            out[tag] = child.text or ""
        elif tag == "costs":
            out["costs"] = [dict(c.attrib) for c in child]
        elif tag == "characteristics":
            out["characteristics"] = [{**c.attrib, "value": c.text or ""} for c in child]
        else:
            out[tag] = [element_to_raw(grand) for grand in child]
    return out


def read_file(data: DataFiles, text: str, name: str = "data.cat") -> DataNode:
    """A file node from BattleScribe XML text (its kind from the root element)."""
    root = parse(SourceFile(name, text.encode("utf-8")))
    return data.node_from_dict(local_name(root.tag), "", element_to_raw(root))


def reload(data: DataFiles) -> None:
    """Save the open file and read it back in its place (BattleScribe's round trip)."""
    if data.active is None:
        return
    node = read_file(data, write_file(data.active, data))
    index = data.files.index(data.active)
    data.files[index] = node
    data.active = node


__all__ = ["field_text", "read_file", "reload", "write_file"]
