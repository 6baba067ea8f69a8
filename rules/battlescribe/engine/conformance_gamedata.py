"""Runs the suite's gamedata specs (data editing) through `gamedata.DataFiles`.

A gamedata spec loads a game system and catalogues, opens one of them (`setup.edit`), edits
it (`addEntry`, `addLink`, `setFields`, `removeEntry`, `openFile`, `reload`) and asserts the
data's state (each file's containers, each node's kind, name, hidden flag, fields, costs and
characteristics and children), its data errors, or the exact XML BattleScribe would save.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import gamedata_xml
from .gamedata import DataFiles, DataNode
from .gamedata_checks import check

ENGINE = "battlescribe"
#: Engine families whose side-file snapshots apply, most specific first.
SNAPSHOT_TIERS = (ENGINE, "")
_WHOLE_DOUBLE = re.compile(r"^-?\d+\.0$")
#: Containers a file state always reports (empty when the file has none).
FILE_CONTAINERS = (
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
    "sharedForceEntries",
    "sharedAssociations",
    "catalogueLinks",
)
#: Fields reported with a whole number written without `.0` (BattleScribe stores doubles).
_NUMERIC_FIELDS = {"value", "defaultCostLimit"}


def _plain_number(text: str) -> str:
    return text[:-2] if _WHOLE_DOUBLE.match(text) else text


def node_state(node: DataNode) -> dict:
    """A node in the suite's vocabulary: id, name, entryType, hidden, fields, children."""
    fields: dict[str, str] = {}
    for key, value in node.attrs.items():
        fields[key] = _plain_number(value) if key in _NUMERIC_FIELDS else value
    if "import" in fields:
        fields["imported"] = fields["import"]
    for cost in node.costs:
        fields[f"cost:{cost.type_id}"] = _plain_number(cost.value)
    for char in node.characteristics:
        fields[f"char:{char.name}"] = char.value
        if char.type_id and char.type_id != char.name:
            fields.setdefault(f"char:{char.type_id}", char.value)
    return {
        "id": node.id,
        "name": node.attrs.get("name", ""),
        "entryType": node.kind,
        "hidden": node.hidden,
        "fields": fields,
        "children": [node_state(c) for c in node.children],
    }


def file_state(node: DataNode) -> dict:
    out = node_state(node)
    for container in FILE_CONTAINERS:
        out[container] = []
    for child in node.children:
        out.setdefault(child.container, []).append(node_state(child))
    out["selectionEntryCount"] = len(out["selectionEntries"])
    return out


def data_state(data: DataFiles) -> dict:
    gs = data.game_system()
    return {
        "gameSystem": file_state(gs) if gs is not None else {},
        "catalogues": [file_state(c) for c in data.catalogues()],
        "errors": [{"message": e.message} for e in check(data)],
    }


class GamedataRunner:
    """Runs one gamedata spec; `compare`, `sub` and the failure type come from the roster runner."""

    def __init__(self, spec: dict, path: Path | None, compare, failure, unsupported):
        self.spec = spec
        self.path = path
        self.compare = compare
        self.failure = failure
        self.unsupported = unsupported
        setup = spec.get("setup") or {}
        self.data = DataFiles(setup.get("gameSystem") or {}, setup.get("catalogues") or [])
        self.data.open_file(str(setup["edit"]))
        self.outputs: dict[str, dict] = {}

    def run(self, sub) -> int:
        skipped = 0
        for index, step in enumerate(self.spec.get("steps") or []):
            if ENGINE in (step.get("skipEngines") or []):
                skipped += 1
                continue
            where = f"step {index + 1}"
            if "action" in step:
                self.act({k: sub(v, self.outputs) for k, v in step.items()}, step, where)
            elif "expectedState" in step:
                self.check_state(step["expectedState"], where)
            elif "expectedFile" in step:
                self.check_file(step, where)
        return skipped

    def act(self, args: dict, step: dict, where: str) -> None:
        override = (step.get("engines") or {}).get(ENGINE) or {}
        args.update(override)
        action = args["action"]
        data = self.data
        out: dict = {}
        if action == "addEntry":
            node = data.add_entry(
                str(args["parentId"]), str(args["entryType"]), args.get("name"), args.get("entryId")
            )
            out = {"entryId": node.handle}
        elif action == "addLink":
            node = data.add_link(
                str(args["parentId"]), str(args["linkType"]), str(args["targetId"]), args.get("entryId")
            )
            out = {"entryId": node.handle}
        elif action == "setFields":
            data.set_fields(
                str(args["entryId"]), args.get("fields"), args.get("costs"), args.get("characteristics")
            )
        elif action == "removeEntry":
            data.remove_entry(str(args["entryId"]))
        elif action == "reload":
            gamedata_xml.reload(data)
        elif action == "openFile":
            content = args.get("content")
            if content is None and not args.get("entryId"):
                content = self._side_file(str(step.get("id", "")), ("cat", "gst"))
            if content is not None:
                node = data.load_file(gamedata_xml.read_file(data, content))
                out = {"entryId": node.id}
            else:
                data.open_file(str(args["entryId"]))
        else:
            raise self.unsupported(f"{where}: gamedata action {action!r} is not supported")
        if step.get("id"):
            self.outputs[step["id"]] = out

    def check_state(self, expected: dict, where: str) -> None:
        expected = dict(expected)
        override = (expected.pop("engines", None) or {}).get(ENGINE)
        if override:
            expected.update(override)
        state = data_state(self.data)
        for key, value in expected.items():
            actual = state.get(key)
            if key == "catalogues" and isinstance(value, list) and all("id" in c for c in value):
                # A spec lists the catalogues it asserts, by id; others loaded are not its concern.
                wanted = {str(c["id"]) for c in value}
                actual = [c for c in actual if c["id"] in wanted]
            self.compare(actual, value, f"{where}: {key}")

    def _side_file(self, step_id: str, exts: tuple[str, ...]) -> str | None:
        if self.path is None:
            return None
        spec_id = str(self.spec.get("id", self.path.stem))
        for family in SNAPSHOT_TIERS:
            for ext in exts:
                name = f"{spec_id}.{step_id}.{family}.{ext}" if family else f"{spec_id}.{step_id}.{ext}"
                candidate = self.path.parent / name
                if candidate.is_file():
                    return candidate.read_text(encoding="utf-8").replace("\r\n", "\n")
        return None

    def check_file(self, step: dict, where: str) -> None:
        active = self.data.active
        if active is None:
            raise self.failure(f"{where}: no file is open")
        actual = gamedata_xml.write_file(active, self.data)
        spec_file = step["expectedFile"] or {}
        override = (spec_file.get("engines") or {}).get(ENGINE) or {}
        expected = override.get("content", spec_file.get("content"))
        if expected is None:
            ext = "gst" if active.kind == "gameSystem" else "cat"
            expected = self._side_file(str(step.get("id", "")), (ext,))
        if expected is None:
            raise self.failure(f"{where}: no expected file for step {step.get('id')!r}")
        if actual.rstrip("\n") != expected.replace("\r\n", "\n").rstrip("\n"):
            diff = next(
                (
                    f"line {i + 1}: {a!r} != {e!r}"
                    for i, (a, e) in enumerate(zip(actual.splitlines(), expected.splitlines(), strict=False))
                    if a != e
                ),
                "lengths differ",
            )
            raise self.failure(f"{where}: exported file differs ({diff})")
