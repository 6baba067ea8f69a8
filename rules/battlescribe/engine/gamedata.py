"""Editable BattleScribe game data: a game system and its catalogues as one tree of nodes.

The roster engine (`model.GameData`) reads data and never changes it. A data editor — and the
conformance suite's gamedata specs, which drive one — needs the data itself as the thing that
changes: add an entry under any parent, set its fields, costs and characteristics, link it,
remove it, save it to BattleScribe XML and read it back, and report the data errors
BattleScribe reports (links to nothing, unknown scopes or fields, repeated ids). This module
keeps that tree and those operations; `gamedata_xml` writes and reads the files,
`gamedata_checks` finds the errors. It is pure (no Django), like the rest of the engine.

A node keeps its scalar fields as the strings the files hold (`hidden="true"`, `value="3"`),
its costs by cost type id and its characteristics in order; every other child node sits in a
named container (`selectionEntries`, `sharedRules`, `constraints`…), as in the XML.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import count

from .errors import EngineError

#: Fields held as a text element in the XML rather than an attribute.
TEXT_FIELDS = ("comment", "readme", "description")
#: The field spelling the suite uses for the XML `import` attribute.
FIELD_ALIASES = {"imported": "import"}
#: Root elements of a data file.
ROOT_KINDS = ("gameSystem", "catalogue")
#: Node kinds that carry an `id` attribute in the XML (the others are addressed only here).
KINDS_WITH_ID = frozenset(
    {
        "selectionEntry",
        "selectionEntryGroup",
        "entryLink",
        "infoLink",
        "categoryLink",
        "catalogueLink",
        "rule",
        "profile",
        "infoGroup",
        "forceEntry",
        "categoryEntry",
        "costType",
        "profileType",
        "characteristicType",
        "publication",
        "constraint",
        "association",
        "attributeType",
    }
)
#: Fields a new node of a kind starts with (what BattleScribe's editor fills in).
DEFAULTS: dict[str, dict[str, str]] = {
    "selectionEntry": {"hidden": "false", "collective": "false", "import": "true", "type": "upgrade"},
    "selectionEntryGroup": {"hidden": "false", "collective": "false", "import": "true"},
    "entryLink": {"hidden": "false", "collective": "false", "import": "true", "type": "selectionEntry"},
    "infoLink": {"hidden": "false"},
    "categoryLink": {"hidden": "false", "primary": "false"},
    "catalogueLink": {"type": "catalogue", "importRootEntries": "false"},
    "rule": {"hidden": "false"},
    "profile": {"hidden": "false"},
    "infoGroup": {"hidden": "false"},
    "forceEntry": {"hidden": "false"},
    "categoryEntry": {"hidden": "false"},
    "costType": {"defaultCostLimit": "-1.0", "hidden": "false"},
    "constraint": {
        "field": "selections",
        "scope": "parent",
        "value": "0.0",
        "percentValue": "false",
        "shared": "true",
        "includeChildSelections": "false",
        "includeChildForces": "false",
        "type": "min",
    },
    "condition": {
        "field": "selections",
        "scope": "parent",
        "value": "0.0",
        "percentValue": "false",
        "shared": "true",
        "includeChildSelections": "false",
        "includeChildForces": "false",
        "type": "lessThan",
    },
    "repeat": {
        "field": "selections",
        "scope": "parent",
        "value": "1.0",
        "percentValue": "false",
        "shared": "true",
        "includeChildSelections": "false",
        "includeChildForces": "false",
        "repeats": "1",
        "roundUp": "false",
    },
    "modifier": {"type": "set", "field": "", "value": ""},
    "conditionGroup": {"type": "and"},
}
#: Containers whose node kind is not the container name less its plural ending.
_CONTAINER_KINDS = {
    "sharedSelectionEntries": "selectionEntry",
    "sharedSelectionEntryGroups": "selectionEntryGroup",
    "sharedRules": "rule",
    "sharedProfiles": "profile",
    "sharedInfoGroups": "infoGroup",
    "sharedForceEntries": "forceEntry",
    "sharedAssociations": "association",
}


#: Containers a file root holds only in their shared form.
_ROOT_SHARED_ONLY = frozenset({"selectionEntryGroups", "profiles", "infoGroups"})


class DataEditError(EngineError):
    """An edit that cannot be made (unknown parent or entry); the message names it."""


def container_kind(container: str) -> str:
    """The node kind a container holds: `selectionEntries` -> `selectionEntry`."""
    if container in _CONTAINER_KINDS:
        return _CONTAINER_KINDS[container]
    if container.endswith("ies"):
        return container[:-3] + "y"
    return container[:-1] if container.endswith("s") else container


def container_for(entry_type: str) -> tuple[str, str]:
    """(container, kind) for an `addEntry` type: `sharedRule` -> (`sharedRules`, `rule`)."""
    plural = entry_type[:-1] + "ies" if entry_type.endswith("y") else entry_type + "s"
    if entry_type.startswith("shared") and len(entry_type) > 6:
        rest = entry_type[6:]
        return plural, rest[0].lower() + rest[1:]
    return plural, entry_type


def field_text(value) -> str:
    """A field value as the files spell it (booleans lower-case, whole floats without `.0`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass(eq=False)
class Characteristic:
    name: str
    type_id: str
    value: str


@dataclass(eq=False)
class Cost:
    name: str
    type_id: str
    value: str


@dataclass(eq=False)
class DataNode:
    """One element of a data file: its kind, fields, costs, characteristics and child nodes."""

    kind: str
    container: str
    handle: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[DataNode] = field(default_factory=list)
    costs: list[Cost] = field(default_factory=list)
    characteristics: list[Characteristic] = field(default_factory=list)
    parent: DataNode | None = None

    @property
    def id(self) -> str:
        return self.attrs.get("id", "")

    @property
    def hidden(self) -> bool:
        return self.attrs.get("hidden") == "true"

    def in_container(self, container: str) -> list[DataNode]:
        return [c for c in self.children if c.container == container]

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def root(self) -> DataNode:
        node = self
        while node.parent is not None:
            node = node.parent
        return node


class DataFiles:
    """A game system and its catalogues, editable; one of them is the open (active) file."""

    def __init__(self, game_system: dict | None = None, catalogues: list[dict] | None = None):
        self._ids = count(1)
        self.files: list[DataNode] = []
        if game_system:
            self.files.append(self.node_from_dict("gameSystem", "", game_system))
        for cat in catalogues or []:
            self.files.append(self.node_from_dict("catalogue", "", cat))
        self.active: DataNode | None = self.files[0] if self.files else None

    # -- building ------------------------------------------------------------------------
    def _new_handle(self) -> str:
        n = next(self._ids)
        return f"gd{n:04x}-{n * 7919 % 65536:04x}-{n * 104729 % 65536:04x}-{n * 1299709 % 65536:04x}"

    def node_from_dict(
        self, kind: str, container: str, raw: dict, parent: DataNode | None = None
    ) -> DataNode:
        """A node (and its subtree) from the suite's dict form of an element."""
        node = DataNode(kind, container, "", parent=parent)
        for key, value in raw.items():
            if key == "costs" and isinstance(value, list):
                for c in value:
                    node.costs.append(
                        Cost(str(c.get("name", "")), str(c.get("typeId", "")), field_text(c.get("value", 0)))
                    )
            elif key == "characteristics" and isinstance(value, list):
                for c in value:
                    node.characteristics.append(
                        Characteristic(
                            str(c.get("name", "")), str(c.get("typeId", "")), field_text(c.get("value"))
                        )
                    )
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, dict):
                        node.children.append(self.node_from_dict(container_kind(key), key, item, node))
            elif isinstance(value, dict):
                continue
            else:
                node.attrs[FIELD_ALIASES.get(key, key)] = field_text(value)
        node.handle = node.attrs.get("id") or self._new_handle()
        return node

    # -- finding -------------------------------------------------------------------------
    def all_nodes(self):
        for f in self.files:
            yield from f.walk()

    def find(self, handle: str) -> DataNode:
        for node in self.all_nodes():
            if node.handle == handle or node.attrs.get("id") == handle:
                return node
        raise DataEditError(f"No entry with id {handle!r} in the data")

    def file(self, file_id: str) -> DataNode:
        for f in self.files:
            if f.id == file_id:
                return f
        raise DataEditError(f"No game system or catalogue with id {file_id!r}")

    def game_system(self) -> DataNode | None:
        return next((f for f in self.files if f.kind == "gameSystem"), None)

    def catalogues(self) -> list[DataNode]:
        return [f for f in self.files if f.kind == "catalogue"]

    # -- editing -------------------------------------------------------------------------
    def open_file(self, file_id: str) -> DataNode:
        self.active = self.file(file_id)
        return self.active

    def load_file(self, node: DataNode) -> DataNode:
        """Add (or replace, by id) a file read from XML and open it."""
        self.files = [f for f in self.files if f.id != node.id or f.kind != node.kind]
        self.files.append(node)
        self.active = node
        return node

    def add_entry(
        self, parent_id: str, entry_type: str, name: str | None = None, new_id: str | None = None
    ) -> DataNode:
        """A new node of `entry_type` under `parent_id`, with BattleScribe's default fields."""
        parent = self.find(parent_id)
        container, kind = container_for(entry_type)
        if parent.parent is None and container in _ROOT_SHARED_ONLY:
            container = "shared" + container[0].upper() + container[1:]
        node = DataNode(kind, container, "", attrs={}, parent=parent)
        if kind in KINDS_WITH_ID or new_id:
            node.attrs["id"] = new_id or self._new_handle()
        if name is not None:
            node.attrs["name"] = name
        elif kind in KINDS_WITH_ID and kind not in ("constraint", "association"):
            node.attrs["name"] = ""
        for key, value in DEFAULTS.get(kind, {}).items():
            node.attrs.setdefault(key, value)
        if kind == "selectionEntry" and parent.kind == "selectionEntry" and container == "selectionEntries":
            node.attrs["type"] = "upgrade"
        node.handle = node.attrs.get("id") or self._new_handle()
        parent.children.append(node)
        return node

    def add_link(self, parent_id: str, link_type: str, target_id: str, new_id: str | None = None) -> DataNode:
        """A link (entry, info, category or catalogue link) to `target_id` under `parent_id`."""
        node = self.add_entry(parent_id, link_type, None, new_id)
        node.attrs["targetId"] = target_id
        target = next((n for n in self.all_nodes() if n.id == target_id), None)
        if target is not None:
            if link_type in ("entryLink", "infoLink") and target.kind in (
                "selectionEntry",
                "selectionEntryGroup",
                "profile",
                "rule",
                "infoGroup",
            ):
                node.attrs["type"] = target.kind
            if target.attrs.get("name") and not node.attrs.get("name"):
                node.attrs["name"] = target.attrs["name"]
        return node

    def remove_entry(self, handle: str) -> None:
        node = self.find(handle)
        if node.parent is None:
            raise DataEditError(f"{handle!r} is a whole file, not an entry")
        node.parent.children.remove(node)

    def set_fields(
        self,
        handle: str,
        fields: dict | None = None,
        costs: dict | None = None,
        characteristics: dict | None = None,
    ) -> DataNode:
        """Set scalar fields, then costs (by cost type id or name), then characteristics."""
        node = self.find(handle)
        for key, value in (fields or {}).items():
            key = FIELD_ALIASES.get(str(key), str(key))
            text = field_text(value)
            if key == "id" and not text:
                raise DataEditError("An id cannot be empty")
            node.attrs[key] = text
            if key == "id":
                node.handle = text
            if key == "typeId" and node.kind == "profile":
                ptype = self._by_id(text, "profileType")
                if ptype is not None:
                    node.attrs["typeName"] = ptype.attrs.get("name", "")
        for key, value in (costs or {}).items():
            ctype = self._by_id(str(key), "costType") or self._by_name(str(key), "costType")
            type_id = ctype.id if ctype is not None else str(key)
            name = ctype.attrs.get("name", "") if ctype is not None else str(key)
            text = field_text(value)
            hit = next((c for c in node.costs if c.type_id == type_id), None)
            if hit is None:
                node.costs.append(Cost(name, type_id, text))
            else:
                hit.value = text
        for key, value in (characteristics or {}).items():
            name, type_id = self._characteristic_type(node, str(key))
            text = field_text(value)
            hit = next((c for c in node.characteristics if c.type_id == type_id or c.name == name), None)
            if hit is None:
                node.characteristics.append(Characteristic(name, type_id, text))
            else:
                hit.value = text
        return node

    def _by_id(self, node_id: str, kind: str) -> DataNode | None:
        return next((n for n in self.all_nodes() if n.kind == kind and n.id == node_id), None)

    def _by_name(self, name: str, kind: str) -> DataNode | None:
        return next((n for n in self.all_nodes() if n.kind == kind and n.attrs.get("name") == name), None)

    def _characteristic_type(self, profile: DataNode, key: str) -> tuple[str, str]:
        ptype = self._by_id(profile.attrs.get("typeId", ""), "profileType")
        candidates = [c for c in ptype.walk() if c.kind == "characteristicType"] if ptype else []
        for ct in candidates:
            if key in (ct.id, ct.attrs.get("name")):
                return ct.attrs.get("name", key), ct.id
        return key, key
