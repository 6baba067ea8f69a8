"""The data errors BattleScribe reports about game data itself, before any roster is built.

A link must point at something that exists, a constraint or condition must count a field and
in a scope that exist, a condition's child must exist, a modifier must change a field that
exists (with a type that fits it), and every id must be unique. Each error carries a
structured `code` (for a translated message in the layer that shows it) and BattleScribe's
own English message (which the conformance suite compares).
"""

from __future__ import annotations

from dataclasses import dataclass

from .conditions import ENTRY_TYPES
from .gamedata import DataFiles, DataNode

#: Scopes a query may name besides an entry id.
SCOPES = frozenset(
    {"self", "parent", "force", "roster", "primary-category", "primary-catalogue", "ancestor", "root-entry"}
)
#: Elements whose ids must be unique (real data repeats the ids of copied constraints and
#: links, which BattleScribe accepts).
UNIQUE_KINDS = frozenset(
    {
        "selectionEntry",
        "selectionEntryGroup",
        "forceEntry",
        "categoryEntry",
        "rule",
        "profile",
        "infoGroup",
        "costType",
        "profileType",
        "characteristicType",
        "publication",
    }
)
#: Fields a constraint, condition or repeat may count besides a cost type id.
QUERY_FIELDS = frozenset({"selections", "forces", "associations"})
#: Child ids a condition may name besides an entry id.
CHILD_KEYWORDS = frozenset({"any", *ENTRY_TYPES})
#: Fields a modifier may change besides a cost type, constraint or characteristic type id.
MODIFIER_FIELDS = frozenset(
    {
        "hidden",
        "name",
        "page",
        "category",
        "annotation",
        "description",
        "defaultSelectionEntryId",
        "publicationId",
        "collective",
        "primary",
        "type",
        "value",
    }
)
#: Modifier types, by the kind of field they change.
MODIFIER_TYPES = frozenset(
    {
        "set",
        "increment",
        "decrement",
        "append",
        "prepend",
        "add",
        "remove",
        "set-primary",
        "unset-primary",
        "multiply",
        "divide",
        "replace",
        "ceil",
        "floor",
        "cumulative-add",
    }
)
_LINK_MESSAGES = {
    "entryLink": ("broken-entry-link", "EntryLink must have a target that exists"),
    "infoLink": ("broken-info-link", "InfoLink must have a target that exists"),
    "categoryLink": ("broken-category-link", "CategoryLink must have a target that exists"),
    "catalogueLink": ("broken-catalogue-link", "CatalogueLink must have a target that exists"),
}


@dataclass(frozen=True)
class DataError:
    """One data error: a code and its parameters, and BattleScribe's English message."""

    code: str
    message: str
    entry_id: str = ""
    value: str = ""


def check(data: DataFiles) -> list[DataError]:
    """Every data error in all loaded files, in document order."""
    ids: dict[str, int] = {}
    unique: dict[str, int] = {}
    for node in data.all_nodes():
        if node.id and node.parent is not None:
            ids[node.id] = ids.get(node.id, 0) + 1
            if node.kind in UNIQUE_KINDS:
                unique[node.id] = unique.get(node.id, 0) + 1
    known = set(ids) | {f.id for f in data.files}
    cost_types = {n.id for n in data.all_nodes() if n.kind == "costType"}
    catalogues = {f.id for f in data.catalogues()}
    errors: list[DataError] = []
    if any(n > 1 for n in unique.values()):
        dup = next(i for i, n in unique.items() if n > 1)
        errors.append(DataError("duplicate-id", "All data element ids must be unique", dup, dup))
    for node in data.all_nodes():
        kind = node.kind
        if kind in _LINK_MESSAGES:
            target = node.attrs.get("targetId", "")
            pool = catalogues if kind == "catalogueLink" else known
            if target not in pool:
                code, message = _LINK_MESSAGES[kind]
                errors.append(DataError(code, message, node.id, target))
        elif kind in ("constraint", "condition", "repeat"):
            errors.extend(_query_errors(node, known, cost_types))
        elif kind == "modifier":
            errors.extend(_modifier_errors(node, known))
    return errors


def _query_errors(node: DataNode, known: set[str], cost_types: set[str]) -> list[DataError]:
    label = node.kind.capitalize()
    out: list[DataError] = []
    fld = node.attrs.get("field", "selections")
    if fld not in QUERY_FIELDS and fld not in cost_types and not fld.startswith("limit::"):
        out.append(
            DataError(f"{node.kind}-bad-field", f"{label} must have a field that exists", node.id, fld)
        )
    scope = node.attrs.get("scope", "parent")
    if scope not in SCOPES and scope not in known:
        out.append(
            DataError(f"{node.kind}-bad-scope", f"{label} must have a scope that exists", node.id, scope)
        )
    child = node.attrs.get("childId", "")
    # In the primary catalogue, the child is a catalogue, which need not be loaded.
    in_catalogue = scope == "primary-catalogue"
    if (
        node.kind != "constraint"
        and child
        and not in_catalogue
        and child not in CHILD_KEYWORDS
        and child not in known
    ):
        out.append(
            DataError(f"{node.kind}-bad-child", f"{label} must have a child that exists", node.id, child)
        )
    return out


def _modifier_errors(node: DataNode, known: set[str]) -> list[DataError]:
    fld = node.attrs.get("field", "")
    if not fld or fld in MODIFIER_FIELDS or fld in known or fld.startswith("limit::"):
        mtype = node.attrs.get("type", "set")
        if mtype and mtype not in MODIFIER_TYPES:
            return [DataError("modifier-bad-type", "Modifier must have a type that exists", "", mtype)]
        return []
    return [
        DataError("modifier-bad-field", "Modifier must have a field that exists", "", fld),
        DataError(
            "modifier-bad-type", "Modifier must have a type that exists", "", node.attrs.get("type", "")
        ),
    ]
