"""A BattleScribe 1.x catalogue read as BattleScribe 2 reads it when it opens the old file.

BSData/whfb still holds nine 8th-edition army books written by BattleScribe 1.15 ("Wood Elves -
8thBRB_6thAB.cat", "Tomb Kings - 8thBRB_8thAB.cat"…). Their entries are `<entries>/<entry>`
with the price in a `points` attribute, the category in `categoryId`, and every limit an
attribute (`minSelections`, `maxInRoster`, `maxPoints`… with -1 for none); groups are
`<entryGroups>`, links one `<links>` list told apart by `linkType`, and a modifier carries its
repeat as attributes (`repeat`, `incrementParentId`…). `convert_catalogue` turns that dict shape
(`xmlform.element_to_dict` of the file's root) into the 2.x one, element by element as
BattleScribe 2 writes it. The shapes and ids are those of BattleScribe's own conversions of
sibling books in BSData/whfb's history (Dark Elves "migrate to BS v2.03.12", Warriors of Chaos,
Ogre Kingdoms and Skaven 1.15 → 2.0x):

- `entry` → `selectionEntry` (same id, name, type, hidden, collective, page), its `points` a
  cost of type "points" named "pts" (written even when 0); `sharedEntries` →
  `sharedSelectionEntries`.
- `entryGroup` → `selectionEntryGroup`, `defaultEntryId` → `defaultSelectionEntryId`;
  `sharedEntryGroups` → `sharedSelectionEntryGroups`.
- `categoryId` (other than "(No Category)") → one primary category link, id
  `<entry id>-<category id>`.
- each limit attribute → a constraint whose id is the attribute's name (`minSelections`,
  `maxInRoster`…, the ids 1.x modifiers name as their field): `…Selections` counts in the
  parent, `…InForce` in the force and `…InRoster` in the roster (both with child selections),
  `…Points` the points in the parent (with child selections). A minimum of 0 and a maximum of
  -1 are written only where a modifier changes that limit (it then changes it from that value,
  as BattleScribe 2 does: -1 incremented by 3 is 2) and on a shared entry group, which
  BattleScribe writes with all eight. Force and roster counts are `shared` (every link to the
  entry counted together) for the contents of shared entries and groups, not elsewhere. (No
  file of BSData/whfb limits an entry in the force: `…InForce` is read as `…InRoster` is.)
- `link` → an `infoLink` (`linkType` rule, profile) or an `entryLink` (entry →
  selectionEntry, entry group → selectionEntryGroup), with its modifiers.
- `modifier`: `type`, `field` and `value` as written (`points` is the cost type's id, a limit
  name its constraint's id, a profile's characteristic id that characteristic's type),
  `hide`/`show` → `set hidden true/false`; `repeat="true"` → one repeat (`incrementParentId`
  its scope, `incrementChildId` its childId, `incrementValue` its value, `numRepeats` its
  repeats; with child selections when it counts in the force or the roster); the attributes
  of a modifier that does not repeat are dropped, as BattleScribe does.
- `condition`: `parentId` → scope (roster, force, an entry id; "category", the 1.x selection's
  category, → roster as BattleScribe 2 converts it), `childId` kept, `equal to` → `equalTo`,
  `less than` → `lessThan`… , `shared`, with child selections in the force or the roster.
- `profile` (`profileTypeId`, `characteristicId`, `value` attributes) → `typeId`/`typeName`
  and characteristics of `typeId`; `rule` kept; a `book` → a publication of the catalogue (id
  `<first 8 characters of the catalogue id>--pub<n>`, the form BattleScribe 2.03 writes;
  its numbers are its own and cannot be recomputed).

What cannot be mapped is never guessed: a modifier of an unknown type or field, a condition or
repeat of an unknown type, scope or field, or a link of an unknown `linkType` is left out, and an
attribute or element the converter does not know is not read; each is a warning naming the
entry (`Conversion.warnings`) and counted (`Conversion.unmapped`), and `GameData.warnings` keeps
them for whoever loads the data. A modifier left out can leave a price or a limit the 1.x
file changed under a condition; the warning says which.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .legacy import POINTS_ID, POINTS_NAME, is_legacy

#: (attribute, constraint type, field, scope, counts child selections, is a force/roster count)
_LIMITS: tuple[tuple[str, str, str, str, bool, bool], ...] = (
    ("minSelections", "min", "selections", "parent", False, False),
    ("maxSelections", "max", "selections", "parent", False, False),
    ("minInForce", "min", "selections", "force", True, True),
    ("maxInForce", "max", "selections", "force", True, True),
    ("minInRoster", "min", "selections", "roster", True, True),
    ("maxInRoster", "max", "selections", "roster", True, True),
    ("minPoints", "min", POINTS_ID, "parent", True, False),
    ("maxPoints", "max", POINTS_ID, "parent", True, False),
)
LIMIT_NAMES = frozenset(limit[0] for limit in _LIMITS)
#: The 1.x condition types and their 2.x names.
CONDITION_TYPES = {
    "equal to": "equalTo",
    "not equal to": "notEqualTo",
    "less than": "lessThan",
    "greater than": "greaterThan",
    "at least": "atLeast",
    "at most": "atMost",
    "instance of": "instanceOf",
    "not instance of": "notInstanceOf",
}
#: A 1.x count's field and the 2.x field it is.
COUNT_FIELDS = {"selections": "selections", "points": POINTS_ID}
#: A 1.x count's parent and the 2.x scope it is (any other value is an entry id, kept).
SCOPES = {"roster": "roster", "force": "force", "category": "roster"}
#: 1.x parents that name no entry and have no 2.x scope.
_NO_SCOPE = frozenset({"no parent", "", "self"})
#: Modifier types kept as written, and the hide/show ones made a `set` of `hidden`.
_KEPT_MODIFIER_TYPES = frozenset({"set", "increment", "decrement", "append"})
_VISIBILITY = {"hide": "true", "show": "false"}
#: Link types and the 2.x (container, type) each becomes.
LINK_TYPES = {
    "rule": ("infoLinks", "rule"),
    "profile": ("infoLinks", "profile"),
    "entry": ("entryLinks", "selectionEntry"),
    "entry group": ("entryLinks", "selectionEntryGroup"),
}
#: The category id of an entry in none.
NO_CATEGORY = "(No Category)"

#: Attributes (and child lists) each 1.x element kind is read with; any other is reported.
_COMMON_LIMITS = tuple(limit[0] for limit in _LIMITS)
_KNOWN: dict[str, frozenset[str]] = {
    "catalogue": frozenset(
        {
            "id",
            "name",
            "revision",
            "battleScribeVersion",
            "gameSystemId",
            "gameSystemRevision",
            "authorName",
            "authorUrl",
            "authorContact",
            "library",
            "xmlns",
            "entries",
            "links",
            "rules",
            "profiles",
            "sharedEntries",
            "sharedEntryGroups",
            "sharedRules",
            "sharedProfiles",
        }
    ),
    "entry": frozenset(
        {
            "id",
            "name",
            "points",
            "categoryId",
            "type",
            "collective",
            "hidden",
            "page",
            "book",
            *_COMMON_LIMITS,
            "entries",
            "entryGroups",
            "links",
            "modifiers",
            "rules",
            "profiles",
        }
    ),
    "entryGroup": frozenset(
        {
            "id",
            "name",
            "defaultEntryId",
            "collective",
            "hidden",
            *_COMMON_LIMITS,
            "entries",
            "entryGroups",
            "links",
            "modifiers",
        }
    ),
    "link": frozenset({"id", "targetId", "linkType", "modifiers"}),
    "modifier": frozenset(
        {
            "type",
            "field",
            "value",
            "repeat",
            "numRepeats",
            "incrementParentId",
            "incrementChildId",
            "incrementField",
            "incrementValue",
            "conditions",
            "conditionGroups",
        }
    ),
    "condition": frozenset({"parentId", "childId", "field", "type", "value"}),
    "conditionGroup": frozenset({"type", "conditions", "conditionGroups"}),
    "profile": frozenset(
        {"id", "name", "hidden", "book", "page", "profileTypeId", "typeId", "characteristics", "modifiers"}
    ),
    "characteristic": frozenset({"characteristicId", "name", "value"}),
    "rule": frozenset({"id", "name", "hidden", "book", "page", "description", "modifiers"}),
}


class Unmappable(Exception):
    """A 1.x construct with no 2.x counterpart; its message says what it is."""


@dataclass
class Conversion:
    """A 1.x catalogue in the 2.x dict shape, what was converted and what could not be."""

    catalogue: dict[str, Any]
    #: One line per construct left out or not read, naming the catalogue and the entry.
    warnings: list[str] = field(default_factory=list)
    #: Constructs converted, by kind ("entry", "link:rule", "modifier", "constraint"…).
    converted: Counter = field(default_factory=Counter)
    #: Constructs left out or not read, by kind.
    unmapped: Counter = field(default_factory=Counter)
    #: Limits a modifier changes though the file leaves them unlimited (-1), by entry name.
    from_unlimited: list[str] = field(default_factory=list)


def is_legacy_catalogue(raw: Mapping[str, Any]) -> bool:
    """Whether a catalogue in the dict shape is in the 1.x form (`<entries>`, not 2.x entries)."""
    if not is_legacy(raw) or any(raw.get(k) for k in ("selectionEntries", "sharedSelectionEntries")):
        return False
    return any(k in raw for k in ("entries", "sharedEntries", "sharedEntryGroups"))


def upgraded_catalogue(
    raw: Mapping[str, Any], profile_type_names: Mapping[str, str] | None = None
) -> tuple[Mapping[str, Any], list[str]]:
    """(the catalogue as BattleScribe 2 reads it, the warnings of its conversion): a 1.x one is
    converted (`convert_catalogue`), any other returned as it is with none."""
    if not is_legacy_catalogue(raw):
        return raw, []
    result = convert_catalogue(raw, profile_type_names)
    return result.catalogue, result.warnings


def convert_catalogue(
    raw: Mapping[str, Any], profile_type_names: Mapping[str, str] | None = None
) -> Conversion:
    """The 1.x catalogue `raw` in the 2.x dict shape. `profile_type_names` ({profile type id:
    name}, the game system's) gives each profile its `typeName`, as BattleScribe 2 writes it."""
    return _Converter(raw, profile_type_names or {}).run()


def _list(value: Any) -> list[Mapping[str, Any]]:
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []


def _number(value: Any, default: float) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def _flag(value: Any) -> str:
    return "true" if str(value).strip().lower() == "true" else "false"


class _Converter:
    def __init__(self, raw: Mapping[str, Any], profile_type_names: Mapping[str, str]):
        self.raw = raw
        self.profile_type_names = profile_type_names
        self.catalogue_id = str(raw.get("id", "") or "")
        self.label = str(raw.get("name", "") or self.catalogue_id)
        self.result = Conversion(catalogue={})
        self.publications: dict[str, str] = {}
        #: {entry or group id: limit names a link's modifier changes}: the target must write them.
        self.linked_limits: dict[str, set[str]] = {}
        #: {profile id: its characteristic type ids}: the fields its (or its link's) modifiers change.
        self.characteristics: dict[str, frozenset[str]] = {}

    # -- bookkeeping ---------------------------------------------------------------------
    def count(self, kind: str) -> None:
        self.result.converted[kind] += 1

    def warn(self, kind: str, where: str, message: str) -> None:
        self.result.unmapped[kind] += 1
        self.result.warnings.append(f"{self.label}: {where}: {message}")

    def check_keys(self, kind: str, raw: Mapping[str, Any], where: str) -> None:
        for key in raw:
            if key not in _KNOWN[kind]:
                self.warn(
                    f"{kind}@{key}", where, f"the {kind}'s {key!r} (a BattleScribe 1.x construct) is not read"
                )

    def publication(self, book: Any) -> str:
        name = str(book or "").strip()
        if not name:
            return ""
        if name not in self.publications:
            self.publications[name] = f"{self.catalogue_id[:8]}--pub{len(self.publications) + 1}"
        return self.publications[name]

    def place(self, out: dict[str, Any], raw: Mapping[str, Any]) -> None:
        """The page and publication of an entry, profile or rule."""
        if raw.get("page") not in (None, ""):
            out["page"] = str(raw["page"])
        publication = self.publication(raw.get("book"))
        if publication:
            out["publicationId"] = publication

    # -- the file ------------------------------------------------------------------------
    def run(self) -> Conversion:
        raw = self.raw
        self.check_keys("catalogue", raw, "catalogue")
        self._collect_linked_limits(raw)
        out: dict[str, Any] = {k: v for k, v in raw.items() if not isinstance(v, (list, dict))}
        out.setdefault("library", "false")
        where = "catalogue"
        out["selectionEntries"] = [self.entry(e, False) for e in _list(raw.get("entries"))]
        links = self.links(raw.get("links"), where)
        out["entryLinks"] = links["entryLinks"]
        out["infoLinks"] = links["infoLinks"]
        out["rules"] = [self.rule(r) for r in _list(raw.get("rules"))]
        out["profiles"] = [self.profile(p) for p in _list(raw.get("profiles"))]
        out["sharedSelectionEntries"] = [self.entry(e, True) for e in _list(raw.get("sharedEntries"))]
        out["sharedSelectionEntryGroups"] = [
            self.group(g, True, top_shared=True) for g in _list(raw.get("sharedEntryGroups"))
        ]
        out["sharedRules"] = [self.rule(r) for r in _list(raw.get("sharedRules"))]
        out["sharedProfiles"] = [self.profile(p) for p in _list(raw.get("sharedProfiles"))]
        out["publications"] = [{"id": pid, "name": name} for name, pid in self.publications.items()]
        self.result.catalogue = out
        return self.result

    def _collect_linked_limits(self, raw: Mapping[str, Any], depth: int = 0) -> None:
        """Which limits of which entries a link's modifier changes (the target writes them)."""
        if depth > 64:
            return
        for link in _list(raw.get("links")):
            for modifier in _list(link.get("modifiers")):
                if modifier.get("field") in LIMIT_NAMES:
                    self.linked_limits.setdefault(str(link.get("targetId", "")), set()).add(
                        str(modifier["field"])
                    )
        for key in ("profiles", "sharedProfiles"):
            for profile in _list(raw.get(key)):
                self.characteristics[str(profile.get("id", ""))] = frozenset(
                    str(c.get("characteristicId") or c.get("typeId") or "")
                    for c in _list(profile.get("characteristics"))
                )
        for key in ("entries", "entryGroups", "sharedEntries", "sharedEntryGroups"):
            for child in _list(raw.get(key)):
                self._collect_linked_limits(child, depth + 1)

    # -- entries and groups --------------------------------------------------------------
    def entry(self, raw: Mapping[str, Any], in_shared: bool) -> dict[str, Any]:
        entry_id = str(raw.get("id", ""))
        where = f"entry {raw.get('name', '')!r} ({entry_id})"
        self.check_keys("entry", raw, where)
        self.count("entry")
        out: dict[str, Any] = {
            "id": entry_id,
            "name": str(raw.get("name", "")),
            "hidden": _flag(raw.get("hidden", "false")),
            "collective": _flag(raw.get("collective", "false")),
            "import": "true",
            "type": str(raw.get("type", "") or "upgrade"),
        }
        self.place(out, raw)
        modifiers = self.modifiers(raw.get("modifiers"), where)
        out["modifiers"] = modifiers
        out["constraints"] = self.constraints(raw, modifiers, in_shared, False, where)
        category = str(raw.get("categoryId", "") or "")
        out["categoryLinks"] = []
        if category and category != NO_CATEGORY:
            self.count("categoryLink")
            out["categoryLinks"].append(
                {"id": f"{entry_id}-{category}", "hidden": "false", "targetId": category, "primary": "true"}
            )
        out["selectionEntries"] = [self.entry(e, in_shared) for e in _list(raw.get("entries"))]
        out["selectionEntryGroups"] = [self.group(g, in_shared) for g in _list(raw.get("entryGroups"))]
        links = self.links(raw.get("links"), where)
        out["entryLinks"] = links["entryLinks"]
        out["infoLinks"] = links["infoLinks"]
        out["rules"] = [self.rule(r) for r in _list(raw.get("rules"))]
        out["profiles"] = [self.profile(p) for p in _list(raw.get("profiles"))]
        points = raw.get("points")
        value = _number(points, 0.0)
        if points not in (None, "") and str(_number(points, float("nan"))) == "nan":
            self.warn("entry@points", where, f"its points {points!r} are not a number: priced 0")
        out["costs"] = [{"name": POINTS_NAME, "typeId": POINTS_ID, "value": f"{value}"}]
        self.count("cost")
        return out

    def group(self, raw: Mapping[str, Any], in_shared: bool, top_shared: bool = False) -> dict[str, Any]:
        group_id = str(raw.get("id", ""))
        where = f"entry group {raw.get('name', '')!r} ({group_id})"
        self.check_keys("entryGroup", raw, where)
        self.count("entryGroup")
        out: dict[str, Any] = {
            "id": group_id,
            "name": str(raw.get("name", "")),
            "hidden": _flag(raw.get("hidden", "false")),
            "collective": _flag(raw.get("collective", "false")),
            "import": "true",
        }
        if raw.get("defaultEntryId"):
            out["defaultSelectionEntryId"] = str(raw["defaultEntryId"])
        modifiers = self.modifiers(raw.get("modifiers"), where)
        out["modifiers"] = modifiers
        out["constraints"] = self.constraints(raw, modifiers, in_shared, top_shared, where)
        out["selectionEntries"] = [self.entry(e, in_shared) for e in _list(raw.get("entries"))]
        out["selectionEntryGroups"] = [self.group(g, in_shared) for g in _list(raw.get("entryGroups"))]
        links = self.links(raw.get("links"), where)
        out["entryLinks"] = links["entryLinks"]
        out["infoLinks"] = links["infoLinks"]
        return out

    def constraints(
        self,
        raw: Mapping[str, Any],
        modifiers: list[dict[str, Any]],
        in_shared: bool,
        every_limit: bool,
        where: str,
    ) -> list[dict[str, str]]:
        """The constraints of an entry's or group's limit attributes (see the module's text)."""
        modified = {str(m.get("field")) for m in modifiers} | self.linked_limits.get(
            str(raw.get("id", "")), set()
        )
        out = []
        for attribute, kind, count_field, scope, children, force_count in _LIMITS:
            default = 0.0 if kind == "min" else -1.0
            text = raw.get(attribute)
            value = _number(text, default)
            if text not in (None, "") and str(_number(text, float("nan"))) == "nan":
                self.warn("limit", where, f"its {attribute} {text!r} is not a number: not read")
                value = default
            limiting = value > 0 if kind == "min" else value >= 0
            if not (limiting or every_limit or attribute in modified):
                continue
            if (
                kind == "max"
                and value < 0
                and any(
                    m.get("field") == attribute and m.get("type") in ("increment", "decrement")
                    for m in modifiers
                )
            ):
                self.result.from_unlimited.append(f"{where}: {attribute}")
            self.count("constraint")
            out.append(
                {
                    "field": count_field,
                    "scope": scope,
                    "value": f"{value}",
                    "percentValue": "false",
                    "shared": "true" if force_count and in_shared else "false",
                    "includeChildSelections": "true" if children else "false",
                    "includeChildForces": "false",
                    "id": attribute,
                    "type": kind,
                }
            )
        return out

    # -- links ---------------------------------------------------------------------------
    def links(self, raw: Any, where: str) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {"entryLinks": [], "infoLinks": []}
        for link in _list(raw):
            link_where = f"{where}, link {link.get('id', '')}"
            self.check_keys("link", link, link_where)
            kind = str(link.get("linkType", ""))
            if kind not in LINK_TYPES:
                self.warn(f"link:{kind}", link_where, f"a link of type {kind!r} has no 2.x form: left out")
                continue
            container, target_kind = LINK_TYPES[kind]
            self.count(f"link:{kind}")
            item: dict[str, Any] = {
                "id": str(link.get("id", "")),
                "hidden": "false",
                "targetId": str(link.get("targetId", "")),
                "type": target_kind,
            }
            if container == "entryLinks":
                item.update({"collective": "false", "import": "true"})
            target = (
                self.characteristics.get(item["targetId"], frozenset()) if kind == "profile" else frozenset()
            )
            item["modifiers"] = self.modifiers(link.get("modifiers"), link_where, target)
            out[container].append(item)
        return out

    # -- modifiers, conditions, repeats ---------------------------------------------------
    def modifiers(
        self, raw: Any, where: str, characteristics: frozenset[str] = frozenset()
    ) -> list[dict[str, Any]]:
        """The modifiers of an entry, group, link, profile or rule; a profile's (or a profile
        link's) may change one of its `characteristics` (by characteristic type id, as in 2.x)."""
        out = []
        for modifier in _list(raw):
            self.check_keys("modifier", modifier, where)
            try:
                out.append(self.modifier(modifier, characteristics))
            except Unmappable as problem:
                self.warn(
                    f"modifier:{problem.args[1]}",
                    where,
                    f"a modifier ({modifier.get('type', '')} {modifier.get('field', '')} "
                    f"{modifier.get('value', '')}) is left out: {problem.args[0]}",
                )
        return out

    def modifier(self, raw: Mapping[str, Any], characteristics: frozenset[str]) -> dict[str, Any]:
        kind = str(raw.get("type", ""))
        field_name = str(raw.get("field", ""))
        value = str(raw.get("value", ""))
        if kind in _VISIBILITY:
            kind, field_name, value = "set", "hidden", _VISIBILITY[kind]
        elif kind not in _KEPT_MODIFIER_TYPES:
            raise Unmappable(f"its type {kind!r} has no 2.x counterpart", f"type {kind}")
        elif field_name not in LIMIT_NAMES | {"points", "name", "hidden"} | characteristics:
            raise Unmappable(f"its field {field_name!r} has no 2.x counterpart", f"field {field_name}")
        out: dict[str, Any] = {"type": kind, "field": field_name, "value": value}
        out["repeats"] = [self.repeat(raw)] if _flag(raw.get("repeat")) == "true" else []
        out["conditions"] = [self.condition(c) for c in _list(raw.get("conditions"))]
        out["conditionGroups"] = [self.condition_group(g) for g in _list(raw.get("conditionGroups"))]
        self.count("modifier")
        return out

    def repeat(self, raw: Mapping[str, Any]) -> dict[str, str]:
        scope = self.scope(raw.get("incrementParentId"), "repeat")
        child = str(raw.get("incrementChildId", "") or "")
        if child in ("", "no child"):
            raise Unmappable(
                "it repeats for each of no entry (incrementChildId 'no child')", "repeat no child"
            )
        count_field = COUNT_FIELDS.get(str(raw.get("incrementField", "selections")))
        if count_field is None:
            raise Unmappable(f"it repeats by {raw.get('incrementField')!r}", "repeat field")
        self.count("repeat")
        return {
            "field": count_field,
            "scope": scope,
            "value": str(raw.get("incrementValue", "1.0")),
            "percentValue": "false",
            "shared": "true",
            "includeChildSelections": "true" if scope in ("roster", "force") else "false",
            "includeChildForces": "false",
            "childId": child,
            "repeats": str(raw.get("numRepeats", "1")),
            "roundUp": "false",
        }

    def scope(self, parent: Any, what: str) -> str:
        parent = str(parent or "")
        if parent in SCOPES:
            if parent == "category":
                self.count("scope:category→roster")
            return SCOPES[parent]
        if parent in _NO_SCOPE:
            raise Unmappable(
                f"its {what} counts in {parent!r}, which has no 2.x scope", f"{what} scope {parent}"
            )
        return parent

    def condition(self, raw: Mapping[str, Any]) -> dict[str, str]:
        self.check_keys("condition", raw, "condition")
        kind = CONDITION_TYPES.get(str(raw.get("type", "")))
        if kind is None:
            raise Unmappable(
                f"a condition's type {raw.get('type')!r} has no 2.x counterpart", "condition type"
            )
        count_field = COUNT_FIELDS.get(str(raw.get("field", "selections")))
        if count_field is None:
            raise Unmappable(f"a condition counts {raw.get('field')!r}", "condition field")
        child = str(raw.get("childId", "") or "")
        if child in ("", "no child"):
            raise Unmappable("a condition counts no entry (childId 'no child')", "condition no child")
        scope = self.scope(raw.get("parentId"), "condition")
        self.count("condition")
        return {
            "field": count_field,
            "scope": scope,
            "value": str(raw.get("value", "0.0")),
            "percentValue": "false",
            "shared": "true",
            "includeChildSelections": "true" if scope in ("roster", "force") else "false",
            "includeChildForces": "false",
            "childId": child,
            "type": kind,
        }

    def condition_group(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        self.check_keys("conditionGroup", raw, "condition group")
        kind = str(raw.get("type", "and"))
        if kind not in ("and", "or"):
            raise Unmappable(f"a condition group of type {kind!r}", "condition group type")
        self.count("conditionGroup")
        return {
            "type": kind,
            "conditions": [self.condition(c) for c in _list(raw.get("conditions"))],
            "conditionGroups": [self.condition_group(g) for g in _list(raw.get("conditionGroups"))],
        }

    # -- profiles and rules --------------------------------------------------------------
    def profile(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        where = f"profile {raw.get('name', '')!r} ({raw.get('id', '')})"
        self.check_keys("profile", raw, where)
        self.count("profile")
        type_id = str(raw.get("typeId") or raw.get("profileTypeId") or "")
        out: dict[str, Any] = {
            "id": str(raw.get("id", "")),
            "name": str(raw.get("name", "")),
            "hidden": _flag(raw.get("hidden", "false")),
            "typeId": type_id,
            "typeName": str(self.profile_type_names.get(type_id, "")),
        }
        self.place(out, raw)
        characteristics = []
        for characteristic in _list(raw.get("characteristics")):
            self.check_keys("characteristic", characteristic, where)
            characteristics.append(
                {
                    "name": str(characteristic.get("name", "")),
                    "typeId": str(
                        characteristic.get("characteristicId") or characteristic.get("typeId") or ""
                    ),
                    "value": str(characteristic.get("value", "") or ""),
                }
            )
        out["characteristics"] = characteristics
        out["modifiers"] = self.modifiers(
            raw.get("modifiers"), where, frozenset(c["typeId"] for c in characteristics)
        )
        return out

    def rule(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        where = f"rule {raw.get('name', '')!r} ({raw.get('id', '')})"
        self.check_keys("rule", raw, where)
        self.count("rule")
        out: dict[str, Any] = {
            "id": str(raw.get("id", "")),
            "name": str(raw.get("name", "")),
            "hidden": _flag(raw.get("hidden", "false")),
        }
        self.place(out, raw)
        if raw.get("description"):
            out["description"] = str(raw["description"])
        out["modifiers"] = self.modifiers(raw.get("modifiers"), where)
        return out


__all__ = [
    "CONDITION_TYPES",
    "LINK_TYPES",
    "Conversion",
    "convert_catalogue",
    "is_legacy_catalogue",
    "upgraded_catalogue",
]
